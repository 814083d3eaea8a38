// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_model.h
 * What an imported trace becomes: per CPU, the recorded idle entries
 * (cpu_idle enter -> exit) and idle spans (switch to the idle task -> switch
 * away), each with its wakeup cause; plus the structured warnings of the
 * import. All times are the trace clock in ns. Memory is proportional to the
 * entries and spans kept, never to the size of the trace file.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace idlescope::trace {

/// What ended an idle entry (the first interrupt-class event seen on the CPU).
enum class WakeCause : std::uint8_t {
    Tick,         ///< the tick's hrtimer (tick_nohz_handler, tick_sched_timer, ...)
    HrTimer,      ///< any other hrtimer (hrtimer_wakeup, posix_timer_fn, ...)
    Irq,          ///< a device interrupt (irq_handler_entry; name kept)
    Ipi,          ///< an IPI sent to this CPU (sender's ipi_send_* or receiver's ipi_entry)
    RemoteWakeup, ///< sched_wakeup of a task on this CPU from another CPU with no IPI seen
    Unknown,      ///< no event tells (no irq/timer tracepoints, or an untraced vector)
};
inline constexpr int WAKE_CAUSE_COUNT = 6;
const char *wakeCauseName(WakeCause c);

/// Kinds of structured warnings. Each is counted; the first few are kept with their details.
enum class WarningKind : std::uint8_t {
    Malformed,        ///< a line that looks like an event but a field cannot be read
    UnknownLine,      ///< a non-comment line that is not an event
    OutOfOrder,       ///< a CPU's timestamp went backwards (reordered within the window, or clamped)
    ExitWithoutEnter, ///< first event of an entry is an exit (trace started mid-entry)
    EnterWhileIdle,   ///< an enter while the previous entry had no exit (closed at the new enter)
    TruncatedEntry,   ///< an entry still open at the end of the trace
    TruncatedSpan,    ///< a span that starts before or ends after the trace (not exported)
    ClockNotMono,     ///< hrtimer expires= is not on the trace clock; offset corrected
    LostEvents,       ///< the ring buffer lost events ("[LOST n EVENTS]", missed events)
    BadCpu,           ///< a CPU number outside 0..MAX_TRACE_CPUS-1
    NoSwitchEvents,   ///< a CPU without sched_switch: one span per idle entry
    TimerFallback,    ///< spans without a known next timer: timer_ns = wake_ns
    TimerClamped,     ///< next timer expired before the span ended: timer_ns = wake_ns
    EmptyCpu,         ///< a CPU the header announces but with no events
    NoIdleEvents,     ///< a CPU with sched_switch spans but no cpu_idle events
    MissingSwitch,    ///< a sched_switch to / from the idle task is missing (filtered or lost events)
};
inline constexpr int WARNING_KIND_COUNT = 16;
const char *warningKindName(WarningKind k);

/// One structured warning {kind, file, line, field, detail}.
struct ImportWarning {
    WarningKind kind = WarningKind::Malformed;
    std::string file;
    std::int64_t line = 0; ///< 0 for .dat records and whole-trace warnings
    std::string field;
    std::string detail;
    std::string toString() const;
};

/// One recorded idle entry: power:cpu_idle enter -> exit on one CPU.
struct IdleEntryRec {
    Ns enterNs = 0;
    Ns exitNs = 0;               ///< == enterNs for a truncated entry
    Ns sleepLengthNs = -1;       ///< next non-tick hrtimer expiry - enterNs, -1 when unknown
    std::int32_t causeName = -1; ///< irq or hrtimer function name id, -1 for none
    std::int32_t span = -1;      ///< index of the span in CpuTrace::spans, -1 outside spans
    std::int16_t state = 0;      ///< recorded state index
    WakeCause cause = WakeCause::Unknown;
    std::uint8_t flags = 0; ///< EntryFlag bits
    /// The CPU's tick hrtimer expiry - enterNs as armed at the enter, -1 when not armed or
    /// further than an int32 holds (about 2.1 s). With the tick stopped it carries the
    /// timer wheel's next timer; without a cpuidle driver a running tick is the next event.
    std::int32_t tickAfterNs = -1;
    /// Where the entry is in the source, to find it again in `trace-cmd report` or
    /// KernelShark: the line (text formats, 1-based) or the record number (.dat, 1-based
    /// in libtracecmd's time order, the report's event order) of its cpu_idle enter; 0
    /// when unknown. The exit and the waking event as offsets from it (0: none).
    std::int64_t enterAt = 0;
    std::int32_t exitAfter = 0;  ///< cpu_idle exit (PWR_EVENT_EXIT) at enterAt + exitAfter
    std::int32_t causeAfter = 0; ///< the event that gave the cause at enterAt + causeAfter

    Ns residencyNs() const { return exitNs - enterNs; }
    std::int64_t exitAt() const { return exitAfter ? enterAt + exitAfter : 0; }
    std::int64_t causeAt() const { return causeAfter ? enterAt + causeAfter : 0; }
};
enum EntryFlag : std::uint8_t {
    ENTRY_MISS_ABOVE = 1,   ///< cpu_idle_miss type=above recorded for this entry
    ENTRY_MISS_BELOW = 2,   ///< cpu_idle_miss type=below recorded
    ENTRY_TICK_STOPPED = 4, ///< tick_stop success=1 seen before this entry in its span
    ENTRY_TRUNCATED = 8,    ///< no exit: the trace ended or the next enter closed it
    /// Ended by the very hrtimer whose expiry sleepLengthNs measures (the sleep length came true).
    ENTRY_SLEEP_TIMER_WAKE = 16,
};

/// One idle span: the CPU runs the idle task from startNs until endNs.
struct IdleSpanRec {
    Ns startNs = 0;             ///< sched_switch to pid 0 (or the entry's enter, see flags)
    Ns endNs = 0;               ///< sched_switch away from pid 0
    Ns wakeNs = 0;              ///< last idle exit in the span (endNs when no entry)
    Ns prevEndNs = -1;          ///< end of the previous span on this CPU, -1 for the first
    Ns timerNs = -1;            ///< next non-tick hrtimer expiry - startNs, -1 when unknown
    std::uint64_t timerPtr = 0; ///< that hrtimer (address as traced)
    std::int32_t firstEntry = -1;
    std::int32_t entryCount = 0;
    WakeCause cause = WakeCause::Unknown; ///< cause of the last entry
    std::uint8_t flags = 0;               ///< SpanFlag bits
};
enum SpanFlag : std::uint8_t {
    SPAN_TRUNCATED_START = 1, ///< start not in the trace (idle at its start, or the switch is missing)
    SPAN_TRUNCATED_END = 2,   ///< end not in the trace (it ended first, or the switch is missing)
    SPAN_FROM_ENTRY = 4,      ///< no sched_switch on this CPU: the span is one idle entry
    SPAN_TIMER_WAKE = 8,      ///< its last entry was ended by the hrtimer that timerNs measures
    SPAN_MISSING_SWITCH = 16, ///< the truncated end is a missing sched_switch (filtered or lost), not the trace's edge
    SPAN_MISSING_EXIT = 32,   ///< SPAN_FROM_ENTRY whose entry has no cpu_idle exit (the next enter closed it)
};

/// power:cpu_frequency for one CPU: from tsNs on, the CPU runs at khz (until the next change).
struct FrequencyChange {
    Ns tsNs = 0;
    std::int64_t khz = 0;
};

/// Everything recorded for one CPU.
struct CpuTrace {
    int cpu = 0;
    std::vector<IdleEntryRec> entries;
    std::vector<IdleSpanRec> spans;
    std::vector<FrequencyChange> frequencies; ///< in trace order; empty without cpu_frequency events
    std::int64_t events = 0;
    Ns firstNs = -1;
    Ns lastNs = -1;
    /// Every entry of the trace is in state 1, which is what default_idle_call() logs when no
    /// cpuidle driver is loaded (trace_limits.h): the idle loop then asks to stop the tick on
    /// every pass, so a tick that still fires in idle was the next event the kernel knew.
    bool defaultIdleOnly = false;
    /// The trace's CLOCK_MONOTONIC, known from hrtimer events: mono = trace clock - clockOffsetNs.
    bool monoKnown = false;
    Ns clockOffsetNs = 0;
};

/// Which text or binary format a trace was read as.
enum class TraceFormat : std::uint8_t { Unknown, FtraceText, TraceCmdReport, PerfScript, TraceCmdDat };
const char *traceFormatName(TraceFormat f);

/// Knobs of an import (all optional).
struct ImportConfig {
    int keptWarningsPerKind = 50; ///< details kept per kind; all are counted
    bool isolateDat = true; ///< read a .dat in the reader process (dat_reader.h: libtraceevent can crash on damage)
    /// Let libtraceevent parse a .dat's kallsyms itself instead of kallsyms_index.h's one pass
    /// (same names, about twice the time on a small file; kept to check the two agree).
    bool libraryKallsyms = false;
};

/// Progress: bytes (or records) done and total; return false to cancel.
using ProgressFn = std::function<bool(std::int64_t done, std::int64_t total)>;

/// The result of importing one trace.
struct TraceImport {
    std::string file;
    TraceFormat format = TraceFormat::Unknown;
    int declaredCpus = 0;                              ///< "#P:", "cpus=", or the .dat header; 0 if unknown
    std::vector<CpuTrace> cpus;                        ///< index = CPU number (CPUs with no events included)
    std::vector<std::string> names;                    ///< interned irq / function names
    std::map<std::string, std::int64_t> eventCounts;   ///< understood events by name
    std::map<std::string, std::int64_t> unknownEvents; ///< skipped events by name
    std::vector<ImportWarning> warnings;               ///< the first keptWarningsPerKind of each kind
    std::int64_t warningCounts[WARNING_KIND_COUNT] = {};
    std::int64_t lines = 0;       ///< text lines (or .dat records) read
    std::int64_t events = 0;      ///< events understood
    bool hasMissEvents = false;   ///< cpu_idle_miss seen (above/below recorded)
    bool hasTimerEvents = false;  ///< hrtimer_start seen (sleep lengths known)
    bool hasSwitchEvents = false; ///< sched_switch seen
    Ns clockOffsetNs = 0;         ///< trace clock - CLOCK_MONOTONIC, from hrtimer now=

    std::int64_t warningCount(WarningKind k) const { return warningCounts[static_cast<int>(k)]; }
    std::int64_t totalEntries() const;
    std::int64_t totalSpans() const;
    int cpusWithEvents() const;      ///< CPUs with at least one event
    int cpusWithIdleEntries() const; ///< CPUs with at least one cpu_idle enter
};

} // namespace idlescope::trace
