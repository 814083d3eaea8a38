// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * ladder-latest (ladder.c v7.0) with hand-computed decisions on an skx-like
 * table: POLL, C1 (EL 2 us), C1E (EL 10 us), C6 (EL 133 us); first_idx = 1.
 */
#include "core/governors/explain.h"
#include "core/governors/ladder_governor.h"
#include "core/governors/registry.h"

#include "tests/governor_rig.h"

#include <QTest>

using namespace idlescope;

namespace {

using test::skxLike;

/// ladder-latest on the skx-like table. One idle entry: select (sleep length 5 ms, the next
/// tick in 4 ms), then reflect the chosen state with @p lastResidencyNs measured.
struct Rig : test::GovernorRig {
    Rig() : GovernorRig("ladder-latest", skxLike()) {}

    Selection entry(Ns lastResidencyNs, Ns latencyReq = PM_QOS_DEFAULT_LATENCY_NS)
    {
        dev.lastResidencyNs = lastResidencyNs;
        const Selection s = select(
            {.sleepLengthNs = 5000 * NSEC_PER_USEC, .deltaNextNs = 4000 * NSEC_PER_USEC, .latencyReqNs = latencyReq});
        gov->reflect(drv, dev, s.stateIndex);
        return s;
    }
    const LadderReasoning &why() const { return GovernorRig::why<LadderReasoning>(); }
};

} // namespace

class TestLadder : public QObject {
    Q_OBJECT

private slots:
    void enableStartsOnFirstUsableState()
    {
        Rig r;
        QCOMPARE(r.dev.lastStateIdx, 1); // POLL is skipped
        IdleStateTable noPoll = skxLike();
        noPoll.states.erase(noPoll.states.begin());
        CpuidleDevice dev;
        dev.lastStateIdx = 3;
        r.gov->enable(noPoll, dev);
        QCOMPARE(dev.lastStateIdx, 0);
    }

    void promotionAfterFourLongResidencies()
    {
        Rig r;
        // 50 us on C1: 48 us beyond its 2 us exit latency > promotion time 2 us.
        for (int n = 1; n <= 3; ++n) {
            const Selection s = r.entry(50000);
            QCOMPARE(s.stateIndex, 1);
            QVERIFY(s.stopTick);             // never cleared
            QCOMPARE(s.predictedNs, Ns(-1)); // no prediction
            QCOMPARE(r.why().action, LadderReasoning::Action::Stay);
            QVERIFY(r.why().promotionCandidate);
            QCOMPARE(r.why().promotionCount, n);
            QCOMPARE(r.why().lastResidencyNs, Ns(48000));
        }
        Selection s = r.entry(50000);
        QCOMPARE(s.stateIndex, 2);
        QCOMPARE(r.why().action, LadderReasoning::Action::Promote);
        QCOMPARE(r.why().promotionCount, 4);
        QCOMPARE(r.dev.lastStateIdx, 2);

        // 12 us on C1E: 2 us beyond its 10 us exit latency < demotion time 10 us;
        // DEMOTION_COUNT is 1, so one short residency is enough.
        s = r.entry(12000);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(r.why().action, LadderReasoning::Action::Demote);
        QCOMPARE(r.why().lastResidencyNs, Ns(2000));
        QCOMPARE(r.why().demotionTimeNs, Ns(10000));

        // The first usable state has no demotion time: a zero residency stays.
        s = r.entry(2000);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(r.why().action, LadderReasoning::Action::Stay);
        QVERIFY(!r.why().demotionCandidate);
    }

    void negativeResidencyCountsAsLong()
    {
        // The zeroed device: last_residency_ns 0 - EL(C1) = -2000, compared as u64.
        Rig r;
        const Selection s = r.entry(0);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(r.why().lastResidencyNs, Ns(-2000));
        QVERIFY(r.why().promotionCandidate);
        QCOMPARE(r.why().promotionCount, 1);
    }

    void latencyZeroThenPollClimbsAtOnce()
    {
        Rig r;
        r.entry(50000);
        r.entry(50000); // C1 promotion count 2
        QCOMPARE(r.why().promotionCount, 2);
        Selection s = r.entry(50000, 0);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(r.why().action, LadderReasoning::Action::LatencyZero);
        QCOMPARE(r.dev.lastStateIdx, 0); // set by the selection; reflect(0) leaves it
        // POLL's thresholds were never set by enable (it is below first_idx), so
        // its promotion count threshold is 0 and one long residency climbs.
        s = r.entry(5000);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(r.why().action, LadderReasoning::Action::Promote);
        QCOMPARE(r.why().promotionCount, 1);
        // C1's count was reset when the ladder left it: four more are needed.
        for (int n = 1; n <= 3; ++n) {
            QCOMPARE(r.entry(50000).stateIndex, 1);
            QCOMPARE(r.why().promotionCount, n);
        }
        QCOMPARE(r.entry(50000).stateIndex, 2);
    }

    void forcedDemotionDoesNotSkipDisabledStates()
    {
        Rig r;
        QVERIFY(r.drv.setDisabled(2, true).ok()); // C1E disabled
        r.dev.lastStateIdx = 3;                   // the ladder stands on C6
        // C6 exits in 133 us > 50 us: scan down; C1E (10 us) fits and is taken
        // although it is disabled.
        Selection s = r.entry(1000000, 50000);
        QCOMPARE(s.stateIndex, 2);
        QVERIFY(r.drv[2].disabled);
        QCOMPARE(r.why().action, LadderReasoning::Action::ForcedDemote);

        // Nothing above first_idx fits 1 us: the scan ends on C1 (2 us), unchecked.
        r.dev.lastStateIdx = 3;
        s = r.entry(1000000, 1000);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(r.why().action, LadderReasoning::Action::ForcedDemote);
    }

    void promotionCountFallsThroughToForcedDemotion()
    {
        Rig r;
        r.dev.lastStateIdx = 2;
        // C1E disabled now: promotion to C6 is allowed (C6 enabled, fits the
        // limit), counted once, then the forced demotion moves off C1E.
        QVERIFY(r.drv.setDisabled(2, true).ok());
        const Selection s = r.entry(200000);
        QVERIFY(r.why().promotionCandidate);
        QCOMPARE(r.why().promotionCount, 1);
        QCOMPARE(r.why().action, LadderReasoning::Action::ForcedDemote);
        QCOMPARE(s.stateIndex, 1);
    }

    void tunables()
    {
        Rig r;
        QVERIFY(r.gov->atKernelDefaults());
        QCOMPARE(r.tunableValues(), std::string("PROMOTION_COUNT=4, DEMOTION_COUNT=1"));
        QCOMPARE(r.refusal("PROMOTION_COUNT", 0),
                 std::string("PROMOTION_COUNT = 0 is out of range 1..1000 for ladder-latest (kernel default 4)"));
        QCOMPARE(r.refusal("promotion", 2), std::string("unknown parameter 'promotion' for ladder-latest (known: "
                                                        "PROMOTION_COUNT, DEMOTION_COUNT)"));

        QCOMPARE(r.refusal("PROMOTION_COUNT", 2), std::string());
        QVERIFY(!r.gov->atKernelDefaults());
        r.gov->enable(r.drv, r.dev); // thresholds are copied at enable, as from the #define
        QCOMPARE(r.entry(50000).stateIndex, 1);
        QCOMPARE(r.entry(50000).stateIndex, 2);
    }

    void explain()
    {
        Rig r;
        for (int n = 0; n < 4; ++n)
            r.entry(50000);
        const std::string d = describeReasoning(r.gov->reasoning());
        QVERIFY2(d.find("action=promote") != std::string::npos, d.c_str());
        QVERIFY2(d.find("chosen=2") != std::string::npos, d.c_str());
        const auto words = explainReasoning(r.gov->reasoning(), r.drv);
        QVERIFY(words.size() >= 2);
        QVERIFY2(words[1].find("stepped down to C1E") != std::string::npos, words[1].c_str());
    }
};

QTEST_GUILESS_MAIN(TestLadder)
#include "tst_ladder.moc"
