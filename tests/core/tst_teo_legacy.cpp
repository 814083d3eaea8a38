// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * teo-5.13 (teo.c v5.13) with hand-computed metrics and decisions. Most cases
 * use table T: POLL (0/0), S1 (EL 1 us, TR 10 us), S2 (EL 2 us, TR 100 us),
 * S3 (EL 4 us, TR 1 ms) at 250 Hz (TICK_NSEC 4 ms); the constraint_idx quirk
 * uses the skx-like table of the example in tests/data/conformance/VARIANTS.md.
 */
#include "core/governors/explain.h"
#include "core/governors/registry.h"
#include "core/governors/teo_legacy_governor.h"

#include "tests/governor_rig.h"

#include <QTest>

using namespace idlescope;

namespace {

IdleStateTable tableT()
{
    return test::makeTable("T", 250,
                           {{"POLL", "", 0, 0, true, false},
                            {"S1", "", 1000, 10000, false, false},
                            {"S2", "", 2000, 100000, false, false},
                            {"S3", "", 4000, 1000000, false, false}});
}

using test::skxLike;

struct Rig : test::GovernorRig {
    explicit Rig(IdleStateTable t) : GovernorRig("teo-5.13", std::move(t)) {}

    Selection select(Ns sleepNs, Ns latencyReq = PM_QOS_DEFAULT_LATENCY_NS, bool tickStopped = false, Ns deltaNext = -1)
    {
        return GovernorRig::select({.sleepLengthNs = sleepNs,
                                    .deltaNextNs = deltaNext,
                                    .latencyReqNs = latencyReq,
                                    .tickStopped = tickStopped});
    }
    void reflect(int index, Ns residencyNs) { GovernorRig::reflect(index, {.residencyNs = residencyNs}); }
    const TeoReasoning &why() const { return GovernorRig::why<TeoReasoning>(); }
};

} // namespace

class TestTeoLegacy : public QObject {
    Q_OBJECT

private slots:
    void firstSelectUpdatesFromZeroedDevice()
    {
        Rig r(tableT());
        const Selection s = r.select(2000000);
        // last_state_idx 0 >= 0: teo_update runs. time span 0 >= sleep length 0,
        // so measured = U64_MAX, and TR(POLL) = 0 <= 0 makes it a hit of state 0.
        QVERIFY(r.why().updated);
        QVERIFY(r.why().lastWasHit);
        QCOMPARE(r.why().measuredNs, KTIME_MAX);
        QCOMPARE(r.why().hits[0], 1024u);
        QCOMPARE(r.dev.lastStateIdx, -1);
        // S3 fits 2 ms; 0 hits <= 0 misses but no early hits anywhere: keep S3.
        // 2 ms < TICK_NSEC keeps the tick; S3's 1 ms fits delta_tick.
        QCOMPARE(s.stateIndex, 3);
        QVERIFY(!s.stopTick);
        QCOMPARE(s.predictedNs, Ns(2000000));
        QCOMPARE(r.why().path, TeoReasoning::Path::Candidate);
        QCOMPARE(r.why().constraintIdx, 4); // no state over the limit
    }

    void earlyHitsChoiceAndPrevMaxSwap()
    {
        Rig r(tableT());
        QCOMPARE(r.select(2000000).stateIndex, 3);
        r.reflect(3, 54000);
        // Update: 54000 - 4000/2 = 52000 matches S1 while 2 ms matches S3:
        // a miss of S3 and an early hit of S1.
        Selection s = r.select(2000000);
        QCOMPARE(r.why().measuredNs, Ns(52000));
        QVERIFY(!r.why().lastWasHit);
        QCOMPARE(r.why().intercepts[3], 1024u); // misses
        QCOMPARE(r.why().extra[1], 1024u);      // early hits
        // S3: 0 hits <= 1024 misses, so the state with the most early hits: S1,
        // with duration := its target residency.
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(r.why().path, TeoReasoning::Path::EarlyHits);
        QCOMPARE(r.why().candidateIdx, 3);
        QCOMPARE(r.why().maxEarlyIdx, 1);
        QCOMPARE(s.predictedNs, Ns(10000));
        QVERIFY(!s.stopTick);

        r.reflect(1, 151000);
        // Update: 151000 - 500 = 150500 matches S2 against S3 (the 2 ms of the
        // previous select): S1's early hits decay to 896, S2 gets 1024, S3's
        // misses become 1024 - 128 + 1024 = 1920.
        s = r.select(500000, PM_QOS_DEFAULT_LATENCY_NS, false, 500000);
        QCOMPARE(r.why().extra[1], 896u);
        QCOMPARE(r.why().extra[2], 1024u);
        QCOMPARE(r.why().intercepts[3], 1920u);
        // 500 us: the candidate is S2 (0 hits <= 0 misses). S2 holds the early-hits
        // maximum itself, so the previous maximum, S1, is taken.
        QCOMPARE(r.why().candidateIdx, 2);
        QCOMPARE(r.why().maxEarlyIdx, 1);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(s.predictedNs, Ns(10000));
        QCOMPARE(r.why().path, TeoReasoning::Path::EarlyHits);
    }

    void constraintIdxQuirk()
    {
        // tests/data/conformance/VARIANTS.md (teo-5.13): latency limit 0 and a 10 us sleep length pick C1, not POLL:
        // constraint_idx is the first state over the limit (C1, EL 2 us).
        Rig r(skxLike());
        Selection s = r.select(10000, 0);
        QCOMPARE(r.why().constraintIdx, 1);
        QCOMPARE(s.stateIndex, 1);
        QVERIFY(r.drv[1].exitLatencyNs > 0);

        // A 5 us limit and 1 ms: the candidate C6 is capped at C1E (EL 10 us),
        // the first state over the limit, where teo-5.14 would pick C1.
        Rig q(skxLike());
        s = q.select(1000000, 5000);
        QCOMPARE(q.why().candidateIdx, 3);
        QCOMPARE(q.why().constraintIdx, 2);
        QCOMPARE(s.stateIndex, 2);
        QCOMPARE(q.why().path, TeoReasoning::Path::LatencyLimit);
    }

    void recentIntervalsPickShallowerState()
    {
        for (const bool tickStopped : {false, true}) {
            Rig r(tableT());
            QCOMPARE(r.select(2000000).stateIndex, 3);
            r.reflect(3, 2004000); // the timer: time span >= sleep length, a hit of S3
            // Six 40 us idles with 50 us timers: hits of S1, intervals 41000 - 500.
            for (int n = 0; n < 6; ++n) {
                QCOMPARE(r.select(50000).stateIndex, 1);
                r.reflect(1, 41000);
            }
            QCOMPARE(r.why().recentCount, 5); // the sixth is stored by the next update
            // Ring: U64_MAX (first update), U64_MAX (the timer), then six 40500.
            const Selection s = r.select(2000000, PM_QOS_DEFAULT_LATENCY_NS, tickStopped);
            QCOMPARE(r.why().hits[3], 1024u);
            QCOMPARE(r.why().candidateIdx, 3); // 1024 hits > 0 misses
            QCOMPARE(r.why().recentCount, 6);
            QCOMPARE(r.why().recentAvgNs, Ns(40500));
            if (!tickStopped) {
                // 6 > INTERVALS / 2: duration := 40.5 us, S3 and S2 are too deep.
                QCOMPARE(s.stateIndex, 1);
                QCOMPARE(s.predictedNs, Ns(40500));
                QCOMPARE(r.why().path, TeoReasoning::Path::RecentIntervals);
                QVERIFY(!s.stopTick);
            } else {
                // With the tick stopped an average below TICK_NSEC is not trusted.
                QCOMPARE(s.stateIndex, 3);
                QCOMPARE(s.predictedNs, Ns(2000000));
                QCOMPARE(r.why().path, TeoReasoning::Path::Candidate);
                QVERIFY(s.stopTick);
            }
        }
    }

    void tickKeptDemotion()
    {
        // 2 ms to the timer but 300 us to the tick: S3 does not fit before the tick.
        Rig r(tableT());
        const Selection s = r.select(2000000, PM_QOS_DEFAULT_LATENCY_NS, false, 300000);
        QCOMPARE(s.stateIndex, 2);
        QVERIFY(!s.stopTick);
        QCOMPARE(r.why().path, TeoReasoning::Path::TickKeptDemotion);
    }

    void negativeSleepLength()
    {
        // Every target residency exceeds a negative sleep length: the first
        // enabled state, tick kept.
        Rig r(tableT());
        const Selection s = r.select(-5000);
        QCOMPARE(s.stateIndex, 0);
        QVERIFY(!s.stopTick);
        QCOMPARE(s.predictedNs, Ns(-5000));
    }

    void pollLimitSkipsTheStickyTickFlag()
    {
        Rig r(tableT());
        r.select(8000000);
        r.GovernorRig::reflect(0, {.residencyNs = 62500, .pollTimeLimit = true, .gotTick = true});
        // poll_time_limit short-circuits the ||: the got_tick flag is not read.
        QVERIFY(!r.dev.pollTimeLimit);
        QVERIFY(r.dev.gotTickFlag);
        r.select(8000000);
        QCOMPARE(r.why().measuredNs, KTIME_MAX); // time span := sleep length
        // Next reflect reads (and clears) the flag left by the earlier tick:
        // sleep length 8 ms > TICK_NSEC, so this 30 us idle counts as a timer wakeup.
        r.reflect(1, 31000);
        QVERIFY(!r.dev.gotTickFlag);
        r.select(8000000);
        QCOMPARE(r.why().measuredNs, KTIME_MAX);
        // Without a flag the same idle is measured: 31000 - 500.
        r.reflect(1, 31000);
        r.select(8000000);
        QCOMPARE(r.why().measuredNs, Ns(30500));
    }

    void tunables()
    {
        Rig r(tableT());
        QVERIFY(r.gov->atKernelDefaults());
        QCOMPARE(r.tunableValues(), std::string("PULSE=1024, DECAY_SHIFT=3, INTERVALS=8"));
        QCOMPARE(r.refusal("INTERVALS", 0),
                 std::string("INTERVALS = 0 is out of range 1..64 for teo-5.13 (kernel default 8)"));
        QCOMPARE(r.refusal("DECAY_SHIFT", 32),
                 std::string("DECAY_SHIFT = 32 is out of range 0..31 for teo-5.13 (kernel default 3)"));
        QCOMPARE(r.refusal("NR_RECENT", 9),
                 std::string("unknown parameter 'NR_RECENT' for teo-5.13 (known: PULSE, DECAY_SHIFT, INTERVALS)"));
        QCOMPARE(r.refusal("PULSE", 100), std::string());
        r.select(2000000);
        QCOMPARE(r.why().hits[0], 100u);
    }

    void explain()
    {
        Rig r(tableT());
        r.select(2000000);
        r.reflect(3, 54000);
        r.select(2000000);
        const std::string d = describeReasoning(r.gov->reasoning());
        QVERIFY2(d.find("path=early_hits") != std::string::npos, d.c_str());
        QVERIFY2(d.find("max_early=1") != std::string::npos, d.c_str());
        const auto words = explainReasoning(r.gov->reasoning(), r.drv);
        bool named = false;
        for (const std::string &w : words)
            named = named || w.find("teo took S1, the shallower state with the most early hits") != std::string::npos;
        QVERIFY(named);
    }
};

QTEST_GUILESS_MAIN(TestTeoLegacy)
#include "tst_teo_legacy.moc"
