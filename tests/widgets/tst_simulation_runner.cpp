// SPDX-License-Identifier: GPL-3.0-or-later
// buildSnapshot() (the runner's job): complete snapshots whose
// counts, plot summaries and comparison totals equal the ones built from the
// finished runs; unchanged governors shared with the previous snapshot; and
// a re-simulation that writes into the recycled columns of a released run
// giving exactly the run a fresh replay gives; a latency limit keeping the
// workload's idle-duration histogram.
#include "core/replay/governor_run.h"
#include "core/stats/governor_totals.h"
#include "core/stats/run_counts.h"
#include "core/stats/span_clock.h"
#include "tests/widgets/runner_fixture.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_runner.h"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

using namespace idlescope;

class TestSimulationRunner : public QObject {
    Q_OBJECT
private slots:
    void snapshotIsComplete();
    void unchangedGovernorIsShared();
    void recycledColumnsGiveTheSameRun();
    void latencyLimitKeepsTheDurations();
    void latencyLimitReachesTheReplay();
    void prefaultedStorageGivesTheSameRuns();
    void newerRequestsCancelRunningSteps();
    void dragRequestsAreCoalescedAndShown();
    void dragThatNeverPausesStillSimulates();
};

namespace {

ScenarioSpec smallScenario(qint64 spans)
{
    ScenarioSpec spec = defaultScenario();
    spec.workload = periodicIpiWorkload(spans, 100, 30);
    std::erase_if(spec.governors, [](const GovernorSpec &g) { return g.variant == "oracle"; });
    return spec;
}

std::shared_ptr<SimulationSnapshot> simulate(const ScenarioSpec &spec, const SnapshotPtr &previous)
{
    return test::simulateOnce(spec, previous);
}

bool sameColumns(const GovernorRun &a, const GovernorRun &b)
{
    return a.variant == b.variant && a.settings == b.settings && a.startNs == b.startNs
           && a.residencyNs == b.residencyNs && a.predictedNs == b.predictedNs && a.sleepLengthNs == b.sleepLengthNs
           && a.span == b.span && a.state == b.state && a.flags == b.flags && a.summary.entries == b.summary.entries
           && a.summary.endNowNs == b.summary.endNowNs;
}

/// Every run of @p snap is runGovernor() of its variant and settings on the snapshot's table and
/// stream under @p latencyLimitNs, column by column, and on the stream's clock.
void verifyEachRunIsItsReplay(const SimulationSnapshot &snap, Ns latencyLimitNs)
{
    for (const GovernorResult &g : snap.governors) {
        const GovernorRun &run = *g.run;
        auto want = runGovernor(snap.table, *snap.stream, run.variant,
                                {.settings = run.settings, .latencyLimitNs = latencyLimitNs});
        QVERIFY(want);
        QVERIFY(onSpanClock(*want, *snap.spanClockNs)); // the window draws every run on the stream's time
        QVERIFY2(sameColumns(run, *want), run.variant.c_str());
    }
}

} // namespace

void TestSimulationRunner::snapshotIsComplete()
{
    const ScenarioSpec spec = smallScenario(5000);
    QCOMPARE(spec.governors.size(), std::size_t(3));
    auto snap = simulate(spec, nullptr);
    QVERIFY(snap);
    QCOMPARE(snap->governorCount(), 3);
    QVERIFY(snap->summarised());
    for (std::size_t i = 0; i < snap->governors.size(); ++i) {
        const GovernorRun &run = *snap->governors[i].run;
        QVERIFY(snap->governors[i].totals);
        QCOMPARE(run.variant, spec.governors[i].variant);
        QVERIFY(run.size() >= 5000);
        // The worker's totals are the comparison table's own computation.
        const GovernorTotals want = governorTotals(run, snap->table);
        QCOMPARE(snap->governors[i].totals->idles, want.idles);
        QCOMPARE(snap->governors[i].totals->idleMisses, want.idleMisses);
        QCOMPARE(snap->governors[i].totals->latencyCostNs, want.latencyCostNs);
        QCOMPARE(snap->governors[i].totals->latencyCostEntries, want.latencyCostEntries);
        QCOMPARE(snap->governors[i].totals->usage, want.usage);
        // Prefix counts built in the replay's pass equal the ones built afterwards.
        const RunCounts counts(run);
        QCOMPARE(snap->governors[i].counts.size(), run.size());
        QCOMPARE(snap->governors[i].counts.missesThrough(run.size() - 1), counts.missesThrough(run.size() - 1));
        QCOMPARE(snap->governors[i].counts.upTo(run, run.size()).usage, counts.upTo(run, run.size()).usage);
        QCOMPARE(snap->governors[i].lod.states.chunkCount(), (run.size() + StateLod::CHUNK - 1) / StateLod::CHUNK);
    }
}

void TestSimulationRunner::unchangedGovernorIsShared()
{
    ScenarioSpec spec = smallScenario(3000);
    auto first = simulate(spec, nullptr);
    QVERIFY(first);
    spec.governors[0].settings = {{"INTERVALS", 9}};
    auto second = simulate(spec, first);
    QVERIFY(second && second->summarised());
    QVERIFY(second->governors[0].run != first->governors[0].run); // re-run
    QCOMPARE(second->governors[0].run->settings, spec.governors[0].settings);
    QVERIFY(second->governors[1].run == first->governors[1].run); // shared
    QVERIFY(second->governors[2].run == first->governors[2].run);
    QCOMPARE(second->governors[1].totals->idles, first->governors[1].totals->idles);
}

void TestSimulationRunner::recycledColumnsGiveTheSameRun()
{
    ScenarioSpec spec = smallScenario(4000);
    // Reference runs, then released: their columns go to the recycler.
    auto reference = simulate(spec, nullptr);
    QVERIFY(reference);
    std::vector<GovernorRun> want;
    for (const GovernorResult &g : reference->governors)
        want.push_back(*g.run);
    reference.reset();
    // A different (longer) stream first, released too, so that recycled
    // columns hold stale entries beyond the next run's length.
    auto longer = simulate(smallScenario(6000), nullptr);
    QVERIFY(longer);
    longer.reset();
    auto again = simulate(spec, nullptr);
    QVERIFY(again);
    QCOMPARE(again->governors.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        QVERIFY2(sameColumns(*again->governors[i].run, want[i]), want[i].variant.c_str());
}

void TestSimulationRunner::latencyLimitKeepsTheDurations()
{
    // A latency limit re-runs every governor on the same stream (the replay
    // applies the limit, nothing is copied); the idle durations are the
    // workload's and are kept. A different workload gets its own.
    ScenarioSpec spec = smallScenario(3000);
    auto first = simulate(spec, nullptr);
    QVERIFY(first);
    spec.latencyLimitNs = 2000000;
    auto limited = simulate(spec, first);
    QVERIFY(limited);
    QVERIFY(limited->stream == first->stream);
    const std::size_t n = limited->stream->size();
    QCOMPARE(limited->durations.upTo(n), DurationHistogram(*limited->stream).upTo(n));
    QCOMPARE(limited->durations.upTo(n / 2), first->durations.upTo(n / 2));

    spec.workload = periodicIpiWorkload(3000, 300, 30); // 270..330 us: other bins
    auto other = simulate(spec, limited);
    QVERIFY(other);
    QCOMPARE(other->durations.upTo(n), DurationHistogram(*other->stream).upTo(n));
    QVERIFY(other->durations.upTo(n) != first->durations.upTo(n));
}

void TestSimulationRunner::latencyLimitReachesTheReplay()
{
    // 5 us is below CEDE's 12 us exit latency: no governor may pick it, every
    // run is replayed again (none shared with the unlimited snapshot), and the
    // inspector's re-run sees the same limit. Lifting the limit gives the
    // unlimited runs back, column for column.
    ScenarioSpec spec = smallScenario(3000);
    auto first = simulate(spec, nullptr);
    QVERIFY(first);
    QVERIFY(std::count(first->governors[0].run->state.begin(), first->governors[0].run->state.end(), 1)
            > 1000); // menu-6.14: CEDE
    spec.latencyLimitNs = 5000;
    auto limited = simulate(spec, first);
    QVERIFY(limited);
    QCOMPARE(limited->governorCount(), 3);
    for (int g = 0; g < 3; ++g) {
        const GovernorRun &run = *limited->governors[std::size_t(g)].run;
        QVERIFY(limited->governors[std::size_t(g)].run != first->governors[std::size_t(g)].run);
        QCOMPARE(std::count(run.state.begin(), run.state.end(), 1), std::ptrdiff_t(0));
        QCOMPARE(limited->governors[std::size_t(g)].totals->aboves, std::int64_t(0));
        auto at = reasoningAt(limited->table, *limited->stream, run.variant, run.settings, 100, spec.latencyLimitNs);
        QVERIFY(at);
        QCOMPARE(at->entry.latencyReqNs, Ns(5000));
        QCOMPARE(at->entry.state, 0);
    }
    spec.latencyLimitNs = -1;
    auto lifted = simulate(spec, limited);
    QVERIFY(lifted);
    for (std::size_t g = 0; g < 3; ++g)
        QVERIFY2(sameColumns(*lifted->governors[g].run, *first->governors[g].run),
                 first->governors[g].run->variant.c_str());
}

void TestSimulationRunner::prefaultedStorageGivesTheSameRuns()
{
    // With the heap prefaulted, spare runs are made ahead (columns resized,
    // then cleared) for the next re-simulation of every governor; the runs
    // written into them equal runs replayed from scratch.
    SimulationRunner runner;
    runner.setPrefaultHeap(true);
    QSignalSpy ready(&runner, &SimulationRunner::snapshotReady);
    ScenarioSpec spec = smallScenario(3000);
    runner.requestNow(spec);
    QVERIFY(ready.wait(60000));
    QThreadPool::globalInstance()->waitForDone(); // the spare runs are made
    spec.latencyLimitNs = 2000000;
    runner.requestNow(spec);
    QVERIFY(ready.wait(60000));
    const SnapshotPtr snap = runner.latest();
    QVERIFY(snap && snap->spec.latencyLimitNs == 2000000);
    QCOMPARE(snap->governorCount(), 3);
    verifyEachRunIsItsReplay(*snap, spec.latencyLimitNs);
}

void TestSimulationRunner::newerRequestsCancelRunningSteps()
{
    // Requests while a job runs cancel it between steps of its runs; only the
    // newest spec is simulated to the end. Twelve requests in a row (every
    // governor re-run by a latency limit, then menu's INTERVALS), a cancel,
    // and one more: the last snapshot is exactly that spec's runs.
    SimulationRunner runner;
    QSignalSpy ready(&runner, &SimulationRunner::snapshotReady);
    QSignalSpy failed(&runner, &SimulationRunner::runFailed);
    ScenarioSpec spec = smallScenario(200000); // steps of several runs, long enough to be cut
    runner.requestNow(spec);
    QVERIFY(ready.wait(120000));
    ready.clear();
    for (int i = 0; i < 12; ++i) {
        spec.latencyLimitNs = 1000000 + i;
        spec.governors[0].settings = {{"INTERVALS", 2 + i}};
        runner.requestNow(spec);
        QTest::qWait(i % 3); // some requests land mid-step, some between jobs
    }
    runner.cancel();
    spec.latencyLimitNs = 3000000;
    spec.governors[0].settings = {{"INTERVALS", 5}};
    runner.requestNow(spec);
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy() && runner.latest()->spec.latencyLimitNs == 3000000, 120000);
    QCOMPARE(failed.count(), 0); // a cancelled job is not a failure
    QVERIFY(ready.count() < 13); // stale jobs were dropped, not all shown
    const SnapshotPtr snap = runner.latest();
    QCOMPARE(snap->governors[0].run->settings, (std::vector<TunableSetting>{{"INTERVALS", 5}}));
    verifyEachRunIsItsReplay(*snap, spec.latencyLimitNs);
}

void TestSimulationRunner::dragRequestsAreCoalescedAndShown()
{
    // Audit: live re-simulation while dragging, coalesced and never queuing. A drag
    // request (request()) while a job runs lets that job finish and shows it; of the
    // requests made meanwhile only the newest is simulated. Before, each one
    // cancelled the running job, so a drag showed nothing until it paused.
    SimulationRunner runner;
    runner.setDebounceMs(1);
    QSignalSpy ready(&runner, &SimulationRunner::snapshotReady);
    QSignalSpy started(&runner, &SimulationRunner::started);
    ScenarioSpec spec = smallScenario(200000); // three governors: long enough to be running below
    runner.requestNow(spec);
    QVERIFY(ready.wait(120000));
    ready.clear();
    started.clear();
    ScenarioSpec a = spec, b = spec, c = spec;
    a.latencyLimitNs = 1000001; // a new limit re-runs every governor
    b.latencyLimitNs = 1000002;
    c.latencyLimitNs = 1000003;
    runner.request(a);
    QVERIFY(started.wait(120000)); // a runs
    runner.request(b);
    runner.request(c);
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy() && runner.latest()->spec.latencyLimitNs == 1000003, 120000);
    QCOMPARE(started.count(), 2); // a, then c: b was replaced while it waited
    QCOMPARE(ready.count(), 2);   // a's snapshot was shown, not cancelled
    QCOMPARE(ready.at(0).at(0).value<std::shared_ptr<const SimulationSnapshot>>()->spec.latencyLimitNs, Ns(1000001));
    QCOMPARE(ready.at(1).at(0).value<std::shared_ptr<const SimulationSnapshot>>()->spec.latencyLimitNs, Ns(1000003));
}

void TestSimulationRunner::dragThatNeverPausesStillSimulates()
{
    // A drag sends a request every few ms and never pauses for the debounce delay:
    // the delay is a throttle (the first request of an interval starts its timer),
    // so a job starts during the drag, not only after it (a restarting debounce
    // started none until the requests stopped).
    SimulationRunner runner;
    runner.setDebounceMs(40);
    QSignalSpy started(&runner, &SimulationRunner::started);
    ScenarioSpec spec = smallScenario(2000);
    int startedDuringDrag = 0;
    for (int i = 0; i < 40; ++i) { // 40 requests 5 ms apart: 200 ms, five throttle intervals
        spec.latencyLimitNs = 1000000 + i;
        runner.request(spec);
        QTest::qWait(5);
        startedDuringDrag = static_cast<int>(started.count());
    }
    QVERIFY2(startedDuringDrag >= 1, qPrintable(QString::number(startedDuringDrag)));
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy() && runner.latest() && runner.latest()->spec.latencyLimitNs == 1000039,
                             120000);
}

QTEST_MAIN(TestSimulationRunner)
#include "tst_simulation_runner.moc"
