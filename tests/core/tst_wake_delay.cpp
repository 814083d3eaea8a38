// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The wake delay (core/states/wake_delay.h): the real wake-up of a state, apart
 * from the exit_latency the governors read. Its rule by hand, the table JSON's
 * wake_delay_ns / entry_latency_ns read, written and refused, the built-in Arm
 * tables' device-tree numbers, an open-loop machine replay's duration and
 * latency cost on it, and measured delays from a wult datapoints.csv.
 */
#include "core/experiments/comparison.h"
#include "core/formats/wult_csv.h"
#include "core/io/table_json.h"
#include "core/machine/machine_replay.h"
#include "core/replay/governor_run.h"
#include "core/states/wake_delay.h"
#include "core/stats/governor_totals.h"
#include "core/stats/run_throughput.h"
#include "core/targets/builtin_targets.h"
#include "tests/governor_rig.h"

#include <QTest>

using namespace idlescope;

namespace {

/// WFI 1/1 us; sleep: exit_latency 100 us (entry 60 + exit 40, as dt_idle_states.c adds them),
/// target 150 us, wake delay 40 us, entry 60 us; HZ 250.
IdleStateTable dtLike()
{
    IdleStateTable t =
        test::makeTable("dt-like", 250,
                        {{"WFI", "", 1000, 1000, false, false}, {"sleep", "", 100000, 150000, false, false}});
    t.states[1].wakeDelayNs = 40000;
    t.states[1].entryLatencyNs = 60000;
    return t;
}

/// A row that ends at a device's event (no timer before it): gap @p gapUs, idle @p wakeUs.
IdleSpan eventRow(Ns gapUs, Ns wakeUs)
{
    IdleSpan s;
    s.gapNs = gapUs * 1000;
    s.wakeNs = wakeUs * 1000;
    s.timerNs = 100 * 1000 * 1000; // 100 ms: past the event
    return s;
}

} // namespace

class TestWakeDelay : public QObject {
    Q_OBJECT

private slots:
    void theRuleByHand()
    {
        const IdleStateTable t = dtLike();
        // Past the entry: the wake delay alone.
        QCOMPARE(wakeDelayNs(t[1], 200000), Ns(40000));
        QCOMPARE(wakeDelayNs(t[1], 60000), Ns(40000));
        // An event 20 us into the 60 us entry waits 40 us more for it: 40 + 40 = 80 us.
        QCOMPARE(wakeDelayNs(t[1], 20000), Ns(80000));
        // At the very start: entry + exit, the device tree's worst case = the exit_latency.
        QCOMPARE(wakeDelayNs(t[1], 0), t[1].exitLatencyNs);
        // No wake delay of its own: the exit latency (WFI's 1 us).
        QCOMPARE(wakeDelayNs(t[0], 500000), Ns(1000));
        // A replay entry's residency holds the exit latency: 300 us in sleep = 200 us slept.
        QCOMPARE(replayedWakeDelayNs(t, 1, 300000), Ns(40000));
        QCOMPARE(replayedWakeDelayNs(t, 1, 120000), Ns(80000));
        WakeTotals w;
        w.add(t, 1, 300000);
        w.add(t, 0, 51000);
        QCOMPARE(w.wakingNs, Ns(41000));
        QCOMPARE(w.clockShiftNs, Ns(40000 - 100000));
        // The governors decide alike: the wake delay is not theirs.
        IdleStateTable plain = t;
        plain.states[1].wakeDelayNs = NO_WAKE_DELAY;
        plain.states[1].entryLatencyNs = 0;
        QVERIFY(decideAlike(t, plain));
        QVERIFY(!(t == plain));
    }

    void tableJsonRoundTrip()
    {
        const char *json = R"({"id": "x", "tick_hz": 250, "wake_delay_note": "from the DT",
            "states": [{"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000},
                       {"name": "sleep", "exit_latency_ns": 100000, "target_residency_ns": 150000,
                        "wake_delay_ns": 40000, "entry_latency_ns": 60000}]})";
        Result<IdleStateTable> t = parseTableJson(json, "t.json");
        QVERIFY2(t.ok(), t ? "" : t.error().toString().c_str());
        QCOMPARE(t->states[0].wakeDelayNs, NO_WAKE_DELAY);
        QCOMPARE(t->states[0].entryLatencyNs, Ns(0));
        QCOMPARE(t->states[1].wakeDelayNs, Ns(40000));
        QCOMPARE(t->states[1].entryLatencyNs, Ns(60000));
        QCOMPARE(QString::fromStdString(t->wakeDelayNote), u"from the DT"_qs);
        const std::string written = formatTableJson(*t);
        QVERIFY(written.find("\"wake_delay_ns\": 40000") != std::string::npos);
        Result<IdleStateTable> again = parseTableJson(written, "again.json");
        QVERIFY(again.ok());
        QVERIFY(*again == *t);
        // A state without them writes neither key: tables without wake delays stay as they were.
        QCOMPARE(written.find("wake_delay_ns"), written.rfind("wake_delay_ns"));
    }

    void tableJsonBadValues_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("says");
        QTest::newRow("negative wake") << R"("wake_delay_ns": -5)"
                                       << "wake_delay_ns"
                                       << "must not be negative";
        QTest::newRow("text wake") << R"("wake_delay_ns": "40us")"
                                   << "wake_delay_ns"
                                   << "must be a number";
        QTest::newRow("fraction") << R"("entry_latency_ns": 1.5)"
                                  << "entry_latency_ns"
                                  << "whole number";
        QTest::newRow("an hour") << R"("wake_delay_ns": 4000000000000)"
                                 << "wake_delay_ns"
                                 << "above one hour";
    }

    void tableJsonBadValues()
    {
        QFETCH(QString, value);
        QFETCH(QString, field);
        QFETCH(QString, says);
        const std::string json = R"({"id": "x", "states": [{"name": "WFI", "exit_latency_ns": 1000,
            "target_residency_ns": 1000, )"
                                 + value.toStdString() + "}]}";
        Result<IdleStateTable> t = parseTableJson(json, "bad.json");
        QVERIFY(!t.ok());
        QCOMPARE(QString::fromStdString(t.error().file), u"bad.json"_qs);
        QCOMPARE(QString::fromStdString(t.error().field), field);
        QVERIFY2(QString::fromStdString(t.error().message).contains(says), t.error().message.c_str());
        QVERIFY2(QString::fromStdString(t.error().message).contains(u"state 0"_qs), t.error().message.c_str());
    }

    void builtinArmTablesUseTheDeviceTree()
    {
        // rk3399-base.dtsi: cpu-sleep entry 120 / exit 250 us, cluster-sleep 400 / 500 us; the
        // governors' exit_latency stays their sum (370, 900 us).
        Result<IdleStateTable> t = builtinTarget("arm-rk3399");
        QVERIFY(t.ok());
        QCOMPARE((*t)[1].exitLatencyNs, Ns(370000));
        QCOMPARE((*t)[1].wakeDelayNs, Ns(250000));
        QCOMPARE((*t)[1].entryLatencyNs, Ns(120000));
        QCOMPARE((*t)[2].exitLatencyNs, Ns(900000));
        QCOMPARE((*t)[2].wakeDelayNs, Ns(500000));
        QCOMPARE((*t)[2].entryLatencyNs, Ns(400000));
        QCOMPARE((*t)[0].wakeDelayNs, NO_WAKE_DELAY); // WFI: psci_idle's own 1 us
        QVERIFY(!t->wakeDelayNote.empty());
        // juno.dts: cpu-sleep-0 300 + 1200 us, cluster-sleep-0 400 + 1200 us.
        Result<IdleStateTable> juno = builtinTarget("arm-juno-r0");
        QVERIFY(juno.ok());
        QCOMPARE((*juno)[1].wakeDelayNs + (*juno)[1].entryLatencyNs, (*juno)[1].exitLatencyNs);
        QCOMPARE((*juno)[2].wakeDelayNs, Ns(1200000));
        QCOMPARE((*juno)[2].entryLatencyNs, Ns(400000));
        // Every built-in table says where its wake delays come from.
        for (const BuiltinTargetInfo &info : builtinTargets()) {
            Result<IdleStateTable> b = builtinTarget(info.id);
            QVERIFY(b.ok());
            QVERIFY2(!b->wakeDelayNote.empty(), info.id.c_str());
        }
    }

    void openLoopReplayUsesTheWakeDelay()
    {
        // Two rows on dt-like through the oracle: gap 10 us, an event after 200 us (sleep:
        // 150 <= 200), twice. Woken 40 us after each event (not 100): duration
        // 2 x (10 + 200 + 40) = 500 us (the replay's own clock: 2 x 310 = 620 us), latency
        // cost 2 x 40 = 80 us, 80 us spent waking; sysfs time 2 x 300 us as the governors see it.
        CpuStream cs;
        cs.cpu = 0;
        cs.stream = {eventRow(10, 200), eventRow(10, 200)};
        const IdleStateTable t = dtLike();
        std::unique_ptr<Governor> oracle = createGovernor("oracle");
        const CpuRun r = replayCpu(t, cs, *oracle, IntervalKind::None, nullptr);
        QCOMPARE(r.states[1].usage, 2);
        QCOMPARE(r.states[1].timeNs, Ns(600000));
        QCOMPARE(r.durationNs, Ns(500000));
        QCOMPARE(r.wakeups, 2);
        QCOMPARE(r.latencyCostNs, Ns(80000));
        QCOMPARE(r.wakingNs, Ns(80000));
        QVERIFY(r.timeHasExitLatency);
    }

    /// The failing input of a review finding: the window priced a trace's replay with the wake
    /// delays' clock shift (replayThroughput() on its own) while compare --machine kept the
    /// trace's clock, so the same CPU had two durations. One rule now (replayDurationNs()), read
    /// by compare, compare --machine and the window (governorRunThroughput()).
    void oneDurationForCompareMachineAndWindow_data()
    {
        QTest::addColumn<bool>("fromTrace");
        QTest::addColumn<qint64>("durationNs");
        QTest::addColumn<double>("energyUj");
        // Two rows on dt-like through the oracle: gap 150 us, an event after 200 us (sleep).
        // Generated: the replay's clock 2 x (150 + 200 + 100) = 900 us; woken 40 us after each
        // event, not 100: 900 - 2 x 60 = 780 us.
        // Energy at WFI 100 mW, sleep 10 mW, active 1000 mW: in sleep 2 x (200 - 60) us x 10 mW
        // = 2.8 uJ (the 60 us entry cost is spent entering, running); entering 2 x 60 us x 1 W =
        // 120 uJ; waking 2 x 40 us x 1 W = 80 uJ; busy (780 - 280 - 120 - 80) us x 1 W = 300 uJ:
        // 502.8 uJ.
        QTest::newRow("generated") << false << qint64(780000) << 502.8;
        // From a trace (gap_from_wake): row 2 starts 150 us after row 1's event at 350 us, at
        // 500 us (the replay's exit at 450 us comes before it), and wakes at 700 us; the replay
        // ends at 800 us with its last exit, and the trace's clock is kept: 800 us.
        // Busy (800 - 280 - 120 - 80) us x 1 W = 320 uJ: 2.8 + 120 + 80 + 320 = 522.8 uJ.
        QTest::newRow("trace clock") << true << qint64(800000) << 522.8;
    }

    void oneDurationForCompareMachineAndWindow()
    {
        QFETCH(bool, fromTrace);
        QFETCH(qint64, durationNs);
        QFETCH(double, energyUj);
        const IdleStateTable t = dtLike();
        PowerModel power = PowerModel::empty(t);
        power.states[0].powerMw = 100;
        power.states[1].powerMw = 10;
        power.activeMw = 1000;
        IdleStream stream = {eventRow(150, 200), eventRow(150, 200)};
        for (IdleSpan &row : stream)
            row.gapFromWake = fromTrace;
        QCOMPARE(clockOf(stream), fromTrace ? StreamClock::Trace : StreamClock::Own);

        // compare --machine: one CPU of the machine replay.
        CpuStream cs;
        cs.cpu = 0;
        cs.stream = stream;
        std::unique_ptr<Governor> oracle = createGovernor("oracle");
        const CpuRun machineCpu = replayCpu(t, cs, *oracle, IntervalKind::None, nullptr);
        QCOMPARE(machineCpu.states[1].usage, 2);
        QCOMPARE(machineCpu.durationNs, Ns(durationNs));

        // The window: a run kept entry by entry, priced by core.
        Result<GovernorRun> run = runGovernor(t, stream, "oracle");
        QVERIFY(run.ok());
        const GovernorTotals totals = governorTotals(*run, t);
        const RunThroughput window = governorRunThroughput(t, power, clockOf(stream), *run, totals);
        QCOMPARE(window.durationNs, Ns(durationNs));
        QCOMPARE(window.wakeups, 2);
        QCOMPARE(window.wakeupsPerSecond, 2.0 / (static_cast<double>(durationNs) * 1e-9));
        QVERIFY(qAbs(window.idleEnergyJ * 1e6 - 2.8) < 1e-9);
        QVERIFY2(qAbs(window.energyJ * 1e6 - energyUj) < 1e-9, std::to_string(window.energyJ * 1e6).c_str());

        // compare on one CPU (a stream file or --trace --cpu): the same numbers.
        experiments::CompareOptions o;
        o.table = t;
        o.fixedStream = stream;
        o.fixedStreamLabel = "two rows";
        o.governors = {"oracle"};
        o.iterations = 1;
        o.power = power;
        Result<experiments::CompareResult> r = experiments::runComparison(o);
        QVERIFY2(r.ok(), r ? "" : r.error().toString().c_str());
        QCOMPARE(r->runs.size(), std::size_t(1));
        QCOMPARE(r->runs[0].durationNs, Ns(durationNs));
        QVERIFY(qAbs(r->runs[0].energyJ * 1e6 - energyUj) < 1e-9);
    }

    void wultCsvMeans()
    {
        // Made-up rows in wult's datapoints.csv shape (other columns ignored):
        // C6 4.0, 6.0 and 5.5 us -> mean 5.1667 us = 5167 ns (rounded); C1E 2.25 us -> 2250 ns.
        const char *csv = "WakeLatency,SilentTime,IntrLatency,LDist,ReqCState,CC6%\n"
                          "4.0,1000.0,8.0,1010.0,C6,95.0\n"
                          "2.25,300.0,4.0,310.0,C1E,0.0\n"
                          "6.0,2000.0,10.0,2010.0,C6,96.0\n"
                          "5.5,1500.0,9.0,1510.0,C6,94.0\n";
        Result<std::vector<MeasuredWakeDelay>> m = parseWultCsv(csv, "w.csv");
        QVERIFY2(m.ok(), m ? "" : m.error().toString().c_str());
        QCOMPARE(int(m->size()), 2);
        QCOMPARE(QString::fromStdString((*m)[0].state), u"C6"_qs);
        QCOMPARE((*m)[0].samples, 3);
        QCOMPARE((*m)[0].meanNs, Ns(5167));
        QCOMPARE((*m)[1].meanNs, Ns(2250));
        IdleStateTable t = test::skxLike();
        t.states[3].name = "C6";
        t.states[2].name = "C1E";
        QVERIFY(applyMeasuredWakeDelays(t, *m, "w.csv").ok());
        QCOMPARE(t[3].wakeDelayNs, Ns(5167));
        QCOMPARE(t[2].wakeDelayNs, Ns(2250));
        QCOMPARE(t[1].wakeDelayNs, NO_WAKE_DELAY);
        QCOMPARE(t[3].exitLatencyNs, Ns(133000)); // the governors' number is untouched
        QVERIFY(QString::fromStdString(t.wakeDelayNote).contains(u"w.csv"_qs));
    }

    void wultCsvErrors_data()
    {
        QTest::addColumn<QString>("csv");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("field");
        QTest::newRow("no latency column") << "SilentTime,ReqCState\n1,C6\n" << 1 << "WakeLatency";
        QTest::newRow("no state column") << "WakeLatency,SilentTime\n1,2\n" << 1 << "ReqCState";
        QTest::newRow("bad latency") << "WakeLatency,ReqCState\n4.0,C6\nfast,C6\n" << 3 << "WakeLatency";
        QTest::newRow("negative latency") << "WakeLatency,ReqCState\n-1,C6\n" << 2 << "WakeLatency";
        QTest::newRow("no state") << "WakeLatency,ReqCState\n4.0,\n" << 2 << "ReqCState";
        QTest::newRow("short row") << "WakeLatency,SilentTime,ReqCState\n4.0,3\n" << 2 << "";
        QTest::newRow("no rows") << "WakeLatency,ReqCState\n" << 1 << "";
    }

    void wultCsvErrors()
    {
        QFETCH(QString, csv);
        QFETCH(int, line);
        QFETCH(QString, field);
        Result<std::vector<MeasuredWakeDelay>> m = parseWultCsv(csv.toStdString(), "w.csv");
        QVERIFY(!m.ok());
        QCOMPARE(QString::fromStdString(m.error().file), u"w.csv"_qs);
        QCOMPARE(m.error().line, std::int64_t(line));
        QCOMPARE(QString::fromStdString(m.error().field), field);
    }

    void wultStateTheTableLacks()
    {
        Result<std::vector<MeasuredWakeDelay>> m = parseWultCsv("WakeLatency,ReqCState\n4.0,C7\n", "w.csv");
        QVERIFY(m.ok());
        IdleStateTable t = test::skxLike();
        const IdleStateTable before = t;
        Status s = applyMeasuredWakeDelays(t, *m, "w.csv");
        QVERIFY(!s.ok());
        QCOMPARE(QString::fromStdString(s.error().field), u"ReqCState"_qs);
        QVERIFY(QString::fromStdString(s.error().message).contains(u"C7"_qs));
        QVERIFY(t == before);
    }
};

QTEST_GUILESS_MAIN(TestWakeDelay)
#include "tst_wake_delay.moc"
