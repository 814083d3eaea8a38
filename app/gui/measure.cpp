// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/measure.h"

#include "widgets/main_window.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/parameter_row.h"
#include "widgets/panels/playback_bar.h"
#include "widgets/plots/plot_base.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/view_state.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSlider>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace idlescope {

namespace {

/// Runs the event loop until the window shows a new snapshot (or 120 s pass).
bool waitForSnapshot(MainWindow &w)
{
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
    QObject::connect(&w, &MainWindow::snapshotShown, &loop, [&loop] { loop.exit(0); });
    timeout.start(120000);
    return loop.exec() == 0;
}

struct Stats {
    double median, p95, max, mean;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v)
        sum += x;
    const auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))]; };
    return {at(0.5), at(0.95), v.back(), sum / static_cast<double>(v.size())};
}

/// Slider release → snapshot shown → every plot replotted, in ms.
double timeRelease(MainWindow &w, ParameterRow *row, std::int64_t value)
{
    QElapsedTimer t;
    t.start();
    row->slider()->setSliderDown(true);
    row->slider()->setValue(static_cast<int>(value - row->minimum()));
    row->slider()->setSliderDown(false); // emits sliderReleased → final change → requestNow
    if (!waitForSnapshot(w))
        return -1;
    w.refreshPlotsNow();
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

std::vector<double> timeFrames(MainWindow &w, int frames, qint64 startNs)
{
    std::vector<double> out;
    PlaybackBar *bar = w.playbackBar();
    bar->pause();
    w.viewState()->setCursorNs(startNs);
    for (int i = 0; i < frames; ++i) {
        QElapsedTimer t;
        t.start();
        bar->advance(16000000); // one 16 ms tick at the chosen speed
        w.refreshPlotsNow();    // the plots and the legend follow the cursor
        out.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    return out;
}

void printStats(const char *what, const std::vector<double> &v)
{
    const Stats s = stats(v);
    std::printf("%-58s n=%3zu  median %7.1f ms  p95 %7.1f ms  max %7.1f ms\n", what, v.size(), s.median, s.p95, s.max);
}

} // namespace

int runMeasurements(MainWindow &w, qint64 spans)
{
    w.resize(1600, 1000);
    ScenarioSpec spec = defaultScenario();
    // +-30 us of jitter: menu's pattern detector and teo's bins get real work.
    spec.workload = periodicIpiWorkload(spans, 100, 30);
    std::erase_if(spec.governors, [](const GovernorSpec &g) { return g.variant == "oracle"; });
    w.applySpec(spec);
    if (!waitForSnapshot(w)) {
        std::fprintf(stderr, "measure: the first simulation did not finish\n");
        return 1;
    }
    w.refreshPlotsNow();
    const SnapshotPtr snap = w.snapshot();
    std::printf("stream: %s; governors:", qPrintable(snap->workloadDescription));
    std::size_t entries = 0;
    for (const GovernorRun &r : snap->runs) {
        std::printf(" %s (%zu entries)", r.variant.c_str(), r.size());
        entries += r.size();
    }
    std::printf("\nfirst simulation (all governors, on the worker): %.1f ms\n", snap->simulationMs);

    // 1. Slider release on one governor: only that one is replayed.
    const std::string first = snap->runs.empty() ? std::string() : snap->runs[0].variant;
    ParameterRow *row = w.parameterPanel()->row(first, QStringLiteral("INTERVALS"));
    if (row) {
        std::vector<double> one;
        for (int i = 0; i < 6; ++i)
            one.push_back(timeRelease(w, row, i % 2 ? 8 : 7));
        printStats(qPrintable(QStringLiteral("slider release, %1 INTERVALS (1 governor re-run)").arg(QString::fromStdString(first))), one);
        std::printf("  worker time of the last one: %.1f ms\n", w.snapshot()->simulationMs);
    }
    // 2. A change every governor depends on (the latency limit): all are replayed.
    std::vector<double> all;
    for (int i = 0; i < 6; ++i) {
        w.parameterPanel()->setLatencyLimitNs(i % 2 ? 2000000 : 3000000);
        QElapsedTimer t;
        t.start();
        w.runner()->requestNow(w.currentSpec());
        if (!waitForSnapshot(w))
            return 1;
        w.refreshPlotsNow();
        all.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    printStats(qPrintable(QStringLiteral("latency limit change (%1 governors re-run)").arg(snap->governorCount())), all);
    std::printf("  worker time of the last one: %.1f ms\n", w.snapshot()->simulationMs);

    // 3. Playback frames at 1x: whole run in view; a narrow window that scrolls
    //    every frame; the worst case, half of the run in view scrolling every frame.
    std::printf("playback speed: %.3g x\n", w.playbackBar()->speed() / 1e9);
    w.viewState()->resetZoom();
    printStats("playback frame, whole run in view", timeFrames(w, 120, 0));
    const qint64 end = w.viewState()->fullEndNs();
    w.viewState()->zoomTo(0, end / 1000);
    printStats("playback frame, 1/1000 of the run in view, scrolling", timeFrames(w, 120, end / 1000));
    w.viewState()->resetZoom();
    w.viewState()->zoomTo(0, end / 2);
    printStats("playback frame, 1/2 of the run in view, scrolling", timeFrames(w, 120, end / 2));
    std::printf("total entries: %zu\n", entries);
    return 0;
}

} // namespace idlescope
