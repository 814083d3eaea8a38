// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * haltpoll-latest (haltpoll.c v7.0) with hand-computed poll windows on the
 * haltpoll-guest table: POLL, then halt (EL = TR = 1 us), 250 Hz.
 */
#include "core/governors/explain.h"
#include "core/governors/haltpoll_governor.h"
#include "core/replay/governor_factory.h"
#include "core/replay/reference_replay.h"

#include "tests/governor_rig.h"

#include <QTest>

using namespace idlescope;

namespace {

IdleStateTable guest()
{
    return test::makeTable("haltpoll-guest", 250,
                           {{"POLL", "", 0, 0, true, false}, {"haltpoll-idle", "", 1000, 1000, false, false}});
}

/// select()'s inputs of these cases: sleep length 10 ms, the next tick in 4 ms.
test::SelectInputs wakeup(Ns latencyReq = PM_QOS_DEFAULT_LATENCY_NS)
{
    return {.sleepLengthNs = 10000 * NSEC_PER_USEC, .deltaNextNs = 4000 * NSEC_PER_USEC, .latencyReqNs = latencyReq};
}

struct Rig : test::GovernorRig {
    Rig() : GovernorRig("haltpoll-latest", guest()) {}

    /// A halt that blocked for @p blockNs (its last_residency_ns), reflected directly.
    void halt(Ns blockNs)
    {
        dev.lastResidencyNs = blockNs;
        gov->reflect(drv, dev, 1);
    }
    const HaltpollReasoning &why() const { return GovernorRig::why<HaltpollReasoning>(); }
};

} // namespace

class TestHaltpoll : public QObject {
    Q_OBJECT

private slots:
    void selectRules()
    {
        Rig r;
        r.dev.pollLimitNs = 123;
        r.gov->enable(r.drv, r.dev);
        QCOMPARE(r.dev.pollLimitNs, Ns(0));

        // No window: halt, *stop_tick untouched (stays true).
        Selection s = r.select(wakeup());
        QCOMPARE(s.stateIndex, 1);
        QVERIFY(s.stopTick);
        QCOMPARE(s.predictedNs, Ns(-1));
        QCOMPARE(r.why().action, HaltpollReasoning::Action::NoPollWindow);

        // A zero latency limit polls even without a window, keeping the tick.
        s = r.select(wakeup(0));
        QCOMPARE(s.stateIndex, 0);
        QVERIFY(!s.stopTick);

        r.halt(30000); // grows the window to 50 us (see below)
        s = r.select(wakeup());
        QCOMPARE(s.stateIndex, 0); // after a halt: poll first
        QVERIFY(!s.stopTick);
        QCOMPARE(r.why().action, HaltpollReasoning::Action::AfterHalt);

        r.dev.lastResidencyNs = 20000;
        r.dev.pollTimeLimit = false; // an event ended the poll
        r.gov->reflect(r.drv, r.dev, 0);
        QCOMPARE(r.dev.pollLimitNs, Ns(50000)); // polling does not adjust
        s = r.select(wakeup());
        QCOMPARE(s.stateIndex, 0);
        QVERIFY(!s.stopTick);
        QCOMPARE(r.why().action, HaltpollReasoning::Action::PollAgain);

        r.dev.pollTimeLimit = true; // the window ran out
        r.gov->reflect(r.drv, r.dev, 0);
        s = r.select(wakeup());
        QCOMPARE(s.stateIndex, 1);
        QVERIFY(s.stopTick);
        QCOMPARE(r.why().action, HaltpollReasoning::Action::PollExpired);
    }

    void growAndShrink()
    {
        Rig r;
        // 0 * 2 = 0 is below grow_start: raised to 50 us.
        r.halt(30000);
        QCOMPARE(r.dev.pollLimitNs, Ns(50000));
        QCOMPARE(r.why().adjust, HaltpollReasoning::Adjust::Grow);
        QVERIFY(r.why().raisedToGrowStart);
        // 50 < 80 <= 200 us: doubled.
        r.halt(80000);
        QCOMPARE(r.dev.pollLimitNs, Ns(100000));
        QVERIFY(!r.why().raisedToGrowStart);
        // 100 < 150 <= 200: doubled to exactly the cap.
        r.halt(150000);
        QCOMPARE(r.dev.pollLimitNs, Ns(200000));
        QVERIFY(!r.why().cappedAtMax);
        // 180 us is within the window: no change.
        r.halt(180000);
        QCOMPARE(r.dev.pollLimitNs, Ns(200000));
        QCOMPARE(r.why().adjust, HaltpollReasoning::Adjust::None);
        // Longer than guest_halt_poll_ns: halved, 100 then 50 us (not below grow_start).
        r.halt(250000);
        QCOMPARE(r.dev.pollLimitNs, Ns(100000));
        QCOMPARE(r.why().adjust, HaltpollReasoning::Adjust::Shrink);
        r.halt(250000);
        QCOMPARE(r.dev.pollLimitNs, Ns(50000));
        QVERIFY(!r.why().resetToZero);
        // v6.9: 25 us is below grow_start, so the window goes to 0.
        r.halt(250000);
        QCOMPARE(r.dev.pollLimitNs, Ns(0));
        QVERIFY(r.why().resetToZero);
        QCOMPARE(r.why().rawVal, std::uint32_t(25000));
        // A grow from 60 us with grow 4: 240 us capped at 200 us.
        std::string err;
        QVERIFY(r.gov->setTunable("guest_halt_poll_grow", 4, &err));
        r.dev.pollLimitNs = 60000;
        r.halt(70000);
        QCOMPARE(r.dev.pollLimitNs, Ns(200000));
        QVERIFY(r.why().cappedAtMax);
    }

    void shrinkSwitches()
    {
        Rig r;
        std::string err;
        r.dev.pollLimitNs = 200000;
        QVERIFY(r.gov->setTunable("guest_halt_poll_allow_shrink", 0, &err));
        r.halt(1000000);
        QCOMPARE(r.dev.pollLimitNs, Ns(200000));
        QVERIFY(r.gov->setTunable("guest_halt_poll_allow_shrink", 1, &err));
        QVERIFY(r.gov->setTunable("guest_halt_poll_shrink", 0, &err));
        r.halt(1000000);
        QCOMPARE(r.dev.pollLimitNs, Ns(0));
    }

    void thirtyTwoBitVal()
    {
        Rig r;
        std::string err;
        QVERIFY(r.gov->setTunable("guest_halt_poll_ns", 4000000000LL, &err));
        // Grow: 3e9 * 2 = 6e9 as u64, stored in an unsigned int: 6e9 - 2^32 = 1705032704.
        r.dev.pollLimitNs = 3000000000LL;
        r.halt(3500000000LL);
        QCOMPARE(r.dev.pollLimitNs, Ns(1705032704));
        QCOMPARE(r.why().adjust, HaltpollReasoning::Adjust::Grow);
        // Shrink: a 5e9 window read into an unsigned int is 705032704, halved 352516352.
        r.dev.pollLimitNs = 5000000000LL;
        r.halt(4100000000LL);
        QCOMPARE(r.dev.pollLimitNs, Ns(352516352));
        QCOMPARE(r.why().adjust, HaltpollReasoning::Adjust::Shrink);
    }

    void throughTheReplay()
    {
        const IdleStateTable drv = guest();
        std::unique_ptr<Governor> gov = createGovernor("haltpoll-latest");
        ReferenceReplay rp(drv, *gov);
        std::vector<EntryRecord> rec;
        auto sink = [&](const EntryRecord &e, const Governor &) { rec.push_back(e); };
        // Span 0: no window: halt until the wake at 30 us, residency 31 us, window 50 us.
        rp.runSpan(IdleSpan{1000, 10000000, 30000, -1, 0}, nullptr, sink);
        QCOMPARE(rec.size(), size_t(1));
        QCOMPARE(rec[0].state, 1);
        QCOMPARE(rec[0].residencyNs, Ns(31000));
        QCOMPARE(rp.device().pollLimitNs, Ns(50000));
        // Span 1: after a halt, poll; the wake at 20 us comes inside the 50 us window.
        rp.runSpan(IdleSpan{1000, 10000000, 20000, -1, 0}, nullptr, sink);
        QCOMPARE(rec.size(), size_t(2));
        QCOMPARE(rec[1].state, 0);
        QVERIFY(!rec[1].pollTimeLimit);
        // Span 2: poll again; the window ends at 50 us with no event, then halt the rest.
        rp.runSpan(IdleSpan{1000, 10000000, 80000, -1, 0}, nullptr, sink);
        QCOMPARE(rec.size(), size_t(4));
        QCOMPARE(rec[2].state, 0);
        QVERIFY(rec[2].pollTimeLimit);
        QCOMPARE(rec[2].residencyNs, Ns(50000));
        QCOMPARE(rec[3].state, 1);
        QVERIFY(rec[3].stopTick);
        QCOMPARE(rec[3].residencyNs, Ns(31000));      // 30 us left + 1 us exit latency
        QCOMPARE(rp.device().pollLimitNs, Ns(50000)); // 31 us <= window: unchanged
    }

    void tunables()
    {
        Rig r;
        QVERIFY(r.gov->atKernelDefaults());
        QCOMPARE(r.tunableValues(), std::string("guest_halt_poll_ns=200000, guest_halt_poll_shrink=2, "
                                                "guest_halt_poll_grow=2, guest_halt_poll_grow_start=50000, "
                                                "guest_halt_poll_allow_shrink=1"));
        QCOMPARE(r.refusal("guest_halt_poll_allow_shrink", 2),
                 std::string("guest_halt_poll_allow_shrink = 2 is out of range 0..1 for haltpoll-latest (kernel "
                             "default 1)"));
        QCOMPARE(r.refusal("guest_halt_poll_ns", 4294967296LL),
                 std::string("guest_halt_poll_ns = 4294967296 is out of range 0..4294967295 for haltpoll-latest "
                             "(kernel default 200000)"));
        QCOMPARE(r.refusal("guest_halt_poll_grow", -1),
                 std::string("guest_halt_poll_grow = -1 is out of range 0..4294967295 for haltpoll-latest (kernel "
                             "default 2)"));
        QCOMPARE(r.refusal("halt_poll_ns", 1),
                 std::string("unknown parameter 'halt_poll_ns' for haltpoll-latest (known: guest_halt_poll_ns, "
                             "guest_halt_poll_shrink, guest_halt_poll_grow, guest_halt_poll_grow_start, "
                             "guest_halt_poll_allow_shrink)"));
        QVERIFY(r.gov->atKernelDefaults());
    }

    void explain()
    {
        Rig r;
        const Selection s = r.select(wakeup());
        r.dev.lastResidencyNs = 30000;
        r.gov->reflect(r.drv, r.dev, s.stateIndex);
        const std::string d = describeReasoning(r.gov->reasoning());
        QVERIFY2(d.find("action=no_poll_window") != std::string::npos, d.c_str());
        QVERIFY2(d.find("adjust=grow") != std::string::npos, d.c_str());
        QVERIFY2(d.find("new_poll_limit_ns=50000") != std::string::npos, d.c_str());
        const auto words = explainReasoning(r.gov->reasoning(), r.drv);
        QCOMPARE(words.size(), size_t(2));
        QVERIFY2(words[1].find("grew to 50 us (raised to grow_start)") != std::string::npos, words[1].c_str());
    }
};

QTEST_GUILESS_MAIN(TestHaltpoll)
#include "tst_haltpoll.moc"
