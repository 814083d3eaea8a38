// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file idle_reconstructor.h
 * Rebuilds per-CPU idle entries, idle spans, wakeup causes and sleep lengths
 * from a time-ordered sequence of TraceEvents (any reader's). Streaming: the
 * state carried between events is per CPU plus the set of armed hrtimers;
 * the output grows with the entries and spans only.
 *
 * Rules (docs/traces.md has the long form):
 *  - entry: power:cpu_idle state=i -> state=4294967295 on cpu_id;
 *  - span: sched_switch to pid 0 -> sched_switch from pid 0; a CPU idle when
 *    the trace starts gets a span flagged SPAN_TRUNCATED_START; a CPU without
 *    any sched_switch gets one span per entry (SPAN_FROM_ENTRY);
 *  - wakeup cause: the earliest of (a) the first hrtimer_expire_entry /
 *    irq_handler_entry / IPI-receive event on the CPU after the enter (also
 *    just after the exit, for drivers that idle with interrupts off) and
 *    (b) an ipi_send_* to the CPU from another CPU during the entry; else a
 *    remote sched_wakeup; else Unknown;
 *  - sleep length: earliest expiry of the armed non-tick hrtimers of the CPU
 *    (hrtimer_start adds, hrtimer_cancel / hrtimer_expire_entry remove), with
 *    expires= moved onto the trace clock by the offset measured from
 *    hrtimer_expire_entry's now= (warned when it is not CLOCK_MONOTONIC).
 * Events are taken in the order given; per CPU that is program order, so a
 * timestamp that goes backwards is clamped to the CPU's last one and warned.
 */
#pragma once

#include "core/trace/name_table.h"
#include "core/trace/trace_event.h"
#include "core/trace/trace_model.h"
#include "core/trace/warning_sink.h"

#include <memory>

namespace idlescope::trace {

/// CPU numbers accepted (beyond it an event is warned about and dropped).
inline constexpr int MAX_TRACE_CPUS = 4096;

class IdleReconstructor {
public:
    IdleReconstructor(TraceImport &out, WarningSink &warnings, const NameTable &names);
    ~IdleReconstructor();

    void feed(const TraceEvent &event);
    /// Lost events on @p cpu (-1: unknown CPU): warned; the CPU's open entry keeps going.
    void lost(int cpu, std::int64_t count, std::int64_t line);
    /// Closes what is open (truncated entries and spans), fills causes, builds fallback spans.
    void finish();

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace idlescope::trace
