// SPDX-License-Identifier: GPL-3.0-or-later
// buildSnapshot() called directly (no runner, no event loop): the oracle's choices and
// counts on five spans worked by hand; every run and its counts equal core's replay of the
// same stream (runGovernor()) and the counts built from that run; a previous snapshot's
// run is reused (the same pointer) when only another governor's tunable changed, and when a
// fresh run repeats it entry for entry (a latency limit no exit latency lies between); a raised
// cancel gives no snapshot and no error; a bad table gives an error and no snapshot.
#include "core/formats/stream_csv.h"
#include "core/replay/governor_run.h"
#include "core/stats/run_counts.h"
#include "core/stats/span_clock.h"
#include "tests/governor_source.h"
#include "tests/test_paths.h"
#include "tests/widgets/runner_fixture.h"
#include "widgets/runner/build_snapshot.h"
#include "widgets/runner/memory_budget.h"

#include <QColor>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>

using namespace idlescope;

namespace {

QString tablePath()
{
    return test::kitDir() + QStringLiteral("/tables/pseries-p10.json");
}

/// Five spans on pseries-p10 (snooze 0/0 us, CEDE exit latency 12 us, target residency
/// 120 us), as tst_comparison_model works them by hand: the oracle enters the deepest state
/// whose target residency fits the idle time (gap_ns,timer_ns,wake_ns,latency_req_ns,util).
const char STREAM[] = "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n"
                      "1000,500000,500000,-1,0\n"      // timer at 500 us: CEDE
                      "1000,5000000,200000,-1,0\n"     // IPI at 200 us: CEDE, pays 12 us
                      "1000,5000000,20000,-1,0\n"      // IPI at 20 us: snooze (< 120 us), pays 0
                      "1000,5000000,300000,-1,0\n"     // IPI at 300 us: CEDE, pays 12 us
                      "1000,50000000,30000000,-1,0\n"; // IPI at 30 ms: CEDE, pays 12 us

ScenarioSpec handScenario(const QString &streamPath)
{
    ScenarioSpec spec;
    spec.target = test::fileTarget(tablePath());
    spec.workload.kind = WorkloadKind::Csv;
    spec.workload.path = streamPath.toStdString();
    spec.governors = {{"oracle", {}, QColor(Qt::black)},
                      {"menu-6.14", {}, QColor(Qt::red)},
                      {"teo-6.14", {}, QColor(Qt::blue)}};
    return spec;
}

bool sameColumns(const GovernorRun &a, const GovernorRun &b)
{
    return a.variant == b.variant && a.settings == b.settings && a.startNs == b.startNs
           && a.residencyNs == b.residencyNs && a.predictedNs == b.predictedNs && a.sleepLengthNs == b.sleepLengthNs
           && a.span == b.span && a.state == b.state && a.flags == b.flags;
}

} // namespace

class TestBuildSnapshot : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void oracleByHand();
    void runsAndCountsAreCoreReplays();
    void unchangedRunIsReused();
    void aRunThatRepeatsItsPreviousOneIsShared();
    void cancelGivesNoSnapshot();
    void badTableGivesAnError();
    void aFailedSourceGovernorIsNotRunAgain();
    void runsThatDoNotFitAreRefused();

private:
    QTemporaryDir m_dir;
    QString m_stream;
};

void TestBuildSnapshot::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_stream = m_dir.filePath(QStringLiteral("hand.csv"));
    QFile f(m_stream);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(STREAM);
}

void TestBuildSnapshot::oracleByHand()
{
    const std::atomic<bool> cancel{false};
    const SnapshotBuild build = buildSnapshot(handScenario(m_stream), nullptr, cancel);
    QVERIFY2(build.snapshot, qPrintable(build.error));
    QVERIFY(!build.cancelled);
    const SimulationSnapshot &snap = *build.snapshot;
    QVERIFY2(snap.errors.isEmpty(), qPrintable(snap.errors.join(QLatin1Char('\n'))));
    QCOMPARE(snap.governorCount(), 3);
    QCOMPARE(snap.stream->size(), std::size_t(5));
    const GovernorRun &oracle = *snap.governors[0].run;
    QCOMPARE(snap.governors[0].displayName(), std::string("oracle"));
    // One entry per span (no poll is cut: the snooze span ends at its IPI).
    QCOMPARE(std::vector<int>(oracle.state.begin(), oracle.state.end()), (std::vector<int>{1, 1, 0, 1, 1}));
    const PrefixCounts all = snap.governors[0].counts.upTo(oracle, oracle.size());
    QCOMPARE(all.entries, std::int64_t(5));
    QCOMPARE(all.usage[0], std::int64_t(1));                        // snooze
    QCOMPARE(all.usage[1], std::int64_t(4));                        // CEDE
    QCOMPARE(all.totalAbove() + all.totalBelow(), std::int64_t(0)); // the oracle never misses
    // The first three entries: CEDE, CEDE, snooze.
    QCOMPARE(snap.governors[0].counts.upTo(oracle, 3).usage[1], std::int64_t(2));
    // Three CEDE entries end at an IPI: 3 x 12 us of exit latency.
    QCOMPARE(snap.governors[0].totals->latencyCostNs, Ns(36000));
    QCOMPARE(snap.governors[0].totals->latencyCostEntries, std::int64_t(4));
    QCOMPARE(snap.governors[0].color, QColor(Qt::black));
    QVERIFY(snap.governors[0].atDefaults);
}

void TestBuildSnapshot::runsAndCountsAreCoreReplays()
{
    const std::atomic<bool> cancel{false};
    const ScenarioSpec spec = handScenario(m_stream);
    const SnapshotBuild build = buildSnapshot(spec, nullptr, cancel);
    QVERIFY2(build.snapshot, qPrintable(build.error));
    const SimulationSnapshot &snap = *build.snapshot;
    const IdleStream stream = readStreamCsv(m_stream.toStdString()).value();
    QCOMPARE(snap.governorCount(), int(spec.governors.size()));
    for (std::size_t g = 0; g < spec.governors.size(); ++g) {
        Result<GovernorRun> want = runGovernor(spec.target.table, stream, spec.governors[g].variant);
        QVERIFY(want);
        onSpanClock(*want, *snap.spanClockNs); // the snapshot's runs are drawn on the stream's own time
        const GovernorRun &run = *snap.governors[g].run;
        QVERIFY2(sameColumns(run, *want), want->variant.c_str());
        // The counts built in the replay's pass are the counts of the finished run, and
        // their totals the replay's own per-state counters.
        const RunCounts counts(*want);
        const PrefixCounts got = snap.governors[g].counts.upTo(run, run.size());
        QCOMPARE(got.entries, want->summary.entries);
        for (int s = 0; s < spec.target.table.count(); ++s) {
            QCOMPARE(got.usage[s], want->summary.states[s].usage);
            QCOMPARE(got.above[s], want->summary.states[s].above);
            QCOMPARE(got.below[s], want->summary.states[s].below);
            QCOMPARE(got.timeNs[s], counts.upTo(*want, want->size()).timeNs[s]);
        }
        for (std::size_t i = 0; i < run.size(); ++i)
            QCOMPARE(snap.governors[g].counts.missesThrough(i), counts.missesThrough(i));
    }
}

void TestBuildSnapshot::unchangedRunIsReused()
{
    const std::atomic<bool> cancel{false};
    ScenarioSpec spec = handScenario(m_stream);
    const SnapshotBuild first = buildSnapshot(spec, nullptr, cancel);
    QVERIFY2(first.snapshot, qPrintable(first.error));
    spec.governors[1].settings = {{"INTERVALS", 2}}; // only menu's tunable changes
    const SnapshotBuild second = buildSnapshot(spec, first.snapshot, cancel);
    QVERIFY2(second.snapshot, qPrintable(second.error));
    QCOMPARE(second.snapshot->governorCount(), 3);
    QVERIFY(second.snapshot->governors[0].run == first.snapshot->governors[0].run); // oracle: the same run
    QVERIFY(second.snapshot->governors[2].run == first.snapshot->governors[2].run); // teo: the same run
    QVERIFY(second.snapshot->governors[1].run != first.snapshot->governors[1].run); // menu: replayed
    QVERIFY(!second.snapshot->governors[0].replayed && !second.snapshot->governors[2].replayed);
    QVERIFY(second.snapshot->governors[1].replayed);
    QCOMPARE(second.snapshot->governors[1].run->settings, spec.governors[1].settings);
    QVERIFY(!second.snapshot->governors[1].atDefaults);
    QVERIFY(second.snapshot->governors[2].atDefaults);
    // A reused run keeps its totals.
    QCOMPARE(second.snapshot->governors[0].totals->latencyCostNs, Ns(36000));
}

void TestBuildSnapshot::aRunThatRepeatsItsPreviousOneIsShared()
{
    // pseries-p10's exit latencies are 0 and 12 us: limits of 2 ms and 3 ms allow
    // both states, so every governor decides alike under both and keeps its run;
    // 5 us forbids CEDE, and the runs are made afresh, equal to core's replay.
    const std::atomic<bool> cancel{false};
    ScenarioSpec spec = handScenario(m_stream);
    spec.latencyLimitNs = 2000000;
    const SnapshotBuild first = buildSnapshot(spec, nullptr, cancel);
    QVERIFY2(first.snapshot, qPrintable(first.error));
    spec.latencyLimitNs = 3000000;
    const SnapshotBuild second = buildSnapshot(spec, first.snapshot, cancel);
    QVERIFY2(second.snapshot, qPrintable(second.error));
    for (int g = 0; g < 3; ++g) {
        const GovernorResult &was = first.snapshot->governors[static_cast<std::size_t>(g)];
        const GovernorResult &now = second.snapshot->governors[static_cast<std::size_t>(g)];
        QVERIFY2(now.run == was.run, now.run->variant.c_str());
        QVERIFY(now.replayed); // the same run, made again
        QVERIFY(now.summarised());
        QCOMPARE(now.totals->latencyCostNs, was.totals->latencyCostNs);
    }
    spec.latencyLimitNs = 5000;
    const SnapshotBuild third = buildSnapshot(spec, second.snapshot, cancel);
    QVERIFY2(third.snapshot, qPrintable(third.error));
    const IdleStream stream = readStreamCsv(m_stream.toStdString()).value();
    for (std::size_t g = 0; g < 3; ++g) {
        const GovernorResult &now = third.snapshot->governors[g];
        QVERIFY(now.run != second.snapshot->governors[g].run);
        Result<GovernorRun> want =
            runGovernor(spec.target.table, stream, spec.governors[g].variant, {.latencyLimitNs = 5000});
        QVERIFY(want);
        onSpanClock(*want, *third.snapshot->spanClockNs);
        QVERIFY2(sameColumns(*now.run, *want), want->variant.c_str());
        // Snooze only, each poll cut at its time limit (CEDE's 120 us target residency).
        QVERIFY(now.run->size() > 5);
        QVERIFY(std::all_of(now.run->state.begin(), now.run->state.end(), [](std::int8_t st) { return st == 0; }));
        QCOMPARE(now.counts.size(), now.run->size());
    }
    // A tunable change that decides alike on these five spans: the run is the previous
    // one's entries under the new settings, with its summaries.
    spec.latencyLimitNs = 2000000;
    spec.governors[2].settings = {{"PULSE", 11}};
    const SnapshotBuild fourth = buildSnapshot(spec, first.snapshot, cancel);
    QVERIFY2(fourth.snapshot, qPrintable(fourth.error));
    const GovernorResult &teo = fourth.snapshot->governors[2];
    QCOMPARE(teo.run->settings, spec.governors[2].settings);
    QVERIFY(teo.run != first.snapshot->governors[2].run);
    GovernorRun previousTeo = *first.snapshot->governors[2].run;
    previousTeo.settings = spec.governors[2].settings;
    QVERIFY(sameColumns(*teo.run, previousTeo));
    QVERIFY(teo.summarised());
    QVERIFY(!teo.atDefaults);
}

// Issue 30 item 6: 50 M spans under four governors grew the window to 12.7 GB with no
// warning. Figures by hand: 50e6 spans x 4 runs x 60 B = 1.2e10 B = 11.2 GiB; 8 GiB free.
void TestBuildSnapshot::runsThatDoNotFitAreRefused()
{
    const std::int64_t gib = std::int64_t{1} << 30;
    QCOMPARE(runsMemoryRefusal(50000000, 4, 8 * gib),
             QStringLiteral("not simulated: 4 runs of 50000000 spans need about 11.2 GiB, and this machine has 8.0 GiB "
                            "of memory available; fewer spans or governors would fit"));
    // 1 M spans x 4 x 60 B = 240 MB: fits; unknown memory: no refusal.
    QVERIFY(runsMemoryRefusal(1000000, 4, 8 * gib).isEmpty());
    QVERIFY(runsMemoryRefusal(50000000, 4, -1).isEmpty());
    // This machine's own figure is read.
    QVERIFY(availableMemoryBytes() > 0);
}

void TestBuildSnapshot::cancelGivesNoSnapshot()
{
    const std::atomic<bool> cancel{true};
    const SnapshotBuild build = buildSnapshot(handScenario(m_stream), nullptr, cancel);
    QVERIFY(!build.snapshot);
    QVERIFY(build.cancelled);
    QVERIFY(build.error.isEmpty());
}

void TestBuildSnapshot::badTableGivesAnError()
{
    const std::atomic<bool> cancel{false};
    ScenarioSpec spec = handScenario(m_stream);
    spec.target.table.states.clear(); // a table without states does not validate
    const SnapshotBuild build = buildSnapshot(spec, nullptr, cancel);
    QVERIFY(!build.snapshot);
    QVERIFY(!build.cancelled);
    QVERIFY2(build.error.startsWith(QStringLiteral("target table: ")), qPrintable(build.error));
}

void TestBuildSnapshot::aFailedSourceGovernorIsNotRunAgain()
{
    // crash dies in its first run (NULL at its fourth select; these five spans
    // make more entries than that) and has no earlier run to keep. A re-simulation on
    // the same inputs (only menu's tunable changes) says the same without running it
    // again: the file is made uncompilable in between under the same stamp, and the
    // message is still the crash's. A saved edit (a new stamp) runs it again.
    QTemporaryDir dir;
    const QString path = test::writeGovernor(dir.path(), test::crashingGovernor("crash", 3));
    const std::atomic<bool> cancel{false};
    ScenarioSpec spec = handScenario(m_stream);
    spec.governors.push_back(GovernorSpec{"src:" + path.toStdString(), {}, QColor(Qt::green), QStringLiteral("1")});
    const SnapshotBuild first = buildSnapshot(spec, nullptr, cancel);
    QVERIFY2(first.snapshot, qPrintable(first.error));
    QCOMPARE(first.snapshot->governorCount(), 3);
    QCOMPARE(first.snapshot->errors.size(), 1);
    const QString crash = first.snapshot->errors[0];
    QVERIFY2(crash.contains(QStringLiteral("SIGSEGV")), qPrintable(crash));

    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("not C\n");
    file.close();
    spec.governors[1].settings = {{"INTERVALS", 2}};
    const SnapshotBuild second = buildSnapshot(spec, first.snapshot, cancel);
    QVERIFY2(second.snapshot, qPrintable(second.error));
    QCOMPARE(second.snapshot->governorCount(), 3);
    QCOMPARE(second.snapshot->errors, QStringList{crash});

    spec.governors[3].sourceStamp = QStringLiteral("2");
    const SnapshotBuild third = buildSnapshot(spec, second.snapshot, cancel);
    QVERIFY2(third.snapshot, qPrintable(third.error));
    QCOMPARE(third.snapshot->errors.size(), 1);
    QVERIFY2(!third.snapshot->errors[0].contains(QStringLiteral("SIGSEGV")), qPrintable(third.snapshot->errors[0]));
}

QTEST_GUILESS_MAIN(TestBuildSnapshot)
#include "tst_build_snapshot.moc"
