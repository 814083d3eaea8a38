// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Reference replay pieces with hand-computed values: cpuidle_poll_time() by
 * version, above/below accounting including disabled states, the tick model
 * and the sticky got_tick flag, driven by the oracle governor.
 */
#include "core/replay/cpuidle_core.h"
#include "core/replay/governor_factory.h"
#include "core/replay/reference_replay.h"

#include "tests/governor_rig.h"

#include <QTest>

using namespace idlescope;

using test::skxLike;

class TestReplay : public QObject {
    Q_OBJECT

private slots:
    void pollTimeByVersion()
    {
        IdleStateTable t = skxLike();
        CpuidleDevice dev;
        // v5.5-v5.10: the first enabled state after POLL, however short.
        QCOMPARE(cpuidlePollTime(PollTimeRule::V5_5, t, dev), Ns(2000));
        QCOMPARE(dev.pollLimitNs, Ns(2000));
        dev = {};
        // v5.11+: C1 is below 10 us, so C1E's 20 us sets it.
        QCOMPARE(cpuidlePollTime(PollTimeRule::V5_11, t, dev), Ns(20000));
        dev = {};
        // Clamped to TICK_NSEC/16 = 250 us at 250 Hz when C1E is disabled and C6 is 600 us.
        QVERIFY(t.setDisabled(2, true).ok());
        QCOMPARE(cpuidlePollTime(PollTimeRule::V5_11, t, dev), Ns(250000));
        dev = {};
        dev.pollLimitNs = 777; // cached / set by haltpoll
        QCOMPARE(cpuidlePollTime(PollTimeRule::V5_11, t, dev), Ns(777));
        // No states after POLL: TICK_NSEC before v5.11.
        IdleStateTable only;
        only.states = {{"POLL", "", 0, 0, true, false}};
        dev = {};
        QCOMPARE(cpuidlePollTime(PollTimeRule::V5_5, only, dev), Ns(4000000));
    }

    void aboveBelow()
    {
        IdleStateTable t = skxLike();
        // C1E for 19.999 us: above (TR 20 us), shallower C1 enabled.
        QVERIFY(classifyMiss(t, 2, 19999, 10000).above);
        QVERIFY(!classifyMiss(t, 2, 20000, 10000).above);
        // C1E for 610 us: 610 - 10 = 600 >= C6's 600 us: below.
        QVERIFY(classifyMiss(t, 2, 610000, 10000).below);
        QVERIFY(!classifyMiss(t, 2, 609999, 10000).below);
        // Residency in [TR, EL] counts as neither: a state with EL > TR.
        IdleStateTable odd = t;
        QVERIFY(odd.setExitLatencyNs(1, 5000).ok());
        const MissFlags f = classifyMiss(odd, 1, 4000, 5000);
        QVERIFY(!f.above && !f.below);
        // Disabled C6: the next enabled deeper state does not exist → no below.
        QVERIFY(t.setDisabled(3, true).ok());
        QVERIFY(!classifyMiss(t, 2, 10000000, 10000).below);
        // Only the first enabled deeper state counts: disable C1E, C1 for 30 us vs C6 600 us.
        IdleStateTable u = skxLike();
        QVERIFY(u.setDisabled(2, true).ok());
        QVERIFY(!classifyMiss(u, 1, 30000, 2000).below);
        QVERIFY(classifyMiss(u, 1, 602000, 2000).below);
        // All shallower states disabled: no above.
        IdleStateTable v = skxLike();
        QVERIFY(v.setDisabled(0, true).ok());
        QVERIFY(v.setDisabled(1, true).ok());
        QVERIFY(!classifyMiss(v, 2, 100, 10000).above);
    }

    void oracleReplayCountsAndTime()
    {
        IdleStateTable t = skxLike();
        auto oracle = createGovernor("oracle");
        QVERIFY(oracle);
        // 700 us idle woken by an irq (timer far away): the oracle picks C6, stops the tick.
        // 50 us idle: C1E. 1 us idle: POLL (polls 1 us, limit 20 us).
        const IdleStream s = {{1000, 50000000, 700000, -1, 0},
                              {1000, 50000000, 50000, -1, 0},
                              {1000, 50000000, 1000, -1, 0}};
        std::vector<EntryRecord> rec;
        const ReplaySummary sum =
            replayStream(t, s, *oracle, [&](const EntryRecord &e, const Governor &) { rec.push_back(e); });
        QCOMPARE(sum.spans, 3);
        QCOMPARE(sum.entries, 3);
        QCOMPARE(rec[0].state, 3);
        QCOMPARE(rec[0].residencyNs, Ns(700000 + 133000));
        QVERIFY(rec[0].stopTick);
        QCOMPARE(rec[1].state, 2);
        QCOMPARE(rec[2].state, 0);
        QCOMPARE(rec[2].residencyNs, Ns(1000));
        QVERIFY(!rec[2].pollTimeLimit);
        // now: 1e9 + gaps + residencies.
        QCOMPARE(sum.endNowNs, Ns(1000000000 + 3000 + 833000 + 60000 + 1000));
        QCOMPARE(sum.totalAbove() + sum.totalBelow(), 0);
    }

    void pollLimitEndsPollingButNotTheSpan()
    {
        // A table with only POLL and a deep state; latency limit 0 forces POLL.
        IdleStateTable t = skxLike();
        auto oracle = createGovernor("oracle");
        const IdleStream s = {{0, 50000000, 45000, 0, 0}};
        std::vector<EntryRecord> rec;
        replayStream(t, s, *oracle, [&](const EntryRecord &e, const Governor &) { rec.push_back(e); });
        // Poll limit 20 us (C1E): 20 + 20 + 5 us.
        QCOMPARE(rec.size(), size_t(3));
        QCOMPARE(rec[0].residencyNs, Ns(20000));
        QVERIFY(rec[0].pollTimeLimit);
        QVERIFY(rec[1].pollTimeLimit);
        QCOMPARE(rec[2].residencyNs, Ns(5000));
        QVERIFY(!rec[2].pollTimeLimit);
        // POLL's 5 us entry is below: C1 (TR 2 us) would have fitted.
        QVERIFY(rec[2].below);
    }

    void timeToTickOnAndBetweenTicks()
    {
        // What select sees as delta_next with the tick running: TICK_NSEC -
        // (now % TICK_NSEC) (a whole period on a boundary) capped by the
        // sleep length. Spans that start exactly on ticks, just before and
        // after them, far beyond several ticks, and the polling state's
        // short entries (latency limit 0) that end between ticks.
        IdleStateTable t = skxLike(); // 250 Hz: TICK_NSEC 4 ms
        const Ns tick = 4000000;
        auto ladder = createGovernor("ladder-latest");
        QVERIFY(ladder);
        // now starts at 1e9, itself a tick boundary (250 * TICK_NSEC).
        const IdleStream s = {{0, 50000000, 1000, 0, 0},           // polls 1 us from a tick...
                              {tick - 1000, 50000000, 1000, 0, 0}, // ...and the next starts on the next tick
                              {0, 50000000, 4000000, -1, 0},       {tick - 1, 50000000, 1, -1, 0}, // just before one
                              {2, 50000000, 13000000, -1, 0},                                      // several ticks long
                              {0, 50000000, 45000, 0, 0},    // polling, three entries
                              {3 * tick, 3000, 3000, -1, 0}, // timer closer than the tick
                              {tick, 50000000, 7, -1, 0}};
        std::vector<EntryRecord> rec;
        replayStream(t, s, *ladder, [&](const EntryRecord &e, const Governor &) { rec.push_back(e); });
        QVERIFY(rec.size() >= s.size() + 2);
        int checked = 0, onBoundary = 0;
        bool stoppedBefore = false; // the tick stays stopped for the rest of a span
        for (const EntryRecord &e : rec) {
            if (e.entry == 0)
                stoppedBefore = false;
            const bool skip = stoppedBefore;
            stoppedBefore = e.tickStopped;
            if (skip)
                continue;
            const Ns toTick = tick - e.startNs % tick;
            QCOMPARE(e.deltaNextNs, std::min(toTick, e.sleepLengthNs));
            onBoundary += e.startNs % tick == 0;
            ++checked;
        }
        QVERIFY(checked >= 6);
        QVERIFY(onBoundary >= 2);
        QCOMPARE(rec[0].startNs, Ns(1000000000));
        QCOMPARE(rec[0].deltaNextNs, tick);
        QCOMPARE(rec[1].startNs, Ns(1000000000) + tick); // reached the boundary kept from entry 0
        QCOMPARE(rec[1].deltaNextNs, tick);
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "tst_replay.moc"
