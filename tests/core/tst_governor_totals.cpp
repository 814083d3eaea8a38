// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * One latency cost for the GUI and the CLI (core/stats/governor_totals.h,
 * entryPaysExitLatency() in reference_replay.h): the GUI's governorTotals()
 * reads it from a run's flags, `idlescope-cli compare` (runComparison) from
 * each entry as it is replayed; both must give the hand-computed figure.
 */
#include "core/experiments/comparison.h"
#include "core/replay/governor_factory.h"
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
        QVERIFY(entryPaysExitLatency(true, false));
        QVERIFY(!entryPaysExitLatency(true, true));
        QVERIFY(!entryPaysExitLatency(false, false));
    }

    void theReplayMarksEachEntry()
    {
        // fourSpans() as the comment above works it out: every entry ends at its
        // span's wakeup, and the second span's wakeup is its own timer. A fifth
        // span, 500 us to an IPI under a resume-latency limit of 0, can only poll
        // (snooze): polling stops at its time limit, far short of the wakeup, so
        // its entries end there until the last one, which the wakeup ends.
        IDLESCOPE_REQUIRE_OK(table, readTableJson(
                                        (test::kitDir() + QStringLiteral("/tables/pseries-p10.json")).toStdString()));
        IdleStream stream = fourSpans();
        const Ns us = 1000;
        stream.push_back({10 * us, 1000000 * us, 500 * us, 0});
        auto gov = createGovernor("menu-6.19");
        std::vector<EntryRecord> entries;
        replayStream(table, stream, *gov, [&](const EntryRecord &e, const Governor &) { entries.push_back(e); });
        QVERIFY(entries.size() >= 6);
        for (int k = 0; k < 4; ++k) {
            QVERIFY(entries[static_cast<std::size_t>(k)].endsAtWakeup);
            QCOMPARE(entries[static_cast<std::size_t>(k)].timerWake, k == 1);
        }
        QCOMPARE(entries[4].state, 0);
        QVERIFY(entries[4].pollTimeLimit);
        QVERIFY(!entries[4].endsAtWakeup);
        QVERIFY(entries[4].residencyNs - table[0].exitLatencyNs < entries[4].remainingWakeNs);
        QVERIFY(entries.back().endsAtWakeup);
        QVERIFY(!entries.back().timerWake);
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

        experiments::CompareOptions o;
        o.table = table;
        o.fixedStream = stream;
        o.fixedStreamLabel = "four spans";
        o.governors = {"oracle"};
        o.iterations = 1;
        IDLESCOPE_REQUIRE_OK(cmp, experiments::runComparison(o));
        QCOMPARE(cmp.at(0, 0, 0).wakeups, std::int64_t(3));
        QCOMPARE(cmp.at(0, 0, 0).latencyCostNs, Ns(24000));
    }
};

QTEST_GUILESS_MAIN(TestGovernorTotals)
#include "tst_governor_totals.moc"
