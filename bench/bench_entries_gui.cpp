// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The entries list (widgets/trace/entries_dock.h) on a 10-million-entry run
 * (issue 13: "handles 10 M rows"), the dock shown and painted as in the window:
 *
 *   fill/10M       a new snapshot in the dock (the model's rows, the combos, the count) and
 *                  the first paint of the visible rows
 *   sort/10M       the GUI thread's time of a header click: the residency column asked for,
 *                  longest first, then painted (the old order, marked busy: the permutation is
 *                  made on a worker, entries_model.h); the next iteration sorts back by time
 *   sort_ready/10M the same click until the sorted rows are shown (the worker's sort, the
 *                  event loop running meanwhile)
 *   filter/10M     "above" picked in the miss box, then painted (the GUI thread's time; the
 *                  filter pass is made on the worker); the next iteration goes back to every entry
 *   filter_ready/10M the same until the filtered rows are shown
 *
 * Each reports peak_rss_MB, the process's peak resident set so far (getrusage): the run's
 * columns (38 bytes an entry, 380 MB) plus what the dock adds (4 bytes a row).
 *
 *   QT_QPA_PLATFORM=offscreen build/release/bench/bench_entries_gui
 *
 * The run is made up (no replay: 10 M replayed entries would time the governor, not the
 * list): one span an entry, every 8th entry above, every 16th below, residencies spread
 * over 1..4096 us by a fixed linear congruential sequence.
 */
#include "widgets/runner/builtin_scenario.h"
#include "widgets/trace/entries_dock.h"
#include "widgets/view_state.h"

#include "bench/gui_benchmark_main.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QComboBox>
#include <QEventLoop>
#include <QTableView>

#include <sys/resource.h>

#include <cstdint>
#include <memory>
#include <string>

using namespace idlescope;

namespace {

constexpr std::size_t ENTRIES = 10'000'000;

double peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

/// The counters every case reports: the rows the list holds and the peak resident set.
void reportRows(benchmark::State &state, int rows)
{
    state.counters["rows"] = static_cast<double>(rows);
    state.counters["peak_rss_MB"] = peakRssMb();
}

SnapshotPtr tenMillionEntries()
{
    static SnapshotPtr snap;
    if (snap)
        return snap;
    auto s = std::make_shared<SimulationSnapshot>();
    s->generation = 1;
    s->table = defaultScenario().target.table;
    GovernorRun run;
    run.variant = "menu-6.14";
    run.forEachColumn([](auto &column) { column.resize(ENTRIES); });
    std::uint64_t x = 12345;
    Ns now = 0;
    for (std::size_t i = 0; i < ENTRIES; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const Ns residency = Ns(1000) * static_cast<Ns>(1 + ((x >> 33) % 4096));
        now += 3000;
        run.startNs[i] = now;
        run.residencyNs[i] = residency;
        run.predictedNs[i] = residency / 2;
        run.sleepLengthNs[i] = 10'000'000;
        run.span[i] = static_cast<std::int32_t>(i);
        run.state[i] = static_cast<std::int8_t>(residency > 120'000 ? 1 : 0);
        run.flags[i] = static_cast<EntryFlags>(ENTRY_WOKEN_BY_WAKEUP | (i % 8 == 0 ? ENTRY_ABOVE : 0)
                                               | (i % 16 == 1 ? ENTRY_BELOW : 0));
        now += residency;
    }
    run.summary.entries = static_cast<std::int64_t>(ENTRIES);
    run.summary.spans = static_cast<std::int64_t>(ENTRIES);
    run.summary.stateCount = s->table.count();
    GovernorResult g;
    g.run = std::make_shared<const GovernorRun>(std::move(run));
    g.color = QColor(Qt::red);
    s->governors.push_back(std::move(g));
    snap = s;
    return snap;
}

struct Window {
    ViewState view;
    EntriesDock dock{&view};
    Window()
    {
        dock.resize(900, 400);
        dock.show();
        QApplication::processEvents();
    }
    void paint() { dock.tableView()->viewport()->repaint(); }
    /// Runs the event loop until the model's worker has delivered its rows.
    void waitForRows()
    {
        if (!dock.model()->isBusy())
            return;
        QEventLoop loop;
        QObject::connect(dock.model(), &EntriesModel::busyChanged, &loop, [&](bool busy) {
            if (!busy)
                loop.quit();
        });
        loop.exec();
    }
};

void BM_Fill(benchmark::State &state)
{
    const SnapshotPtr snap = tenMillionEntries();
    Window w;
    int rows = 0;
    for (auto _ : state) {
        w.dock.setSnapshot(snap);
        w.paint();
        state.PauseTiming();
        rows = w.dock.model()->rowCount();
        w.dock.setSnapshot(nullptr);
        state.ResumeTiming();
    }
    reportRows(state, rows);
}
BENCHMARK(BM_Fill)->Name("fill/10M")->Unit(benchmark::kMillisecond)->Iterations(3);

/// Residency, longest first, as a header click asks for it, then painted; @p untilShown: until
/// the worker's rows are on screen. Each iteration sorts back by time in the pause.
void sortClicks(benchmark::State &state, bool untilShown)
{
    Window w;
    w.dock.setSnapshot(tenMillionEntries());
    w.paint();
    for (auto _ : state) {
        w.dock.tableView()->sortByColumn(EntriesModel::Residency, Qt::DescendingOrder);
        if (untilShown)
            w.waitForRows();
        w.paint();
        state.PauseTiming();
        w.dock.tableView()->sortByColumn(EntriesModel::Time, Qt::AscendingOrder);
        state.ResumeTiming();
    }
    reportRows(state, w.dock.model()->rowCount());
}

/// "above" picked in the miss box, then painted; @p untilShown: until the rows are on screen
/// (a filter in entry order is made at once, so both read alike). Each iteration goes back
/// to every entry in the pause.
void filterPicks(benchmark::State &state, bool untilShown)
{
    Window w;
    w.dock.setSnapshot(tenMillionEntries());
    w.paint();
    QComboBox *miss = w.dock.missBox();
    for (auto _ : state) {
        miss->setCurrentIndex(miss->findData(int(ENTRY_ABOVE)));
        if (untilShown)
            w.waitForRows();
        w.paint();
        state.PauseTiming();
        w.waitForRows();
        miss->setCurrentIndex(0);
        state.ResumeTiming();
    }
    miss->setCurrentIndex(miss->findData(int(ENTRY_ABOVE)));
    w.waitForRows();
    // Every 8th of 10 M entries: 1,250,000 rows.
    reportRows(state, w.dock.model()->rowCount());
}

/// @p action timed both ways: NAME/10M until painted (the GUI thread's time) and
/// NAME_ready/10M until its rows are shown (in real time: the worker's part counts).
void registerPaintedAndShown(const std::string &name, void (*action)(benchmark::State &, bool))
{
    benchmark::RegisterBenchmark((name + "/10M").c_str(), action, false)->Unit(benchmark::kMillisecond)->Iterations(3);
    benchmark::RegisterBenchmark((name + "_ready/10M").c_str(), action, true)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3)
        ->UseRealTime();
}

// After fill/10M (registered above), in this order.
[[maybe_unused]] const bool registered =
    (registerPaintedAndShown("sort", sortClicks), registerPaintedAndShown("filter", filterPicks), true);

} // namespace

IDLESCOPE_GUI_BENCHMARK_MAIN()
