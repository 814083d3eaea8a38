// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * One latency cost for the GUI and the CLI (core/stats/governor_totals.h,
 * entryPaysExitLatency() in reference_replay.h): the GUI's governorTotals()
 * reads it from a run's flags, `idlescope-cli compare` (runComparison) from
 * each entry as it is replayed; both must give the hand-computed figure.
 */
#include "core/experiments/comparison.h"
#include "core/replay/governor_run.h"
#include "core/stats/governor_totals.h"

#include "tests/test_paths.h"
#include "tests/test_require.h"

#include "core/io/table_json.h"

#include <QTest>

using namespace idlescope;

namespace {

/// Four spans on the POWER10 table (snooze 0/0, CEDE exit 12 us, target residency 120 us, HZ 100).
/// The oracle enters CEDE when the idle time covers 120 us, else snooze (whose poll limit, CEDE's
/// target residency, is past the 50 us wakeup). All of it lies within the first 10 ms tick period
/// (now starts on a tick), so no entry ends at the tick:
///   300 us, IPI      -> CEDE,   ends at a wakeup no timer announced: pays 12 us
///   400 us, timer    -> CEDE,   the span's own timer: the governor saw it coming, not counted
///   200 us, IPI      -> CEDE,   pays 12 us
///    50 us, IPI      -> snooze, pays its exit latency, 0
/// latency cost = 24,000 ns over 3 entries.
IdleStream fourSpans()
{
    const Ns us = 1000;
    const Ns far = 1000000 * us;
    return {{0, far, 300 * us}, {10 * us, 400 * us, 400 * us}, {10 * us, far, 200 * us}, {10 * us, far, 50 * us}};
}

} // namespace

class TestGovernorTotals : public QObject {
    Q_OBJECT

private slots:
    void theRule()
    {
        EntryRecord e;
        e.remainingWakeNs = 50000;
        e.residencyNs = 62000; // 50 us in the state + 12 us exit latency: ended at the wakeup
        QVERIFY(entryEndsAtWakeup(e, 12000));
        e.residencyNs = 61999; // left earlier (tick or poll limit)
        QVERIFY(!entryEndsAtWakeup(e, 12000));
        QVERIFY(entryPaysExitLatency(true, false));
        QVERIFY(!entryPaysExitLatency(true, true));
        QVERIFY(!entryPaysExitLatency(false, false));
    }

    void guiAndCliAgreeWithTheHand()
    {
        IDLESCOPE_REQUIRE_OK(table, readTableJson(
                                        (test::kitDir() + QStringLiteral("/tables/pseries-p10.json")).toStdString()));
        const IdleStream stream = fourSpans();

        IDLESCOPE_REQUIRE_OK(run, runGovernor(table, stream, "oracle"));
        QCOMPARE(run.size(), std::size_t(4));
        const GovernorTotals t = governorTotals(run, table);
        QCOMPARE(t.usage, (std::vector<std::int64_t>{1, 3}));
        QCOMPARE(t.latencyCostEntries, std::int64_t(3));
        QCOMPARE(t.latencyCostNs, Ns(24000));
        QCOMPARE(entryLatencyCostNs(run, table, 0), Ns(12000));
        QCOMPARE(entryLatencyCostNs(run, table, 1), Ns(0));

        workloads::CompareOptions o;
        o.table = table;
        o.fixedStream = stream;
        o.fixedStreamLabel = "four spans";
        o.governors = {"oracle"};
        o.iterations = 1;
        IDLESCOPE_REQUIRE_OK(cmp, workloads::runComparison(o));
        QCOMPARE(cmp.at(0, 0, 0).wakeups, std::int64_t(3));
        QCOMPARE(cmp.at(0, 0, 0).latencyCostNs, Ns(24000));
    }
};

QTEST_GUILESS_MAIN(TestGovernorTotals)
#include "tst_governor_totals.moc"
