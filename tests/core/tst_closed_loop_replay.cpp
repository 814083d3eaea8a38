// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A closed loop's CPU is the reference replay of the spans the loop made
 * (core/experiments/closed_loop_parts.h): the loop decides only when each span
 * starts and ends. Worked by hand on one CPU whose wakeup comes while a
 * tick-ended entry is still leaving its state (the woken task waits only for
 * the rest of the wake delay, as a replay counts it: woken_tasks.h), and
 * checked on real governors: every loop CPU's spans, replayed open loop by
 * replayCpu(), give the loop's own counters, woken tasks and wake delays.
 */
#include "core/experiments/closed_loop.h"
#include "core/experiments/closed_loop_parts.h"
#include "core/machine/machine_replay.h"
#include "core/replay/governor_run.h"
#include "core/targets/builtin_targets.h"

#include "tests/governor_rig.h"
#include "tests/scripted_governor.h"

#include <QTest>

using namespace idlescope;

class TestClosedLoopReplay : public QObject {
    Q_OBJECT

private slots:
    /// skx-like (POLL 0/0, C1 2/2, C1E 10/20, C6 133/600 us; 250 Hz, a tick every 4 ms from
    /// the loop's start at 1 s), C6's wake delay 100 us (its exit latency, which the governors
    /// and the replay's clock read, stays 133 us), C1E's its exit latency, 10 us.
    ///
    /// Span 0: idle from 1.000000 s, the completion at 1.004050, the next timer 10 ms away.
    ///   C6 with the tick running: the tick at 1.004000 ends the entry, and the completion
    ///   comes 50 us into its exit. The CPU is back 100 us after it left C6, at 1.004100: the
    ///   task waited 50 us, not the whole 100 us (the older rule: back at 1.004150, and the
    ///   wakeup not counted, the entry having ended at the tick).
    /// Span 1: 10 us of work, idle from 1.004110, the completion 100 us later (1.004210),
    ///   in C1E: back at 1.004220, a wait of 10 us.
    /// So 2 woken tasks, 60 us waited, 110 us spent waking.
    void aWakeupDuringATickEndedExitWaitsOnlyTheRest()
    {
        IdleStateTable table = test::skxLike();
        table.states[3].wakeDelayNs = 100000;
        closed_loop::LoopCpu cpu(
            table, std::make_unique<ScriptedGovernor>(std::vector<Selection>{{3, false, -1}, {2, false, -1}}), 0);
        const Ns t0 = REPLAY_START_NS;
        QCOMPARE(cpu.idleUntil(t0, t0 + 4050000, -1, 10000000), t0 + 4100000);
        QCOMPARE(cpu.run.wakeups, std::int64_t(1));
        QCOMPARE(cpu.run.latencyCostNs, Ns(50000));
        QCOMPARE(cpu.idleUntil(t0 + 4110000, t0 + 4210000, -1, 10000000), t0 + 4220000);
        QCOMPARE(cpu.run.wakeups, std::int64_t(2));
        QCOMPARE(cpu.run.latencyCostNs, Ns(60000));
        QCOMPARE(cpu.wake.wakingNs, Ns(110000));
    }

    void theLoopsSpansReplayToTheLoopsCounters_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("governor");
        QTest::addColumn<bool>("cpu0Approximate");
        // eMMC: its interrupt on CPU 0 (in-idle wakeups there for job 1's completions), timers.
        QTest::newRow("emmc menu") << "io:device=emmc,work_us=20,ops=3000"
                                   << "menu-6.14" << false;
        QTest::newRow("emmc teo") << "io:device=emmc,work_us=20,ops=3000"
                                  << "teo-6.14" << false;
        QTest::newRow("nvme two jobs") << "io:device=nvme,work_us=5,numjobs=2,ops=2000"
                                       << "teo-6.14" << false;
        // CPU 0 is approximate where its own completion comes during the handler of another
        // CPU's interrupt that found it idle (closed_loop_io.cpp): the replay was told that
        // interrupt woke no task, and the stay goes on into CPU 0's next span without the
        // busy time between, which the recorded span's gap holds (hardirq + work_us, 25 us,
        // where the handler was 5). CPU 1, woken by IPIs only, is exact.
        QTest::newRow("emmc two jobs routed") << "io:device=emmc,work_us=20,numjobs=2,ops=2000,next_timer_us=0"
                                              << "menu-6.14" << true;
        QTest::newRow("pingpong") << "pingpong:work_us=30,ops=2000"
                                  << "menu-6.14" << false;
    }

    /// Every loop CPU's recorded spans, replayed open loop on its table by a fresh governor of
    /// the same variant, make the same entries (the sysfs counters), the same woken tasks and
    /// wake delays: the loop and the replay count by one rule.
    void theLoopsSpansReplayToTheLoopsCounters()
    {
        QFETCH(QString, spec);
        QFETCH(QString, governor);
        QFETCH(bool, cpu0Approximate);
        const Machine m = Machine::uniform(builtinTarget("arm-rk3399").value(), 4);
        const ClosedLoopSpec s = parseClosedLoopSpec(spec.toStdString()).value();
        std::vector<std::vector<IdleStream>> spans;
        ClosedLoopWatch watch;
        watch.spans = &spans;
        Result<std::vector<ClosedLoopRun>> runs = runClosedLoop(m, s, {governor.toStdString()}, {}, 7, 1, &watch);
        QVERIFY2(runs.ok(), runs ? "" : runs.error().toString().c_str());
        QCOMPARE(spans.size(), std::size_t(1));
        QCOMPARE(spans[0].size(), static_cast<std::size_t>(s.cpus()));
        for (int c = 0; c < s.cpus(); ++c) {
            const CpuRun &loop = runs->front().counters.cpus[static_cast<std::size_t>(c)];
            const IdleStream &stream = spans[0][static_cast<std::size_t>(c)];
            QCOMPARE(static_cast<std::int64_t>(stream.size()), loop.spans);
            if (c == 0 && cpu0Approximate)
                continue;
            std::unique_ptr<Governor> gov = std::move(makeConfiguredGovernor(governor.toStdString(), {}).value());
            const CpuRun open = replayCpu(m.tableOf(c), CpuStream{c, stream, 0, {}}, *gov, IntervalKind::None);
            QVERIFY(loop.entries > loop.spans / 2);
            QCOMPARE(open.entries, loop.entries);
            QCOMPARE(open.spans, loop.spans);
            for (int st = 0; st < loop.stateCount; ++st)
                QVERIFY2(open.states[static_cast<std::size_t>(st)] == loop.states[static_cast<std::size_t>(st)],
                         qPrintable(QStringLiteral("CPU %1 state %2").arg(c).arg(st)));
            QCOMPARE(open.wakeups, loop.wakeups);
            QCOMPARE(open.latencyCostNs, loop.latencyCostNs);
            QCOMPARE(open.wakingNs, loop.wakingNs);
            QVERIFY(open.enteringNs == loop.enteringNs);
        }
    }
};

QTEST_GUILESS_MAIN(TestClosedLoopReplay)
#include "tst_closed_loop_replay.moc"
