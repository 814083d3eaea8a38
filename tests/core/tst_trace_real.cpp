// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The importers on the real traces of shared/data/traces (SOURCES.md). Every
 * expected number was derived independently of idlescope, with awk over the
 * text (mawk 1.3.4, Debian 12), by these three programs; each case names the
 * one it uses and the file it ran on (zcat first for .gz files).
 *
 * ENTRIES (complete entries per CPU and state, and their summed residency in ns;
 * an enter while open replaces the open one, an exit with none open is ignored):
 *   awk '/ cpu_idle: / { match($0,/state=[0-9]+/); s=substr($0,RSTART+6,RLENGTH-6);
 *     match($0,/cpu_id=[0-9]+/); c=substr($0,RSTART+7,RLENGTH-7); match($0,/[0-9]+\.[0-9]+: /);
 *     split(substr($0,RSTART,RLENGTH-2),a,"[.]"); t=a[1]*1e9+a[2]*1000;
 *     if (s=="4294967295") { if (c in o) { n[c" "o[c]]++; r[c]+=t-e[c]; delete o[c] } }
 *     else { o[c]=s; e[c]=t } }
 *     END { for (k in n) print "n", k, n[k]; for (c in r) printf "res %s %.0f\n", c, r[c] }'
 *
 * CAUSES (CPU 0 of the 2-vCPU VM: the first hrtimer_expire_entry / irq_handler_entry
 * on [000], or ipi_send_cpu cpu=0 from [001], between an enter and its exit; "none" if
 * neither):
 *   awk '/ cpu_idle: / && /cpu_id=0/ { if (/state=4294967295/) { if (open) c[cause==""?"none":cause]++;
 *     open=0 } else { open=1; cause="" } next }
 *     open && cause=="" && /\[000\]/ && / hrtimer_expire_entry: / { cause=(/tick_nohz_handler/?"tick":"hrtimer") }
 *     open && cause=="" && /\[000\]/ && / irq_handler_entry: / { cause="irq" }
 *     open && cause=="" && /\[001\]/ && / ipi_send_cpu: +cpu=0 / { cause="ipi" }
 *     END { for (k in c) print k, c[k] }'
 *
 * SPANS (complete spans per CPU: a switch away from pid 0 right after a switch to it,
 * in the kernel's "prev_pid=0 ... next_pid=0" or trace-cmd's "comm:0 [prio]" layouts):
 *   awk '/ sched_switch: / { match($0,/\[0*[0-9]+\]/); c=substr($0,RSTART+1,RLENGTH-2)+0;
 *     split($0, h, " ==> "); from=(h[1] ~ /prev_pid=0 / || h[1] ~ /:0 \[[0-9]+\] [A-Z+]+$/);
 *     to=(h[2] ~ /next_pid=0 / || h[2] ~ /:0 \[[0-9]+\]$/);
 *     if (from && !to && last[c]=="to") n[c]++; if (to) last[c]="to"; else if (from) last[c]="from" }
 *     END { for (c in n) print c, n[c] }'
 *
 * ROWS (replay-stream rows of CPU 0 of the VM: per complete span, one row plus one for each
 * entry but the span's last; trace_stream.h: the VM has no cpuidle driver, so a tick that
 * still fires in idle was the next event the kernel knew, a timer, and ends its row too):
 *   awk '/ sched_switch: / && /\[000\]/ { split($0, h, " ==> "); from=(h[1] ~ /prev_pid=0 / ||
 *     h[1] ~ /:0 \[[0-9]+\] [A-Z+]+$/); to=(h[2] ~ /next_pid=0 / || h[2] ~ /:0 \[[0-9]+\]$/);
 *     if (from && !to) { if (inspan) rows += 1 + cut; inspan=0 } if (to) { inspan=1; cut=0; pend=0 } next }
 *     / cpu_idle: / && /cpu_id=0/ { if (/state=4294967295/) { if (open) pend=1; open=0 }
 *     else { if (pend) cut++; pend=0; open=1 } next } END { print rows }'
 *
 * JUNO ROWS (per CPU: no irq or timer events, so every entry is a row: per complete span,
 * its complete entries, or 1 for a span without one):
 *   awk '/ sched_switch: / { match($0,/\[0*[0-9]+\]/); c=substr($0,RSTART+1,RLENGTH-2)+0; split($0, h, " ==> ");
 *     from=(...as SPANS...); to=(...); if (from && !to && last[c]=="to") n[c] += (k[c] > 0 ? k[c] : 1);
 *     if (to) { last[c]="to"; k[c]=0 } else if (from) last[c]="from"; next }
 *     / cpu_idle: / { match($0,/cpu_id=[0-9]+/); c=substr($0,RSTART+7)+0; if (/4294967295/) { if (o[c]) k[c]++;
 *     o[c]=0 } else o[c]=1 } END { for (c in n) print c, n[c] }'
 *
 * idlescope's "unknown" and "remote_wakeup" together are awk's "none".
 */
#include "core/trace/trace_import.h"
#include "core/trace/trace_stats.h"
#include "core/trace/trace_stream.h"

#include "tests/test_paths.h"
#include "tests/test_require.h"

#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

std::string tracePath(const char *name)
{
    return (test::tracesDir() + QStringLiteral("/") + QString::fromUtf8(name)).toStdString();
}

Result<TraceImport> load(const char *name)
{
    return importTrace(tracePath(name));
}

std::int64_t usage(const CpuStats &s, int state)
{
    return static_cast<size_t>(state) < s.states.size() ? s.states[static_cast<size_t>(state)].usage : 0;
}

const CpuStats &cpu(const TraceStats &s, int c)
{
    for (const CpuStats &x : s.cpus)
        if (x.cpu == c)
            return x;
    qFatal("no CPU %d", c);
}

} // namespace

class TestTraceReal : public QObject {
    Q_OBJECT

private slots:
    void vmTraces_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("entries");   // ENTRIES: "n 0 1 <count>" (CPU 0, state 1)
        QTest::addColumn<qint64>("residency"); // ENTRIES: "res 0 <ns>"
        QTest::addColumn<qint64>("tick");      // CAUSES
        QTest::addColumn<qint64>("hrtimer");
        QTest::addColumn<qint64>("irq");
        QTest::addColumn<qint64>("ipi");
        QTest::addColumn<qint64>("none");
        QTest::addColumn<qint64>("spans"); // SPANS: "0 <count>"
        QTest::addColumn<qint64>("rows");  // ROWS
        // zcat vm-amd-2cpu-idle.ftrace.txt.gz | ENTRIES -> n 0 1 55; res 0 2999945000
        // ... | CAUSES -> hrtimer 8; ipi 4; irq 1; none 5; tick 37    ... | SPANS -> 0 20; ROWS -> 45
        QTest::newRow("idle") << "vm-amd-2cpu-idle.ftrace.txt.gz" << qint64(55) << qint64(2999945000) << qint64(37)
                              << qint64(8) << qint64(1) << qint64(4) << qint64(5) << qint64(20) << qint64(45);
        // zcat vm-amd-2cpu-pipe100us.ftrace.txt.gz | ENTRIES -> n 0 1 21574; res 0 2825761000
        // ... | CAUSES -> hrtimer 40; ipi 20708; irq 2; none 180; tick 644    ... | SPANS -> 0 20672; ROWS -> 21570
        QTest::newRow("pipe100us") << "vm-amd-2cpu-pipe100us.ftrace.txt.gz" << qint64(21574) << qint64(2825761000)
                                   << qint64(644) << qint64(40) << qint64(2) << qint64(20708) << qint64(180)
                                   << qint64(20672) << qint64(21570);
        // zcat vm-amd-2cpu-timer500us.ftrace.txt.gz | ENTRIES -> n 0 1 5257; res 0 2857588000
        // ... | CAUSES -> hrtimer 4554; ipi 24; irq 2; none 40; tick 637    ... | SPANS -> 0 4697; ROWS -> 5248
        QTest::newRow("timer500us") << "vm-amd-2cpu-timer500us.ftrace.txt.gz" << qint64(5257) << qint64(2857588000)
                                    << qint64(637) << qint64(4554) << qint64(2) << qint64(24) << qint64(40)
                                    << qint64(4697) << qint64(5248);
        // zcat vm-amd-2cpu-io-direct.ftrace.txt.gz | ENTRIES -> n 0 1 887; res 0 2236091000
        // ... | CAUSES -> hrtimer 35; ipi 274; irq 2; none 135; tick 441    ... | SPANS -> 0 391; ROWS -> 880
        QTest::newRow("io-direct") << "vm-amd-2cpu-io-direct.ftrace.txt.gz" << qint64(887) << qint64(2236091000)
                                   << qint64(441) << qint64(35) << qint64(2) << qint64(274) << qint64(135)
                                   << qint64(391) << qint64(880);
        // zcat vm-amd-2cpu-pipe200us.report.txt.gz | ENTRIES -> n 0 1 7115; res 0 539553000
        // ... | CAUSES -> hrtimer 6; ipi 6873; none 162; tick 74    ... | SPANS -> 0 6892; ROWS -> 7115
        QTest::newRow("pipe200us-report")
            << "vm-amd-2cpu-pipe200us.report.txt.gz" << qint64(7115) << qint64(539553000) << qint64(74) << qint64(6)
            << qint64(0) << qint64(6873) << qint64(162) << qint64(6892) << qint64(7115);
    }

    void vmTraces()
    {
        QFETCH(QString, file);
        QFETCH(qint64, entries);
        QFETCH(qint64, residency);
        IDLESCOPE_REQUIRE_OK(t, load(file.toUtf8().constData()));
        QCOMPARE(t.cpus.size(), size_t(2));
        QVERIFY(t.hasTimerEvents);
        QVERIFY(t.hasSwitchEvents);
        QVERIFY(!t.hasMissEvents);        // no cpuidle driver: no cpu_idle_miss (SOURCES.md)
        QCOMPARE(t.clockOffsetNs, Ns(0)); // recorded with trace_clock=mono
        QCOMPARE(t.warningCount(WarningKind::ClockNotMono), std::int64_t(0));
        const TraceStats s = computeStats(t, nullptr);
        const CpuStats &c0 = cpu(s, 0);
        QCOMPARE(qint64(c0.entries), entries);
        QCOMPARE(qint64(usage(c0, 1)), entries); // the default idle routine reports state=1 only
        QCOMPARE(usage(c0, 0), std::int64_t(0));
        QCOMPARE(qint64(c0.idleNs), residency);
        QCOMPARE(cpu(s, 1).entries, std::int64_t(0)); // no cpu_idle events on CPU 1 in these recordings
        QCOMPARE(t.warningCount(WarningKind::NoIdleEvents), std::int64_t(1));

        QTEST(qint64(c0.causes[static_cast<size_t>(WakeCause::Tick)]), "tick");
        QTEST(qint64(c0.causes[static_cast<size_t>(WakeCause::HrTimer)]), "hrtimer");
        QTEST(qint64(c0.causes[static_cast<size_t>(WakeCause::Irq)]), "irq");
        QTEST(qint64(c0.causes[static_cast<size_t>(WakeCause::Ipi)]), "ipi");
        QTEST(qint64(c0.causes[static_cast<size_t>(WakeCause::Unknown)]
                     + c0.causes[static_cast<size_t>(WakeCause::RemoteWakeup)]),
              "none");

        const StreamExport ex = toReplayStream(t.cpus[0]);
        QTEST(static_cast<qint64>(ex.spans), "spans");
        QTEST(static_cast<qint64>(ex.stream.size()), "rows");
        QCOMPARE(toReplayStream(t.cpus[1]).stream.size(), size_t(0)); // no switch away from idle on CPU 1
        for (const IdleSpan &sp : ex.stream) {
            QVERIFY(sp.gapNs >= 0);
            QVERIFY(sp.wakeNs <= sp.timerNs);
        }
    }

    void ioDirectIrqNames()
    {
        // zcat vm-amd-2cpu-io-direct.ftrace.txt.gz | awk '/ cpu_idle: / && /cpu_id=0/ { if (/state=4294967295/) {
        //   if (open && cause != "") c[cause]++; open=0 } else { open=1; cause="" } next }
        //   open && cause=="" && /\[000\]/ && / irq_handler_entry: / { match($0, /name=.*/); cause=substr($0, RSTART+5) }
        //   open && cause=="" && /\[000\]/ && / hrtimer_expire_entry: / { cause="x" }
        //   open && cause=="" && /\[001\]/ && / ipi_send_cpu: +cpu=0 / { cause="x" }
        //   END { for (k in c) if (k != "x") print k, c[k] }'
        // -> virtio0-reporting_vq 1; virtio3-rx 1
        IDLESCOPE_REQUIRE_OK(io, load("vm-amd-2cpu-io-direct.ftrace.txt.gz"));
        const TraceStats s = computeStats(io, nullptr);
        QCOMPARE(s.total.irqNames.size(), size_t(2));
        QCOMPARE(s.total.irqNames.at("virtio0-reporting_vq"), std::int64_t(1));
        QCOMPARE(s.total.irqNames.at("virtio3-rx"), std::int64_t(1));
    }

    void timer500usIsTimerDriven()
    {
        // The 500 us sleeper's hrtimer_wakeup ends most spans: the exported stream says so
        // (timer == wake). zcat vm-amd-2cpu-timer500us.ftrace.txt.gz | grep -c 'function=hrtimer_wakeup now='
        // -> 4828 expiries in all (both CPUs, in idle or not); CAUSES gives 4554 entry ends by any non-tick hrtimer.
        IDLESCOPE_REQUIRE_OK(t, load("vm-amd-2cpu-timer500us.ftrace.txt.gz"));
        const StreamExport ex = toReplayStream(t.cpus[0]);
        std::int64_t timerEnded = 0;
        for (const IdleSpan &sp : ex.stream)
            timerEnded += sp.timerWake() ? 1 : 0;
        // 4543 rows ended by their hrtimer's expiry, and 635 by the tick, which without a
        // cpuidle driver is a timer the kernel knew (CAUSES: 637 entries ended by the tick).
        QCOMPARE(ex.timerWakes, std::int64_t(5178));
        QVERIFY(timerEnded >= ex.timerWakes);
        QVERIFY(ex.timerWakes * 10 > static_cast<std::int64_t>(ex.stream.size()) * 9); // > 90 % timer wakeups
    }

    void junoReport()
    {
        // lisa-juno-sched_load-6cpu.report.txt | ENTRIES -> n 0 0 68; n 0 1 15; n 0 2 25; n 1 0 23; n 2 0 11;
        // n 2 1 11; n 2 2 5; n 3 0 14; n 3 1 18; n 3 2 7; n 4 0 2; n 4 1 6; n 4 2 12; n 5 0 3; n 5 1 10; n 5 2 1;
        // res 0 403752000; res 1 94544000; res 2 367681000; res 3 404528000; res 4 114182000; res 5 163749000
        IDLESCOPE_REQUIRE_OK(t, load("lisa-juno-sched_load-6cpu.report.txt"));
        QCOMPARE(t.format, TraceFormat::TraceCmdReport);
        QCOMPARE(t.declaredCpus, 6);
        const TraceStats s = computeStats(t, nullptr);
        const std::int64_t expected[6][3] = {{68, 15, 25}, {23, 0, 0}, {11, 11, 5},
                                             {14, 18, 7},  {2, 6, 12}, {3, 10, 1}};
        const Ns res[6] = {403752000, 94544000, 367681000, 404528000, 114182000, 163749000};
        for (int c = 0; c < 6; ++c) {
            for (int st = 0; st < 3; ++st)
                QCOMPARE(usage(cpu(s, c), st), expected[c][st]);
            QCOMPARE(cpu(s, c).idleNs, res[c]);
        }
        // SOURCES.md: state0 x122, state1 x62, state2 x53 enters; the complete ones are 121/60/50.
        QCOMPARE(usage(s.total, 0), std::int64_t(121));
        QCOMPARE(usage(s.total, 1), std::int64_t(60));
        QCOMPARE(usage(s.total, 2), std::int64_t(50));
        QCOMPARE(s.total.causes[static_cast<size_t>(WakeCause::Unknown)], std::int64_t(231)); // no irq/timer events
        // SPANS -> 0 31; 1 11; 2 10; 3 18; 4 16; 5 3. JUNO ROWS -> 0 92; 1 12; 2 18; 3 37; 4 20; 5 14
        const std::int64_t spans[6] = {31, 11, 10, 18, 16, 3};
        const size_t rows[6] = {92, 12, 18, 37, 20, 14};
        for (int c = 0; c < 6; ++c) {
            const StreamExport ex = toReplayStream(t.cpus[static_cast<size_t>(c)]);
            QCOMPARE(ex.spans, spans[c]);
            QCOMPARE(ex.stream.size(), rows[c]);
            QCOMPARE(ex.timerFallback, static_cast<std::int64_t>(rows[c])); // no hrtimer events: all fall back
        }
        // The trace starts with an exit on several CPUs: grep -c is not needed, SOURCES.md says
        // 237 exits for 237 enters; the first event of CPUs 0..5 that is a cpu_idle:
        // awk '/ cpu_idle: /{ match($0,/cpu_id=[0-9]+/); c=substr($0,RSTART+7); if (!(c in f)) { f[c]=1; if (/4294967295/) n++ } } END {print n}'
        // -> 6
        QCOMPARE(t.warningCount(WarningKind::ExitWithoutEnter), std::int64_t(6));
    }

    void trappySmall()
    {
        // trappy-trace_idle-6cpu.report.txt | ENTRIES -> n 0 2 3; n 1 0 1; n 3 0 1;
        // res 0 1614000; res 1 1618000; res 3 1611000      | SPANS -> 0 3
        IDLESCOPE_REQUIRE_OK(t, load("trappy-trace_idle-6cpu.report.txt"));
        const TraceStats s = computeStats(t, nullptr);
        QCOMPARE(usage(cpu(s, 0), 2), std::int64_t(3));
        QCOMPARE(usage(cpu(s, 1), 0), std::int64_t(1));
        QCOMPARE(usage(cpu(s, 3), 0), std::int64_t(1));
        QCOMPARE(cpu(s, 0).idleNs, Ns(1614000));
        QCOMPARE(cpu(s, 1).idleNs, Ns(1618000));
        QCOMPARE(cpu(s, 3).idleNs, Ns(1611000));
        QCOMPARE(s.total.entries, std::int64_t(5));
        QCOMPARE(toReplayStream(t.cpus[0]).stream.size(), size_t(3));
        // CPU 4 has no events at all (grep -c '\[004\]' -> 0): reported, not dropped.
        QCOMPARE(t.cpus.size(), size_t(6));
        QCOMPARE(t.cpus[4].events, std::int64_t(0));
        QCOMPARE(t.warningCount(WarningKind::EmptyCpu), std::int64_t(1));
    }

    void trappyUnsorted()
    {
        // trappy-trace_idle_unsorted-8cpu.txt | ENTRIES -> n 6 0 1; res 6 187000
        // Timestamps going back per CPU:
        //   awk '/\[00[0-9]\]/ { match($0,/\[00[0-9]\]/); c=substr($0,RSTART,5); match($0,/[0-9]+\.[0-9]+:/);
        //   t=substr($0,RSTART,RLENGTH-1)+0; if (c in l && t < l[c]) n++; l[c]=t } END { print n }'  -> 1
        // The last line is cut after prev_pid=14840 (no next_pid): one malformed line.
        IDLESCOPE_REQUIRE_OK(t, load("trappy-trace_idle_unsorted-8cpu.txt"));
        QCOMPARE(t.format, TraceFormat::TraceCmdReport);
        QCOMPARE(t.declaredCpus, 8);
        QCOMPARE(t.warningCount(WarningKind::OutOfOrder), std::int64_t(1));
        QCOMPARE(t.warningCount(WarningKind::Malformed), std::int64_t(1));
        const ImportWarning *bad = nullptr;
        for (const ImportWarning &w : t.warnings)
            if (w.kind == WarningKind::Malformed)
                bad = &w;
        QVERIFY(bad);
        QCOMPARE(bad->line, std::int64_t(17)); // wc -l -> 17: the last line
        QCOMPARE(bad->field, std::string("next_pid"));
        const TraceStats s = computeStats(t, nullptr);
        QCOMPARE(usage(cpu(s, 6), 0), std::int64_t(1));
        QCOMPARE(cpu(s, 6).idleNs, Ns(187000));
        QCOMPARE(t.warningCount(WarningKind::EmptyCpu), std::int64_t(4)); // CPUs 1, 3, 4, 7
    }
};

QTEST_GUILESS_MAIN(TestTraceReal)
#include "tst_trace_real.moc"
