// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * TextLineParser on one line of each layout it reads. The lines are copied
 * from the real traces in shared/data/traces (file named per case) or, for
 * layouts that no fixture has (TGID column, 4 flag characters, perf script,
 * trace_pipe without flags), written in the kernel's / perf's print format.
 */
#include "core/trace/text_fields.h"
#include "core/trace/text_line_parser.h"

#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

class TestTraceTextParser : public QObject {
    Q_OBJECT

    NameTable m_names;

    LineKind parse(const char *line, TraceEvent &ev, TextLineParser *p = nullptr)
    {
        TextLineParser local(m_names);
        return (p ? *p : local).parse(line, ev);
    }

    /// @p line is an event (left in @p ev) with @p arg and @p target: a switch's pids, a wakeup's pid and CPU.
    void expectEvent(const char *line, TraceEvent &ev, std::int64_t arg, std::int64_t target)
    {
        QCOMPARE(parse(line, ev), LineKind::Event);
        QCOMPARE(ev.arg, arg);
        QCOMPARE(ev.target, target);
    }

private slots:
    void cpuIdleFtrace5Flags()
    {
        // vm-amd-2cpu-idle.ftrace.txt.gz line 25
        TraceEvent ev;
        QCOMPARE(parse("          <idle>-0       [000] d..1.   969.797773: cpu_idle: state=1 cpu_id=0", ev),
                 LineKind::Event);
        QCOMPARE(ev.kind, EventKind::CpuIdle);
        QCOMPARE(ev.ts, Ns(969797773000));
        QCOMPARE(ev.cpu, 0);
        QCOMPARE(ev.arg, std::int64_t(1));
        QCOMPARE(ev.target, std::int64_t(0));
        QCOMPARE(parse("          <idle>-0       [000] dN.1.   969.800096: cpu_idle: state=4294967295 cpu_id=0", ev),
                 LineKind::Event);
        QCOMPARE(ev.arg, std::int64_t(-1));
    }

    void tgidColumnAndFourFlags()
    {
        TraceEvent ev;
        QCOMPARE(parse("   kworker/u8:1-33      (     33) [001] d..3 1234.000001: cpu_idle: state=2 cpu_id=1", ev),
                 LineKind::Event);
        QCOMPARE(ev.cpu, 1);
        QCOMPARE(ev.ts, Ns(1234000001000));
        QCOMPARE(ev.arg, std::int64_t(2));
        // TGID unknown ("-------") and a comm with blanks and brackets.
        QCOMPARE(parse("  rs:main Q:Reg-238     (-------) [003] ....  5.5: cpu_idle: state=0 cpu_id=3", ev),
                 LineKind::Event);
        QCOMPARE(ev.cpu, 3);
        QCOMPARE(ev.ts, Ns(5500000000));
    }

    void tracePipeWithoutFlags()
    {
        TraceEvent ev;
        QCOMPARE(parse("<idle>-0 [002] 100.000000001: cpu_idle: state=3 cpu_id=2", ev), LineKind::Event);
        QCOMPARE(ev.ts, Ns(100000000001));
        QCOMPARE(ev.cpu, 2);
    }

    void reportPaddedNames()
    {
        // lisa-juno-sched_load-6cpu.report.txt line 2
        TraceEvent ev;
        TextLineParser p(m_names);
        QCOMPARE(p.parse("cpus=6", ev), LineKind::Header);
        QCOMPARE(p.declaredCpus(), 6);
        QCOMPARE(p.formatHint(), TraceFormat::TraceCmdReport);
        QCOMPARE(p.parse("          <idle>-0     [002]  2084.021443: cpu_idle:             state=4294967295 cpu_id=2",
                         ev),
                 LineKind::Event);
        QCOMPARE(ev.ts, Ns(2084021443000));
        QCOMPARE(ev.arg, std::int64_t(-1));
        QCOMPARE(ev.target, std::int64_t(2));
    }

    void reportPluginSwitchAndWakeup()
    {
        // vm-amd-2cpu-pipe200us.report.txt.gz lines 2 and 3
        TraceEvent ev;
        expectEvent(
            "            bash-30899 [000]  4250.273676: sched_switch:         bash:30899 [120] S ==> bash:30901 [120]",
            ev, 30899, 30901);
        QCOMPARE(ev.kind, EventKind::SchedSwitch);
        expectEvent("         python3-30901 [000]  4250.274726: sched_wakeup:         migration/0:18 [0] CPU:000", ev,
                    18, 0);
        QCOMPARE(ev.kind, EventKind::SchedWakeup);
        // trappy-trace_idle-6cpu.report.txt: a comm with a blank and a colon.
        expectEvent(
            "     in:imuxsock-236   [003] 162534.217767: sched_switch:         in:imuxsock:236 [120] S ==> rs:main Q:Reg:238 [120]",
            ev, 236, 238);
    }

    void kernelSwitchAndWakeup()
    {
        // vm-amd-2cpu-idle.ftrace.txt.gz lines 22 and 21
        TraceEvent ev;
        expectEvent(
            "            bash-6807    [000] d..2.   969.797768: sched_switch: prev_comm=bash prev_pid=6807 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
            ev, 6807, 0);
        expectEvent(
            "          <idle>-0       [001] dNs5.   969.796283: sched_wakeup: comm=kworker/1:1 pid=41 prio=120 target_cpu=001",
            ev, 41, 1);
        // trappy-trace_idle_unsorted-8cpu.txt line 3: tab-indented, numeric prev_state, no arrow.
        expectEvent(
            "\t   <...>-15430 [006]  7115.449594: sched_switch:          prev_comm=trace-cmd prev_pid=15430 prev_prio=120 prev_state=64 next_comm=swapper/6 next_pid=0 next_prio=120",
            ev, 15430, 0);
        QCOMPARE(ev.cpu, 6);
    }

    void hrtimers()
    {
        TraceEvent ev;
        // vm-amd-2cpu-idle.ftrace.txt.gz line 14 (hashed pointer, bare function).
        QCOMPARE(
            parse(
                "            bash-6807    [000] d.h1.   969.796049: hrtimer_start: hrtimer=000000006e818709 function=tick_nohz_handler expires=969800000000 softexpires=969800000000 mode=ABS was_armed=0",
                ev),
            LineKind::Event);
        QCOMPARE(ev.kind, EventKind::HrtimerStart);
        QCOMPARE(ev.ptr, std::uint64_t(0x6e818709));
        QCOMPARE(ev.timeNs, Ns(969800000000));
        QCOMPARE(m_names.name(ev.nameId), std::string("tick_nohz_handler"));
        // vm-amd-2cpu-pipe200us.report.txt.gz: raw pointer, "now" before "function", "/0x0" suffix.
        QCOMPARE(
            parse(
                "         python3-30901 [001]  4250.276474: hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 now=4250276473344 function=tick_nohz_handler/0x0",
                ev),
            LineKind::Event);
        QCOMPARE(ev.kind, EventKind::HrtimerExpire);
        QCOMPARE(ev.ptr, std::uint64_t(0xffff888627d1c6f8ULL));
        QCOMPARE(ev.timeNs, Ns(4250276473344));
        QCOMPARE(m_names.name(ev.nameId), std::string("tick_nohz_handler"));
        QVERIFY(isTickFunction(m_names.name(ev.nameId)));
        QVERIFY(!isTickFunction("hrtimer_wakeup"));
        QCOMPARE(parse("          <idle>-0       [000] d..2.   969.828130: hrtimer_cancel: hrtimer=000000006e818709",
                       ev),
                 LineKind::Event);
        QCOMPARE(ev.kind, EventKind::HrtimerCancel);
    }

    void irqIpiTick()
    {
        TraceEvent ev;
        // vm-amd-2cpu-pipe200us.report.txt.gz
        QCOMPARE(parse("          <idle>-0     [001]  4250.275120: irq_handler_entry:    irq=36 name=virtio1-req.0",
                       ev),
                 LineKind::Event);
        QCOMPARE(ev.arg, std::int64_t(36));
        QCOMPARE(m_names.name(ev.nameId), std::string("virtio1-req.0"));
        QCOMPARE(
            parse(
                "     migration/0-18    [000]  4250.274738: ipi_send_cpu:         cpu=1 callsite=wakeup_preempt+0x55 callback=0x0",
                ev),
            LineKind::Event);
        QCOMPARE(ev.kind, EventKind::IpiSend);
        QVERIFY(ev.mask.test(1));
        QVERIFY(!ev.mask.test(0));
        QCOMPARE(
            parse(
                "  x-1 [000] d..1. 1.000000: ipi_send_cpumask: cpumask=0-2,5 callsite=smp_call_function_many_cond+0x1 callback=do_flush",
                ev),
            LineKind::Event);
        QVERIFY(ev.mask.test(0) && ev.mask.test(2) && ev.mask.test(5) && !ev.mask.test(3));
        QCOMPARE(
            parse("  x-1 [000] d..1. 1.000000: ipi_raise: target_mask=00000000,00000006 (Function call interrupts)",
                  ev),
            LineKind::Event);
        QVERIFY(ev.mask.test(1) && ev.mask.test(2) && !ev.mask.test(0));
        QCOMPARE(parse("  <idle>-0 [003] d.h1 1.000000: ipi_entry: (Rescheduling interrupts)", ev), LineKind::Event);
        QCOMPARE(ev.kind, EventKind::IpiEntry);
        // vm-amd-2cpu-idle.ftrace.txt.gz
        QCOMPARE(parse("          <idle>-0       [000] d..1.   969.828126: tick_stop: success=1 dependency=NONE", ev),
                 LineKind::Event);
        QCOMPARE(ev.kind, EventKind::TickStop);
        QVERIFY(ev.flag);
        QCOMPARE(parse("  <idle>-0 [002] d..1. 7.000001: cpu_idle_miss: cpu_id=2 state=1 type=below", ev),
                 LineKind::Event);
        QCOMPARE(ev.kind, EventKind::CpuIdleMiss);
        QCOMPARE(ev.arg, std::int64_t(1));
        QVERIFY(ev.flag);
    }

    void perfScript()
    {
        TraceEvent ev;
        TextLineParser p(m_names);
        QCOMPARE(p.parse("         swapper     0 [001]  6184.327135:       power:cpu_idle: state=1 cpu_id=1", ev),
                 LineKind::Event);
        QCOMPARE(ev.ts, Ns(6184327135000));
        QCOMPARE(ev.cpu, 1);
        QCOMPARE(p.formatHint(), TraceFormat::PerfScript);
        // perf script --ns
        QCOMPARE(p.parse("         swapper     0 [001]  6184.327135123: power:cpu_idle: state=4294967295 cpu_id=1", ev),
                 LineKind::Event);
        QCOMPARE(ev.ts, Ns(6184327135123));
        QCOMPARE(ev.arg, std::int64_t(-1));
    }

    void headersSkippedAndLost()
    {
        TraceEvent ev;
        TextLineParser p(m_names);
        QCOMPARE(p.parse("# entries-in-buffer/entries-written: 1241/1241   #P:2", ev), LineKind::Header);
        QCOMPARE(p.declaredCpus(), 2);
        QCOMPARE(p.parse("# tracer: nop", ev), LineKind::Header);
        QCOMPARE(p.formatHint(), TraceFormat::FtraceText);
        QCOMPARE(p.parse("version = 6", ev), LineKind::Header);
        QCOMPARE(p.parse("CPU 3 is empty", ev), LineKind::Header);
        QCOMPARE(p.parse("CPU:1 [LOST 42 EVENTS]", ev), LineKind::Lost);
        QCOMPARE(p.lostCpu(), 1);
        QCOMPARE(p.lostCount(), std::int64_t(42));
        QCOMPARE(p.parse("", ev), LineKind::Blank);
        // lisa-juno-sched_load-6cpu.report.txt line 3
        QCOMPARE(
            p.parse(
                "          <idle>-0     [002]  2084.021502: sched_load_se:        cpu=2 path=(null) comm=kworker/2:1 pid=2923 load=0 util=0",
                ev),
            LineKind::Skipped);
        QCOMPARE(p.skippedName(), std::string_view("sched_load_se"));
        QCOMPARE(p.parse("hello world", ev), LineKind::NotEvent);
    }

    void malformedNamesTheField()
    {
        TraceEvent ev;
        TextLineParser p(m_names);
        QCOMPARE(p.parse("  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=x cpu_id=0", ev), LineKind::Malformed);
        QCOMPARE(p.issueField(), std::string_view("state"));
        QCOMPARE(p.parse("  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=1", ev), LineKind::Malformed);
        QCOMPARE(p.issueField(), std::string_view("cpu_id"));
        QCOMPARE(p.parse("  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=99 cpu_id=0", ev), LineKind::Malformed);
        QCOMPARE(p.issueField(), std::string_view("state"));
        QCOMPARE(p.parse("  x-1 [000] 1.000000: hrtimer_start: hrtimer=zz function=f expires=1", ev),
                 LineKind::Malformed);
        QCOMPARE(p.issueField(), std::string_view("hrtimer"));
        QCOMPARE(p.parse("  x-1 [000] 1.000000: sched_switch: garbage", ev), LineKind::Malformed);
        QCOMPARE(p.issueField(), std::string_view("prev_pid"));
        QCOMPARE(p.parse("  x-1 [000] 1.000000: cpu_idle_miss: cpu_id=0 state=1 type=sideways", ev),
                 LineKind::Malformed);
        QCOMPARE(p.issueField(), std::string_view("type"));
        // A timestamp with more than 10 second digits is not a timestamp (no overflow).
        QCOMPARE(p.parse("  x-1 [000] 99999999999.000000: cpu_idle: state=1 cpu_id=0", ev), LineKind::NotEvent);
    }

    void fieldHelpers()
    {
        using namespace text;
        QCOMPARE(parseTimestamp("1.5").value(), Ns(1500000000));
        QVERIFY(!parseTimestamp("1.1234567891"));
        QVERIFY(!parseTimestamp("1.x"));
        QCOMPARE(parseTimestamp("42").value(), Ns(42000000000));
        // fuzz_trace_text: 9692815584 s * 1e9 overflowed int64 (UBSan); now not a timestamp.
        QVERIFY(!parseTimestamp("9692815584"));
        QVERIFY(!parseTimestamp("9223372037.000000"));
        QCOMPARE(parseTimestamp("9223372035.999999999").value(), Ns(9223372035999999999));
        QVERIFY(!parseHex("0x11111111111111111"));       // 17 digits
        QVERIFY(!parseSignedDec("9999999999999999999")); // > INT64_MAX
        QCOMPARE(valueOf("prev_comm=a next_pid=3 pid=4", "pid=").value(), std::string_view("4"));
        CpuMask m;
        QVERIFY(!parseCpuList("3-1", m));
        QVERIFY(!parseCpuList("0-300", m));
        QVERIFY(parseHexMask("1,00000000", m));
        QVERIFY(m.test(32));
    }
};

QTEST_GUILESS_MAIN(TestTraceTextParser)
#include "tst_trace_text_parser.moc"
