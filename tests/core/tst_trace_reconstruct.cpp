// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Idle reconstruction on small hand-written traces (ftrace text layout), each
 * built to isolate one rule of idle_reconstructor.h: spans and entries, the
 * wakeup cause (tick / hrtimer / irq / IPI / remote wakeup, before or after the
 * exit), sleep lengths from armed hrtimers, the clock-offset correction, and
 * the edge cases (exit first, truncated, out of order, no sched_switch, CPUs
 * without events, cpu_idle_miss). Expected values are worked out by hand in
 * the comments.
 */
#include "core/replay/reference_replay.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_stream.h"

#include "tests/ftrace_lines.h"

#include <QByteArray>
#include <QTest>

#include <algorithm>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

using test::ftraceLine;
using test::idleEnter;
using test::idleExit;
using test::switchFromIdle;
using test::switchToIdle;

/// The times of a stream row and whether it ends the stay, compared as one value so that a
/// failure prints the whole row (the other columns are the same in every row made from a
/// trace: no latency limit, util 0, gap_from_wake).
struct Row {
    Ns gapNs = 0;
    Ns wakeNs = 0;
    Ns timerNs = 0;
    bool needResched = true;
    bool operator==(const Row &) const = default;
};

Row rowOf(const IdleSpan &s)
{
    return {s.gapNs, s.wakeNs, s.timerNs, s.needResched};
}

char *toString(const Row &r)
{
    const QByteArray text = "gap " + QByteArray::number(r.gapNs) + " ns, wake " + QByteArray::number(r.wakeNs)
                            + " ns, timer " + QByteArray::number(r.timerNs) + " ns, need_resched "
                            + (r.needResched ? "1" : "0");
    return qstrdup(text.constData());
}

TraceImport importOk(const std::string &text)
{
    Result<TraceImport> r = importTraceText(text, "t.txt");
    if (!r)
        qFatal("import failed: %s", r.error().toString().c_str());
    return std::move(*r);
}

} // namespace

class TestTraceReconstruct : public QObject {
    Q_OBJECT

private slots:
    void spanWithTwoEntries()
    {
        // CPU 0: busy until 1000 us, idle task 1000..1500, entries 1010..1200 (state 2), 1210..1490 (state 1).
        const std::string t = switchToIdle(0, 1000) + idleEnter(0, 1010, 2) + idleExit(0, 1200) + idleEnter(0, 1210, 1)
                              + idleExit(0, 1490) + switchFromIdle(0, 1500) + switchToIdle(0, 1600)
                              + idleEnter(0, 1601, 0) + idleExit(0, 1700) + switchFromIdle(0, 1705);
        const TraceImport r = importOk(t);
        QCOMPARE(r.format, TraceFormat::FtraceText);
        QCOMPARE(r.cpus.size(), size_t(1));
        const CpuTrace &c = r.cpus[0];
        QCOMPARE(c.entries.size(), size_t(3));
        QCOMPARE(c.entries[0].state, std::int16_t(2));
        QCOMPARE(c.entries[0].residencyNs(), Ns(190000));
        QCOMPARE(c.entries[1].span, 0);
        QCOMPARE(c.entries[2].span, 1);
        QCOMPARE(c.spans.size(), size_t(2));
        QCOMPARE(c.spans[0].startNs, Ns(1000000));
        QCOMPARE(c.spans[0].endNs, Ns(1500000));
        QCOMPARE(c.spans[0].wakeNs, Ns(1490000));
        QCOMPARE(c.spans[0].entryCount, 2);
        QCOMPARE(c.spans[1].prevEndNs, Ns(1500000));
        // Stream: no hrtimer events -> timer falls back to wake. No irq or timer events either,
        // so the first entry's cause is unknown: a row boundary (span 0 -> rows 0 and 1).
        const StreamExport ex = toReplayStream(c);
        QCOMPARE(ex.stream.size(), size_t(3));
        QCOMPARE(ex.spans, std::int64_t(2));
        // Row 0: gap 0, from the CPU's first event (1000 us); wake 1000 -> 1200 us, the first
        // entry's exit, and the timer as wake (the fallback); an in-idle wakeup.
        QCOMPARE(rowOf(ex.stream[0]), (Row{.gapNs = 0, .wakeNs = 200000, .timerNs = 200000, .needResched = false}));
        QCOMPARE(ex.stream[1].gapNs, Ns(10000));   // 1200 -> 1210, the handler
        QCOMPARE(ex.stream[1].wakeNs, Ns(280000)); // 1210 -> 1490
        QVERIFY(ex.stream[1].needResched);
        // 1500 -> 1600 as measured, counted from row 1's wakeup (the exit at 1490): the
        // 10 us tail of span 0 after its last exit is taken back, the rows being gap_from_wake.
        QCOMPARE(ex.stream[2].gapNs, Ns(110000));
        QVERIFY(ex.stream[2].gapFromWake);
        QCOMPARE(ex.stream[2].wakeNs, Ns(100000)); // 1600 -> 1700
        QCOMPARE(ex.timerFallback, std::int64_t(3));
        QCOMPARE(r.warningCount(WarningKind::OutOfOrder), std::int64_t(0));
    }

    void threeEntriesInOneSpanAreThreeRows()
    {
        // Span A (1000..2510 us) holds three entries, each ended by an in-idle wakeup:
        //  - 1010..1202 state 2, ended by irq 36 (handled 1200 us); the handler arms hrtimer b for 2000 us;
        //  - 1210..2001 state 2, ended by b (expires 2000 us);
        //  - 2005..2502 state 1, ended by CPU 1 waking a task here (the span's end).
        // hrtimer a (hrtimer_wakeup) is armed for 3000 us from before the span.
        // Span B (3100..3310 us): 3110..3201 ended by the tick, 3205..3300: one row (the tick is no boundary).
        const std::string hw = "function=hrtimer_wakeup";
        const std::string t =
            ftraceLine(0, 50, "hrtimer_start", "hrtimer=a " + hw + " expires=3000000 softexpires=3000000 mode=ABS")
            + switchToIdle(0, 1000) + idleEnter(0, 1010, 2)
            + ftraceLine(0, 1200, "irq_handler_entry", "irq=36 name=virtio1-req.0") + idleExit(0, 1202)
            + ftraceLine(0, 1203, "hrtimer_start", "hrtimer=b " + hw + " expires=2000000 softexpires=2000000 mode=ABS")
            + idleEnter(0, 1210, 2) + ftraceLine(0, 2000, "hrtimer_expire_entry", "hrtimer=b " + hw + " now=2000000")
            + idleExit(0, 2001) + idleEnter(0, 2005, 1)
            + ftraceLine(1, 2500, "sched_wakeup", "comm=a pid=5 prio=120 target_cpu=000") + idleExit(0, 2502)
            + switchFromIdle(0, 2510) + switchToIdle(0, 3100) + idleEnter(0, 3110, 2)
            + ftraceLine(0, 3200, "hrtimer_expire_entry", "hrtimer=c function=tick_nohz_handler now=3200000")
            + idleExit(0, 3201) + idleEnter(0, 3205, 2) + idleExit(0, 3300) + switchFromIdle(0, 3310);
        const TraceImport r = importOk(t);
        const CpuTrace &c = r.cpus[0];
        QCOMPARE(c.spans.size(), size_t(2));
        QCOMPARE(c.entries.size(), size_t(5));
        QCOMPARE(c.entries[0].cause, WakeCause::Irq);
        QCOMPARE(c.entries[1].cause, WakeCause::HrTimer);
        QVERIFY(c.entries[1].flags & ENTRY_SLEEP_TIMER_WAKE);
        QCOMPARE(c.entries[2].cause, WakeCause::RemoteWakeup);
        QCOMPARE(c.entries[3].cause, WakeCause::Tick);
        const StreamExport ex = toReplayStream(c);
        QCOMPARE(ex.spans, std::int64_t(2));
        QCOMPARE(ex.stream.size(), size_t(4));
        // Row 0: the switch (1000 us) to the first exit (1202 us); gap from the CPU's first
        // event (50 us), 950 us, lengthened by 50 us so that the replay, which starts at 1 s
        // (0 modulo 20 ms), is at 1000 us on CLOCK_MONOTONIC modulo 20 ms there (now= of
        // the hrtimer_expire_entry equals its timestamp: the trace clock is mono);
        // timer a: 3000 - 1000 = 2000 us.
        QCOMPARE(rowOf(ex.stream[0]),
                 (Row{.gapNs = 1000000, .wakeNs = 202000, .timerNs = 2000000, .needResched = false}));
        // Row 1: from the enter at 1210 us, the handler 1202 -> 1210 = 8 us; its timer is b,
        // 2000 - 1210 = 790 us, and b ended it: wake = timer = 790 us.
        QCOMPARE(rowOf(ex.stream[1]), (Row{.gapNs = 8000, .wakeNs = 790000, .timerNs = 790000, .needResched = false}));
        // Row 2: from 2005 us to the last exit 2502 us = 497 us; its gap counts from row 1's
        // wakeup, b's expiry at 2000 us: 5 us (the 1 us from the expiry to the exit and the
        // 4 us from the exit to the enter); b is gone, a is next: 3000 - 2005 = 995 us.
        QCOMPARE(rowOf(ex.stream[2]), (Row{.gapNs = 5000, .wakeNs = 497000, .timerNs = 995000, .needResched = true}));
        // Span B, one row: gap from row 2's wakeup (2502 us) to 3100 us = 598 us (590 us
        // from the switch away plus span A's 8 us tail), wake 3100 -> 3300 = 200 us, no timer
        // armed after 3100 us (a expired at 3000 us): the fallback timer = wake.
        QCOMPARE(rowOf(ex.stream[3]), (Row{.gapNs = 598000, .wakeNs = 200000, .timerNs = 200000, .needResched = true}));
        QCOMPARE(ex.timerWakes, std::int64_t(1));
        QCOMPARE(ex.timerFallback, std::int64_t(1));
        // The trace's side of each row: its span, entries and start on the trace clock.
        QCOMPARE(ex.rows.spanIndex, (std::vector<std::int32_t>{0, 0, 0, 1}));
        QCOMPARE(ex.rows.firstEntry, (std::vector<std::int32_t>{0, 1, 2, 3}));
        QCOMPARE(ex.rows.entryCount, (std::vector<std::int32_t>{1, 1, 1, 2}));
        QCOMPARE(ex.rows.startNs, (std::vector<Ns>{1000000, 1210000, 2005000, 3100000}));
        QCOMPARE(completeEntriesIn(c, ex.rows), std::int64_t(5));
    }

    void causes()
    {
        std::string t;
        // 1: tick inside the entry.
        t += switchToIdle(0, 100) + idleEnter(0, 101, 1)
             + ftraceLine(0, 150, "hrtimer_expire_entry",
                          "hrtimer=00000000000000aa function=tick_nohz_handler now=150000")
             + idleExit(0, 152);
        // 2: another hrtimer.
        t += idleEnter(0, 160, 1)
             + ftraceLine(0, 200, "hrtimer_expire_entry", "hrtimer=00000000000000bb function=hrtimer_wakeup now=200000")
             + idleExit(0, 201);
        // 3: device irq after the exit (idle with interrupts off), before the switch.
        t += idleEnter(0, 210, 1) + idleExit(0, 250)
             + ftraceLine(0, 251, "irq_handler_entry", "irq=36 name=virtio1-req.0");
        // 4: IPI sent by CPU 1 during the entry, then (later) a local tick: the IPI came first.
        t += idleEnter(0, 260, 1) + ftraceLine(1, 270, "ipi_send_cpu", "cpu=0 callsite=x callback=0x0")
             + ftraceLine(0, 271, "hrtimer_expire_entry",
                          "hrtimer=00000000000000aa function=tick_nohz_handler now=271000")
             + idleExit(0, 272);
        // 5: a remote wakeup with no IPI (polling idle).
        t += idleEnter(0, 280, 0) + ftraceLine(1, 290, "sched_wakeup", "comm=a pid=5 prio=120 target_cpu=000")
             + idleExit(0, 291);
        // 6: nothing at all.
        t += idleEnter(0, 300, 1) + idleExit(0, 310) + switchFromIdle(0, 311);
        const TraceImport r = importOk(t);
        const CpuTrace &c = r.cpus[0];
        QCOMPARE(c.entries.size(), size_t(6));
        QCOMPARE(c.entries[0].cause, WakeCause::Tick);
        QCOMPARE(c.entries[1].cause, WakeCause::HrTimer);
        QCOMPARE(r.names[static_cast<size_t>(c.entries[1].causeName)], std::string("hrtimer_wakeup"));
        QCOMPARE(c.entries[2].cause, WakeCause::Irq);
        QCOMPARE(r.names[static_cast<size_t>(c.entries[2].causeName)], std::string("virtio1-req.0"));
        QCOMPARE(c.entries[3].cause, WakeCause::Ipi);
        QCOMPARE(c.entries[4].cause, WakeCause::RemoteWakeup);
        QCOMPARE(c.entries[5].cause, WakeCause::Unknown);
        QCOMPARE(c.spans.size(), size_t(1));
        QCOMPARE(c.spans[0].cause, WakeCause::Unknown); // the last entry's
    }

    void sleepLengthFromArmedTimers()
    {
        // hrtimer A (hrtimer_wakeup) armed to 5000 us, B to 3000 us then cancelled, the tick to
        // 4000 us: ignored, the tick runs and a cpuidle driver is loaded (an entry in state 2).
        std::string t =
            ftraceLine(0, 50, "hrtimer_start",
                       "hrtimer=a function=hrtimer_wakeup expires=5000000 softexpires=5000000 mode=ABS")
            + ftraceLine(0, 60, "hrtimer_start",
                         "hrtimer=b function=posix_timer_fn expires=3000000 softexpires=3000000 mode=ABS")
            + ftraceLine(0, 70, "hrtimer_start",
                         "hrtimer=c function=tick_nohz_handler expires=4000000 softexpires=4000000 mode=ABS")
            + switchToIdle(0, 1000) + idleEnter(0, 1100, 2)
            + ftraceLine(1, 1200, "hrtimer_cancel", "hrtimer=b") // cancelled from another CPU
            + idleExit(0, 1300) + idleEnter(0, 1310, 1)
            + ftraceLine(0, 5000, "hrtimer_expire_entry", "hrtimer=a function=hrtimer_wakeup now=5000000")
            + idleExit(0, 5001) + switchFromIdle(0, 5002);
        const TraceImport r = importOk(t);
        QVERIFY(r.hasTimerEvents);
        QCOMPARE(r.clockOffsetNs, Ns(0));
        const CpuTrace &c = r.cpus[0];
        QCOMPARE(c.spans[0].timerNs, Ns(2000000));         // B at 3000 us - span start 1000 us
        QCOMPARE(c.entries[0].sleepLengthNs, Ns(1900000)); // B, from 1100 us
        QCOMPARE(c.entries[1].sleepLengthNs, Ns(3690000)); // A (B cancelled), from 1310 us
        QCOMPARE(c.entries[1].cause, WakeCause::HrTimer);
        // Stream: the first entry's cause is unknown (no local interrupt; the cancel is
        // CPU 1's), a row boundary. Row 0: 1000 -> 1300 us, timer B 2000 us. Row 1 from
        // the second enter (1310 us, 10 us after the exit): A ended it at its expiry,
        // 3690 us on, the row's own timer -> wake = timer = 3690 us.
        const StreamExport ex = toReplayStream(c);
        QCOMPARE(ex.stream.size(), size_t(2));
        QCOMPARE(ex.stream[0].wakeNs, Ns(300000));
        QCOMPARE(ex.stream[0].timerNs, Ns(2000000));
        QCOMPARE(ex.stream[1].gapNs, Ns(10000)); // 1300 -> 1310 us, the replay in phase already
        QCOMPARE(ex.stream[1].wakeNs, Ns(3690000));
        QCOMPARE(ex.stream[1].timerNs, Ns(3690000));
        QCOMPARE(ex.timerClamped, std::int64_t(0));
        QCOMPARE(ex.timerWakes, std::int64_t(1));
    }

    /// Without a cpuidle driver (every entry in state 1) the idle loop asks to stop the tick
    /// on every pass: a tick that fires in idle was refused, the next event the kernel knew.
    /// The entry it ended is a row of its own, the tick its timer, and the replay's ticks
    /// fall where the trace's did. With a driver (an entry in state 2) it is no boundary.
    void withoutADriverTheRunningTickIsATimer()
    {
        const std::string tick = "hrtimer=dd function=tick_nohz_handler";
        auto trace = [&](int firstState) {
            return ftraceLine(0, 100, "hrtimer_start", tick + " expires=4000000 softexpires=4000000 mode=ABS")
                   + switchToIdle(0, 1000) + idleEnter(0, 1010, firstState)
                   + ftraceLine(0, 4001, "hrtimer_expire_entry", tick + " now=4000500")
                   + ftraceLine(0, 4002, "hrtimer_start", tick + " expires=8000000 softexpires=8000000 mode=ABS")
                   + idleExit(0, 4003) + idleEnter(0, 4005, 1)
                   + ftraceLine(1, 6000, "sched_wakeup", "comm=a pid=5 prio=120 target_cpu=000") + idleExit(0, 6001)
                   + switchFromIdle(0, 6010);
        };
        const TraceImport r = importOk(trace(1));
        const CpuTrace &c = r.cpus[0];
        QVERIFY(c.defaultIdleOnly);
        QVERIFY(c.monoKnown);
        QCOMPARE(c.clockOffsetNs, Ns(0)); // 4001 us - 4000.5 us is interrupt latency, under 1 ms
        QCOMPARE(c.entries[0].cause, WakeCause::Tick);
        QCOMPARE(c.entries[0].tickAfterNs, 2990000); // 4000 - 1010 us
        QCOMPARE(c.entries[1].tickAfterNs, 3995000); // 8000 - 4005 us
        const StreamExport ex = toReplayStream(c);
        QCOMPARE(ex.stream.size(), size_t(2));
        // Row 0 from the switch at 1000 us; its timer is the tick at 4000 us, which ended it:
        // wake = timer = 3000 us. Its gap from the CPU's first event (100 us) is 900 us, made
        // 1000 us so that the replay (1 s, 0 modulo 20 ms) stands at 1000 us modulo 20 ms.
        QCOMPARE(rowOf(ex.stream[0]),
                 (Row{.gapNs = 1000000, .wakeNs = 3000000, .timerNs = 3000000, .needResched = false}));
        // Row 1 from 4005 us, 5 us after the tick's expiry (the wakeup the gap counts from);
        // its timer is the next tick, 8000 - 4005 = 3995 us; CPU 1's wakeup ends it at the
        // exit, 6001 - 4005 = 1996 us.
        QCOMPARE(rowOf(ex.stream[1]), (Row{.gapNs = 5000, .wakeNs = 1996000, .timerNs = 3995000, .needResched = true}));
        QVERIFY(ex.stream[1].gapFromWake);
        QCOMPARE(ex.timerWakes, std::int64_t(1));
        // The replay's first tick after 1 s is at 1 s + 4 ms: row 0 starts at 1 s + 1 ms and
        // its wakeup is 3 ms on, the very tick (0 mod 4 ms, as the kernel's at 4000 us).
        QCOMPARE((REPLAY_START_NS + ex.stream[0].gapNs + ex.stream[0].wakeNs) % 4000000, Ns(0));

        // With a driver, the running tick is the governor's to keep or stop: no boundary.
        const TraceImport d = importOk(trace(2));
        QVERIFY(!d.cpus[0].defaultIdleOnly);
        const StreamExport one = toReplayStream(d.cpus[0]);
        QCOMPARE(one.stream.size(), size_t(1));
        QCOMPARE(one.stream[0].wakeNs, Ns(5001000));  // 1000 -> 6001 us
        QCOMPARE(one.stream[0].timerNs, Ns(5001000)); // no hrtimer but the tick: the fallback
    }

    /// A stopped tick's hrtimer carries the timer wheel's next timer (tick_nohz_stop_tick()
    /// arms it there): an entry it ends was ended by a timer the kernel knew, a row boundary
    /// with that expiry as the row's timer.
    void aStoppedTickCarriesTheNextTimer()
    {
        const std::string tick = "hrtimer=dd function=tick_nohz_handler";
        const std::string t =
            ftraceLine(0, 100, "hrtimer_start", tick + " expires=4000000 softexpires=4000000 mode=ABS")
            + switchToIdle(0, 1000) + ftraceLine(0, 1005, "tick_stop", "success=1 dependency=NONE")
            + ftraceLine(0, 1006, "hrtimer_start", tick + " expires=9000000 softexpires=9000000 mode=ABS")
            + idleEnter(0, 1010, 2) + ftraceLine(0, 9001, "hrtimer_expire_entry", tick + " now=9000600")
            + ftraceLine(0, 9002, "hrtimer_start", tick + " expires=12000000 softexpires=12000000 mode=ABS")
            + idleExit(0, 9003) + idleEnter(0, 9010, 2)
            + ftraceLine(1, 10000, "sched_wakeup", "comm=a pid=5 prio=120 target_cpu=000") + idleExit(0, 10001)
            + switchFromIdle(0, 10010);
        const TraceImport r = importOk(t);
        const CpuTrace &c = r.cpus[0];
        QVERIFY(!c.defaultIdleOnly);
        QVERIFY(c.entries[0].flags & ENTRY_TICK_STOPPED);
        QCOMPARE(c.entries[0].tickAfterNs, 7990000); // 9000 - 1010 us
        const StreamExport ex = toReplayStream(c);
        QCOMPARE(ex.stream.size(), size_t(2));
        // Row 0: the span's start (1000 us) had no timer but the tick's, armed at 9000 us
        // before the first enter: timer = wake = 8000 us (the wakeup moved to the expiry).
        QCOMPARE(ex.stream[0].timerNs, Ns(8000000));
        QCOMPARE(ex.stream[0].wakeNs, Ns(8000000));
        QVERIFY(!ex.stream[0].needResched);
        // Row 1 from 9010 us, 10 us after the expiry; the stopped tick re-armed to 12000 us
        // is its timer (2990 us); the wakeup at the exit, 991 us on.
        QCOMPARE(ex.stream[1].gapNs, Ns(10000));
        QCOMPARE(ex.stream[1].timerNs, Ns(2990000));
        QCOMPARE(ex.stream[1].wakeNs, Ns(991000));
    }

    void clockNotMono()
    {
        // Trace clock 10 s ahead of CLOCK_MONOTONIC (e.g. 'global' after boot): now= tells.
        std::string t =
            ftraceLine(0, 10000050, "hrtimer_start",
                       "hrtimer=a function=hrtimer_wakeup expires=3000000 softexpires=3000000 mode=ABS")
            + ftraceLine(0, 10000100, "hrtimer_expire_entry", "hrtimer=ff function=tick_nohz_handler now=98000")
            + switchToIdle(0, 10001000) + idleEnter(0, 10001001, 1) + idleExit(0, 10002000)
            + switchFromIdle(0, 10002001);
        const TraceImport r = importOk(t);
        QCOMPARE(r.warningCount(WarningKind::ClockNotMono), std::int64_t(1));
        QCOMPARE(r.clockOffsetNs, Ns(10000002000)); // 10000.100 ms - 98 us... = ts - now
        // A expires at mono 3000 us = trace 10003002 us; span starts at 10001000 us.
        QCOMPARE(r.cpus[0].spans[0].timerNs, Ns(2002000));
    }

    void edgeCases()
    {
        std::string t;
        t += idleExit(0, 100) + switchFromIdle(0, 101); // CPU 0: the trace starts mid-entry
        t += switchToIdle(0, 200) + idleEnter(0, 201, 1) + idleEnter(0, 300, 2) + idleExit(0, 400)
             + switchFromIdle(0, 401); // enter while idle
        t += idleEnter(1, 150, 1) + idleExit(1, 170)
             + idleEnter(1, 180, 1); // CPU 1: no sched_switch, truncated last entry
        t += ftraceLine(3, 500, "softirq_entry", "vec=1 [action=TIMER]"); // CPU 3 has events, CPU 2 none
        t += idleEnter(0, 500, 1) + idleExit(0, 499); // out of order on CPU 0 (span from a missed switch)
        const TraceImport r = importOk("# entries-in-buffer/entries-written: 9/9   #P:4\n" + t);
        QCOMPARE(r.declaredCpus, 4);
        QCOMPARE(r.cpus.size(), size_t(4));
        QCOMPARE(r.warningCount(WarningKind::ExitWithoutEnter), std::int64_t(1));
        QCOMPARE(r.warningCount(WarningKind::EnterWhileIdle), std::int64_t(1));
        QCOMPARE(r.warningCount(WarningKind::TruncatedEntry), std::int64_t(1));
        QCOMPARE(r.warningCount(WarningKind::OutOfOrder), std::int64_t(1));
        QCOMPARE(r.warningCount(WarningKind::NoSwitchEvents), std::int64_t(1));
        QCOMPARE(r.warningCount(WarningKind::EmptyCpu), std::int64_t(1));
        QCOMPARE(r.warningCount(WarningKind::MissingSwitch), std::int64_t(1)); // the enter at 500 us
        const ImportWarning *ooo = nullptr;
        for (const ImportWarning &w : r.warnings)
            if (w.kind == WarningKind::OutOfOrder)
                ooo = &w;
        QVERIFY(ooo);
        QCOMPARE(ooo->line, std::int64_t(14)); // header + 12 lines + the enter: the exit is line 14
        QCOMPARE(ooo->file, std::string("t.txt"));
        const CpuTrace &c0 = r.cpus[0];
        QCOMPARE(c0.spans.size(), size_t(3));
        QVERIFY(c0.spans[0].flags & SPAN_TRUNCATED_START);
        QCOMPARE(c0.entries.size(), size_t(3));
        QVERIFY(c0.entries[0].flags & ENTRY_TRUNCATED); // closed by the second enter
        QCOMPARE(c0.entries[0].exitNs, Ns(300000));
        QCOMPARE(c0.entries[2].residencyNs(), Ns(0)); // exit clamped to the enter's time
        // Opened by the enter at 500 us after a switch away from idle: its switch to idle is missing.
        QCOMPARE(c0.spans[2].flags, std::uint8_t(SPAN_TRUNCATED_START | SPAN_TRUNCATED_END | SPAN_MISSING_SWITCH));
        QCOMPARE(c0.spans[0].flags, std::uint8_t(SPAN_TRUNCATED_START)); // the trace's start, no event missing
        QCOMPARE(c0.spans[2].startNs, Ns(401000));                       // the CPU's event before the enter
        const CpuTrace &c1 = r.cpus[1];
        QCOMPARE(c1.spans.size(), size_t(2));
        QVERIFY(c1.spans[0].flags & SPAN_FROM_ENTRY);
        QCOMPARE(c1.spans[0].wakeNs, Ns(170000));
        QCOMPARE(c1.spans[1].flags, std::uint8_t(SPAN_FROM_ENTRY | SPAN_TRUNCATED_END)); // the trace's end
        QCOMPARE(r.cpus[2].events, std::int64_t(0));
        // Stream of CPU 0: only the complete middle span, in two rows: its first entry lost its
        // exit (closed by the enter at 300 us), so what ended it is unknown: a row boundary.
        const StreamExport ex = toReplayStream(c0);
        QCOMPARE(ex.spans, std::int64_t(1));
        QCOMPARE(ex.stream.size(), size_t(2));
        QCOMPARE(ex.stream[0].wakeNs, Ns(100000));                           // 200 -> 300 us
        QCOMPARE(ex.stream[1].gapNs, Ns(0));                                 // the next enter at the same 300 us
        QCOMPARE(ex.stream[1].wakeNs, Ns(100000));                           // 300 -> 400 us
        QCOMPARE(ex.droppedCount(SpanDrop::TraceStart), std::int64_t(1));    // span 0
        QCOMPARE(ex.droppedCount(SpanDrop::MissingSwitch), std::int64_t(1)); // span 2
        QCOMPARE(ex.droppedCount(SpanDrop::TraceEnd) + ex.droppedCount(SpanDrop::MissingExit)
                     + ex.droppedCount(SpanDrop::TooLong),
                 std::int64_t(0));
        QCOMPARE(spanAccountText(3, 1, ex.dropped),
                 std::string("3 spans = 1 exported + 1 missing a sched_switch + 1 cut by the trace's start"));
        const StreamExport ex1 = toReplayStream(c1);
        QCOMPARE(ex1.stream.size(), size_t(1));
        QCOMPARE(ex1.droppedCount(SpanDrop::TraceEnd), std::int64_t(1));
        QCOMPARE(ex.stream[0].gapNs, Ns(99000)); // 101 -> 200 us
    }

    void spanDropReasons()
    {
        // Every span lands in exactly one bucket: exported or one SpanDrop reason.
        // CPU 0 (with switches): idle at the start until 100 us (trace start); 200..300 complete;
        // to idle at 400 us, then to idle again at 600 us with no switch away between (missing
        // switch: the 400 us span's end is unknown); 600 us until the trace ends (trace end).
        std::string t = idleEnter(0, 10, 1) + idleExit(0, 90) + switchFromIdle(0, 100);
        t += switchToIdle(0, 200) + idleEnter(0, 210, 1) + idleExit(0, 290) + switchFromIdle(0, 300);
        t += switchToIdle(0, 400) + idleEnter(0, 410, 1) + idleExit(0, 450) + switchToIdle(0, 600)
             + idleEnter(0, 610, 1) + idleExit(0, 620);
        // CPU 1 (no switches): the entry at 100 us gets no exit (the enter at 200 us closes it),
        // 200..250 complete, 300 us open at the end.
        t += idleEnter(1, 100, 1) + idleEnter(1, 200, 1) + idleExit(1, 250) + idleEnter(1, 300, 1);
        const TraceImport r = importOk(t);
        const CpuTrace &c0 = r.cpus[0];
        QCOMPARE(c0.spans.size(), size_t(4));
        QCOMPARE(c0.spans[0].flags, std::uint8_t(SPAN_TRUNCATED_START));
        QCOMPARE(c0.spans[1].flags, std::uint8_t(0));
        QCOMPARE(c0.spans[2].flags, std::uint8_t(SPAN_TRUNCATED_END | SPAN_MISSING_SWITCH));
        QCOMPARE(c0.spans[3].flags, std::uint8_t(SPAN_TRUNCATED_END));
        const StreamExport e0 = toReplayStream(c0);
        QCOMPARE(e0.stream.size(), size_t(1));
        QCOMPARE(e0.droppedCount(SpanDrop::TraceStart), std::int64_t(1));
        QCOMPARE(e0.droppedCount(SpanDrop::MissingSwitch), std::int64_t(1));
        QCOMPARE(e0.droppedCount(SpanDrop::TraceEnd), std::int64_t(1));
        QCOMPARE(
            spanAccountText(4, 1, e0.dropped),
            std::string(
                "4 spans = 1 exported + 1 missing a sched_switch + 1 cut by the trace's start + 1 cut by the trace's end"));

        const CpuTrace &c1 = r.cpus[1];
        QCOMPARE(c1.spans.size(), size_t(3));
        QCOMPARE(c1.spans[0].flags, std::uint8_t(SPAN_FROM_ENTRY | SPAN_TRUNCATED_END | SPAN_MISSING_EXIT));
        QCOMPARE(c1.spans[1].flags, std::uint8_t(SPAN_FROM_ENTRY));
        QCOMPARE(c1.spans[2].flags, std::uint8_t(SPAN_FROM_ENTRY | SPAN_TRUNCATED_END));
        const StreamExport e1 = toReplayStream(c1);
        QCOMPARE(e1.stream.size(), size_t(1));
        QCOMPARE(e1.droppedCount(SpanDrop::MissingExit), std::int64_t(1));
        QCOMPARE(e1.droppedCount(SpanDrop::TraceEnd), std::int64_t(1));
        QCOMPARE(r.cpusWithEvents(), 2);
        QCOMPARE(r.cpusWithIdleEntries(), 2);
    }

    void aLostLastExitEndsItsSpanAtTheSwitch()
    {
        // An entry whose cpu_idle exit was lost ends at the event that closed it, the switch
        // away for a span's last entry: so does the span's wakeup. Span 400..500 us: enter 410,
        // exit 420, enter 430 with no exit. Before, the span's wakeup went back to the
        // recorded exit at 420 us while its second row ran to 500 us (in a fuzzed trace with
        // a later switch, a row of 161561 s in a span that seemed 4 ms long).
        const std::string t = switchToIdle(0, 400) + idleEnter(0, 410, 1) + idleExit(0, 420) + idleEnter(0, 430, 1)
                              + switchFromIdle(0, 500);
        const TraceImport r = importOk(t);
        const CpuTrace &c = r.cpus[0];
        QCOMPARE(c.spans.size(), size_t(1));
        QCOMPARE(c.spans[0].flags, std::uint8_t(0));
        QVERIFY(c.entries[1].flags & ENTRY_TRUNCATED);
        QCOMPARE(c.spans[0].wakeNs, Ns(500000));
        const StreamExport ex = toReplayStream(c);
        QCOMPARE(ex.stream.size(), size_t(2));    // the lost exit is a row boundary
        QCOMPARE(ex.stream[0].gapNs, Ns(0));      // the trace starts at the switch to idle
        QCOMPARE(ex.stream[0].wakeNs, Ns(20000)); // a span's first row starts there: 400 -> 420 us
        QCOMPARE(ex.stream[1].gapNs, Ns(10000));  // 420 -> 430 us
        QCOMPARE(ex.stream[1].wakeNs, Ns(70000)); // 430 -> 500 us
    }

    void missEventsAttach()
    {
        std::string t = switchToIdle(0, 10) + idleEnter(0, 11, 2) + idleExit(0, 20)
                        + ftraceLine(0, 20, "cpu_idle_miss", "cpu_id=0 state=2 type=above") + idleEnter(0, 30, 1)
                        + idleExit(0, 900) + ftraceLine(0, 900, "cpu_idle_miss", "cpu_id=0 state=1 type=below")
                        + switchFromIdle(0, 901);
        const TraceImport r = importOk(t);
        QVERIFY(r.hasMissEvents);
        QCOMPARE(r.cpus[0].entries[0].flags & (ENTRY_MISS_ABOVE | ENTRY_MISS_BELOW), int(ENTRY_MISS_ABOVE));
        QCOMPARE(r.cpus[0].entries[1].flags & (ENTRY_MISS_ABOVE | ENTRY_MISS_BELOW), int(ENTRY_MISS_BELOW));
    }

    void errorsAndWarnings()
    {
        // Not a trace.
        Result<TraceImport> r = importTraceText("a,b,c\n1,2,3\n", "x.csv");
        QVERIFY(!r);
        QVERIFY(r.error().message.find("unknown format") != std::string::npos);
        // Binary.
        r = importTraceText(std::string("\x01\x02\0\x03", 4), "bin");
        QVERIFY(!r);
        QVERIFY(r.error().message.find("binary") != std::string::npos);
        // Events but no cpu_idle.
        r = importTraceText(ftraceLine(0, 1, "softirq_entry", "vec=1"), "s.txt");
        QVERIFY(!r);
        QCOMPARE(r.error().field, std::string("cpu_idle"));
        // A malformed line is a warning with its line and field; the rest is used.
        r = importTraceText(idleEnter(0, 1, 1) + ftraceLine(0, 2, "cpu_idle", "state=oops cpu_id=0") + idleExit(0, 3),
                            "m.txt");
        QVERIFY(r);
        QCOMPARE(r->warningCount(WarningKind::Malformed), std::int64_t(1));
        QCOMPARE(r->warnings[0].line, std::int64_t(2));
        QCOMPARE(r->warnings[0].field, std::string("state"));
        QCOMPARE(r->cpus[0].entries.size(), size_t(1));
        // Lost events are reported.
        r = importTraceText(idleEnter(0, 1, 1) + "CPU:0 [LOST 7 EVENTS]\n" + idleExit(0, 3), "l.txt");
        QVERIFY(r);
        QCOMPARE(r->warningCount(WarningKind::LostEvents), std::int64_t(1));
        // Kept warnings are capped, counts are not.
        std::string many;
        for (int i = 0; i < 500; ++i)
            many += "garbage line\n";
        r = importTraceText(idleEnter(0, 1, 1) + many + idleExit(0, 3), "g.txt");
        QVERIFY(r);
        QCOMPARE(r->warningCount(WarningKind::UnknownLine), std::int64_t(500));
        QCOMPARE(std::count_if(r->warnings.begin(), r->warnings.end(),
                               [](const ImportWarning &w) { return w.kind == WarningKind::UnknownLine; }),
                 std::ptrdiff_t(50));
    }
};

QTEST_GUILESS_MAIN(TestTraceReconstruct)
#include "tst_trace_reconstruct.moc"
