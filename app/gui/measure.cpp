// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/measure.h"

#include "core/governors/registry.h"
#include "core/replay/governor_factory.h"
#include "core/replay/governor_run.h"
#include "core/stats/summarised_run.h"
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
#include <QFile>
#include <QSlider>
#include <QThread>
#include <QTimer>

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

namespace idlescope {

namespace {

/// CPU time of the whole process (every thread), ms: what the work costs on an idle machine,
/// whatever the load of a shared one does to the wall clock.
double cpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3)
           + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

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
    const auto at = [&](double q) {
        return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
    };
    return {at(0.5), at(0.95), v.back(), sum / static_cast<double>(v.size())};
}

/// Drags @p row's slider to @p position and lets go (emits sliderReleased → the
/// final change → requestNow), as a user does.
void releaseAt(ParameterRow *row, int position)
{
    row->slider()->setSliderDown(true);
    row->slider()->setValue(position);
    row->slider()->setSliderDown(false);
}

/// Slider release → snapshot shown → every plot replotted: wall ms (CPU ms in @p cpu).
double timeRelease(MainWindow &w, ParameterRow *row, int position, double *cpu)
{
    const double cpu0 = cpuMs();
    QElapsedTimer t;
    t.start();
    double startedAt = -1;
    const auto c = QObject::connect(w.runner(), &SimulationRunner::started,
                                    [&] { startedAt = static_cast<double>(t.nsecsElapsed()) / 1e6; });
    releaseAt(row, position);
    const double releasedAt = static_cast<double>(t.nsecsElapsed()) / 1e6;
    if (!waitForSnapshot(w))
        return -1;
    QObject::disconnect(c);
    const double shownAt = static_cast<double>(t.nsecsElapsed()) / 1e6;
    w.refreshPlotsNow();
    *cpu = cpuMs() - cpu0;
    const double total = static_cast<double>(t.nsecsElapsed()) / 1e6;
    std::printf("    slider handled at %.1f ms, worker started at %.1f and took %.1f, snapshot shown at %.1f "
                "(%.1f of it handing over), all plots replotted at %.1f ms\n",
                releasedAt, startedAt, w.snapshot()->simulationMs, shownAt, w.lastShowMs(), total);
    return total;
}

/// The slider position nearest to @p row's current one whose value differs
/// (a logarithmic slider may map neighbouring positions to one value), or
/// -1. Leaves the row at that position, its snapshot shown.
int otherPosition(MainWindow &w, ParameterRow *row)
{
    QSlider *slider = row->slider();
    const int start = slider->value();
    const std::int64_t value = row->value();
    for (int step = 1; step <= slider->maximum() - slider->minimum(); ++step) {
        for (const int p : {start + step, start - step}) {
            if (p < slider->minimum() || p > slider->maximum())
                continue;
            releaseAt(row, p);
            if (!waitForSnapshot(w))
                return -1;
            if (row->value() != value)
                return p;
        }
    }
    return -1;
}

std::vector<double> timeFrames(MainWindow &w, int frames, qint64 startNs, std::vector<double> *cpu)
{
    std::vector<double> out;
    PlaybackBar *bar = w.playbackBar();
    bar->pause();
    w.viewState()->setCursorNs(startNs);
    for (int i = 0; i < frames; ++i) {
        const double cpu0 = cpuMs();
        QElapsedTimer t;
        t.start();
        bar->advance(16000000); // one 16 ms tick at the chosen speed
        w.refreshPlotsNow();    // the plots and the legend follow the cursor
        out.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        cpu->push_back(cpuMs() - cpu0);
    }
    return out;
}

void printStats(const char *what, const std::vector<double> &wall, const std::vector<double> &cpu)
{
    const Stats s = stats(wall);
    const Stats c = stats(cpu);
    std::printf("%-56s n=%3zu  wall: median %7.1f  p95 %7.1f  max %7.1f ms | CPU: median %7.1f  max %7.1f ms\n", what,
                wall.size(), s.median, s.p95, s.max, c.median, c.max);
}

/// The 1-minute load average and the CPU count: a wall clock on a shared
/// machine means little without them.
void printLoad(const char *when)
{
    QFile f(QStringLiteral("/proc/loadavg"));
    const QByteArray load = f.open(QIODevice::ReadOnly) ? f.readLine().split(' ').value(0) : QByteArray("?");
    std::printf("machine load %s: %s runnable on average (1 min) for %d CPUs\n", when, load.constData(),
                QThread::idealThreadCount());
}

/// How fast each CPU is right now: the same replay (menu v6.14, the
/// default scenario's table, 200,000 steady IPI wakeups) on a thread bound
/// to each CPU in turn, best of three. A shared or virtual machine's CPUs can
/// differ by more than half from each other and from minute to minute, and
/// the figures above move with them.
void printCpuSpeeds(const char *when)
{
    const ScenarioSpec spec = defaultScenario();
    auto stream = buildStream(periodicIpiWorkload(200000, 100, 0));
    if (!stream)
        return;
    std::printf("CPU speeds %s (menu-6.14 replay of 200,000 spans, best of 3):", when);
    for (int cpu = 0; cpu < QThread::idealThreadCount(); ++cpu) {
        double best = -1;
        std::thread t([&] {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
                return;
            for (int k = 0; k < 3; ++k) {
                auto gov = createGovernor("menu-6.14");
                QElapsedTimer clock;
                clock.start();
                replayStream(spec.target.table, *stream, *gov);
                const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
                best = best < 0 ? ms : std::min(best, ms);
            }
        });
        t.join();
        if (best >= 0)
            std::printf(" CPU %d %.1f ms", cpu, best);
    }
    std::printf("\n");
}

/// "  target < 100 ms: met" or "NOT met", on the wall median; CPU shows what
/// an idle machine would see when the wall clock is inflated by other load.
void printVerdict(const char *target, double limitMs, bool inclusive, const std::vector<double> &wall,
                  const std::vector<double> &cpu)
{
    const Stats s = stats(wall);
    const Stats c = stats(cpu);
    const auto ok = [&](double v) { return inclusive ? v <= limitMs : v < limitMs; };
    std::printf("  target %s: %s (wall median %.1f ms, p95 %.1f ms; CPU median %.1f ms: %s on CPU time)\n", target,
                ok(s.median) ? "MET" : "NOT met", s.median, s.p95, c.median, ok(c.median) ? "met" : "not met");
}

/// Where the time of the re-simulation just shown went, plot by plot.
void printOneMore(MainWindow &w)
{
    std::printf("  one more: worker %.1f ms, handing the snapshot to the views %.1f ms, replots:",
                w.snapshot()->simulationMs, w.lastShowMs());
    for (PlotBase *p : w.plots()) {
        QElapsedTimer clock;
        clock.start();
        p->refreshNow();
        std::printf(" %.1f", static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    std::printf(" ms\n");
}

/// Eight latency-limit changes alternating @p a and @p b (ns), each timed from the request to
/// every plot replotted, printed with their statistics under @p what; false when no snapshot came.
bool timeLatencyChanges(MainWindow &w, qint64 a, qint64 b, const QString &what)
{
    std::vector<double> wall, cpu;
    for (int i = 0; i < 8; ++i) {
        w.parameterPanel()->setLatencyLimitNs(i % 2 ? b : a);
        const double cpu0 = cpuMs();
        QElapsedTimer t;
        t.start();
        w.runner()->requestNow(w.currentSpec());
        if (!waitForSnapshot(w))
            return false;
        const double shownAt = static_cast<double>(t.nsecsElapsed()) / 1e6;
        w.refreshPlotsNow();
        wall.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        cpu.push_back(cpuMs() - cpu0);
        std::printf("    worker took %.1f, snapshot shown at %.1f (%.1f of it handing over), all plots replotted at "
                    "%.1f ms\n",
                    w.snapshot()->simulationMs, shownAt, w.lastShowMs(), wall.back());
    }
    printStats(qPrintable(what), wall, cpu);
    printVerdict("< 100 ms", 100.0, false, wall, cpu);
    return true;
}

/// The worker's share of @p variant's re-run on @p s, piece by piece, on this thread: the engine
/// alone, the worker's pass, and the comparison totals.
void printWorkerShare(const SimulationSnapshot &s, const std::string &variant,
                      const std::vector<TunableSetting> &settings)
{
    auto bare = makeConfiguredGovernor(variant, settings);
    (*bare)->keepReasoning(false); // as the worker's runs (runGovernor())
    // Once untimed, so that the timed pass gets warm memory as the worker does.
    const RunOptions options{.settings = settings,
                             .latencyLimitNs = s.spec.latencyLimitNs,
                             .spanClockNs = s.spanClockNs.get()};
    runGovernorSummarised(s.table, *s.stream, variant, options);
    QElapsedTimer clock;
    clock.start();
    replayStream(s.table, *s.stream, **bare); // the engine alone: no entry kept
    const double engineMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    clock.restart();
    auto summarised = runGovernorSummarised(s.table, *s.stream, variant, options);
    const double summarisedMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    clock.restart();
    const GovernorTotals totals = governorTotals(summarised->run, s.table);
    const double totalsMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    std::printf("  alone on one thread: engine without keeping entries %.1f ms; the worker's pass (entries kept, "
                "prefix counts and plot summaries built on the way) %.1f ms; comparison totals %.1f ms\n",
                engineMs, summarisedMs, totalsMs);
}

/// 1. Slider release on @p variant's first tunable: only that governor is replayed. Back and
/// forth between the default and the nearest other value, six times; false when no snapshot came.
bool timeSliderRelease(MainWindow &w, const std::string &variant)
{
    auto gov = createGovernor(variant);
    if (!gov || gov->tunables().empty())
        return true;
    const TunableInfo &t = gov->tunables()[0];
    ParameterRow *row = w.parameterPanel()->row(variant, QString::fromUtf8(t.name));
    if (!row)
        return true;
    const int home = row->slider()->value();
    const std::int64_t homeValue = row->value();
    const int away = otherPosition(w, row);
    if (away < 0)
        return true;
    const std::int64_t other = row->value();
    std::vector<double> wall, cpu;
    for (int i = 0; i < 6; ++i) {
        double c = 0;
        wall.push_back(timeRelease(w, row, i % 2 ? away : home, &c));
        cpu.push_back(c);
    }
    std::printf("%s %s: %lld <-> %lld\n", variant.c_str(), t.name, static_cast<long long>(homeValue),
                static_cast<long long>(other));
    printStats(qPrintable(QStringLiteral("slider release, %1 %2 (1 re-run)")
                              .arg(QString::fromStdString(variant), QString::fromUtf8(t.name))),
               wall, cpu);
    printVerdict("< 100 ms", 100.0, false, wall, cpu);
    // Where the time of one more release goes (the loop ended away).
    releaseAt(row, home);
    if (!waitForSnapshot(w))
        return false;
    printOneMore(w);
    printWorkerShare(*w.snapshot(), variant, {{t.name, row->value()}});
    return true;
}

/// 2. A change every governor depends on (the latency limit): all @p governors are replayed.
/// Between 2 ms and 3 ms no exit latency of the default table lies, so every run makes the
/// entries of its previous one again and keeps them with their summaries (RunOptions::base);
/// 10 us is below the deeper state's exit latency: decisions change and every run is kept
/// anew (the first change of that series comes from 2 ms). False when no snapshot came.
bool timeLatencyLimit(MainWindow &w, std::size_t governors)
{
    const QString reRuns = QStringLiteral("%1 re-runs").arg(governors);
    if (!timeLatencyChanges(w, 3000000, 2000000, QStringLiteral("latency limit change (%1)").arg(reRuns)))
        return false;
    if (!timeLatencyChanges(w, 10000, 3000000,
                            QStringLiteral("latency limit 10 us <-> 3 ms (%1, decisions change)").arg(reRuns)))
        return false;
    w.parameterPanel()->setLatencyLimitNs(2500000);
    w.runner()->requestNow(w.currentSpec());
    if (!waitForSnapshot(w))
        return false;
    printOneMore(w);
    return true;
}

/// 3. Playback frames at 1x: whole run in view; a narrow window that scrolls every frame;
/// the worst case, half of the run in view scrolling every frame.
void timePlayback(MainWindow &w)
{
    std::printf("playback speed: %.3g x\n", w.playbackBar()->speed() / 1e9);
    const qint64 end = w.viewState()->fullEndNs();
    struct Case {
        const char *name;
        qint64 width, start;
    };
    for (const Case &c : {Case{"playback frame, whole run in view, cursor at start", end, 0},
                          Case{"playback frame, whole run in view, cursor mid-run", end, end / 2},
                          Case{"playback frame, 1/1000 of the run in view, scrolling", end / 1000, end / 1000},
                          Case{"playback frame, 1/2 of the run in view, scrolling", end / 2, end / 2}}) {
        w.viewState()->resetZoom();
        if (c.width < end)
            w.viewState()->zoomTo(0, c.width);
        std::vector<double> cpu;
        const std::vector<double> wall = timeFrames(w, 120, c.start, &cpu);
        printStats(c.name, wall, cpu);
        printVerdict("<= 16 ms", 16.0, true, wall, cpu);
    }
}

/// The first simulation of @p spans IPI wakeups +-@p jitterUs apart, printed: the governors'
/// variants in @p variants, their entries added up in @p entries; false when it did not finish.
bool firstSimulation(MainWindow &w, qint64 spans, qint64 jitterUs, std::vector<std::string> *variants,
                     std::size_t *entries)
{
    ScenarioSpec spec = defaultScenario();
    // With jitter (e.g. +-30 us) menu's pattern detector needs several rounds
    // and teo's bins get real work: a harder case than the steady default.
    spec.workload = periodicIpiWorkload(spans, 100, jitterUs);
    std::erase_if(spec.governors, [](const GovernorSpec &g) { return g.variant == "oracle"; });
    w.applySpec(spec);
    if (!waitForSnapshot(w))
        return false;
    w.refreshPlotsNow();
    // Only names are kept from the first snapshot: holding it would keep its
    // runs from the recycler, as no window does.
    const SnapshotPtr snap = w.snapshot();
    std::printf("stream: %s; governors:", qPrintable(snap->workloadDescription));
    for (const GovernorResult &g : snap->governors) {
        const GovernorRun &r = *g.run;
        std::printf(" %s (%zu entries)", r.variant.c_str(), r.size());
        *entries += r.size();
        variants->push_back(r.variant);
    }
    std::printf("\nfirst simulation (all governors, on the worker): %.1f ms\n", snap->simulationMs);
    return true;
}

} // namespace

int runMeasurements(MainWindow &w, qint64 spans, qint64 jitterUs)
{
    printLoad("at start");
    w.resize(1600, 1000);
    std::vector<std::string> variants;
    std::size_t entries = 0;
    if (!firstSimulation(w, spans, jitterUs, &variants, &entries)) {
        std::fprintf(stderr, "measure: the first simulation did not finish\n");
        return 1;
    }
    // A user looks at the first picture before touching a slider; meanwhile
    // the runner faults in the heap the next re-simulations will use.
    QEventLoop pause;
    QTimer::singleShot(1000, &pause, &QEventLoop::quit);
    pause.exec();
    // Now that nothing else runs (the first simulations and the warm storage are done).
    printCpuSpeeds("at start");
    for (const std::string &variant : variants)
        if (!timeSliderRelease(w, variant))
            return 1;
    if (!timeLatencyLimit(w, variants.size()))
        return 1;
    timePlayback(w);
    std::printf("total entries: %zu\n", entries);
    printLoad("at the end");
    printCpuSpeeds("at the end");
    return 0;
}

} // namespace idlescope
