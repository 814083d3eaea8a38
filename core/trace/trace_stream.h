// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_stream.h
 * A CPU's recorded idle spans as a reference-replay stream (the conformance
 * stream format of core/stream/idle_span.h), so that any governor variant can
 * run on them on any table.
 *
 * Every exported span becomes one row per stay segment: its entries are cut
 * after each entry that an in-idle wakeup ended (any cause but the tick: an
 * irq, an IPI, an hrtimer, a remote wakeup, or a cause the trace does not
 * tell), so that each such wakeup is a row boundary. The entries up to the
 * span's last are rows with need_resched = 0 (the CPU stayed in the idle
 * loop); the last row ends the span (need_resched = 1). An entry that the
 * tick ended is no boundary: the replay's own tick ends it, or does not where
 * a governor stops the tick. A trace without irq or timer events (every cause
 * Unknown) so gets one row per entry.
 *
 * Per row: gap_ns = for a span's first row, start - end of the previous span
 * on the CPU (the CPU's first event for its first span), for a later row the
 * time from the previous row's last idle exit to its first entry's enter (the
 * handler's time); wake_ns = the row's last idle exit - row start (the span's
 * last exit for its last row); timer_ns = the next non-tick hrtimer expiry at
 * the row's start - row start; latency_req_ns = -1; util = 0. The row starts
 * at the switch to the idle task for a span's first row, at its first
 * entry's enter for the others.
 * Fallbacks (counted, documented in docs/traces.md): no known next timer
 * (no hrtimer events, or none armed on the CPU) -> timer_ns = wake_ns, i.e.
 * the row is taken as timer-ended; a next timer that expired before the row
 * ended (it woke the CPU without ending the row, which the stream model
 * cannot say) -> timer_ns = wake_ns too, except when that very hrtimer ended the row
 * (SPAN_TIMER_WAKE for a span's only row, ENTRY_SLEEP_TIMER_WAKE of the row's
 * last entry otherwise): then wake_ns = timer_ns = the expiry, the moment the timer
 * woke the CPU (counted as timerWakes, not a fallback).
 *
 * Spans not exported are counted under one reason each (SpanDrop), so that
 * exported + every reason = all spans of the CPU: a missing sched_switch comes
 * first, then a missing cpu_idle exit, the trace's start, its end, and last a
 * span longer than MAX_SPAN_NS (core/formats/stream_csv.h).
 */
#pragma once

#include "core/stream/idle_span.h"
#include "core/trace/trace_model.h"

#include <array>
#include <string>

namespace idlescope::trace {

/// Why a span is not in the replay stream.
enum class SpanDrop : std::uint8_t {
    MissingSwitch, ///< a sched_switch at one end is missing (filtered or lost): that end is unknown
    MissingExit,   ///< no sched_switch on the CPU and the entry has no cpu_idle exit
    TraceStart,    ///< already idle when the trace starts
    TraceEnd,      ///< still idle when the trace ends
    TooLong,       ///< longer than the stream format takes (MAX_SPAN_NS)
};
inline constexpr int SPAN_DROP_COUNT = 5;
/// "missing_switch", "missing_exit", "trace_start", "trace_end", "too_long" (CSV/JSON keys).
const char *spanDropName(SpanDrop d);
/// "missing a sched_switch", ..., "cut by the trace's start", ... (for people).
const char *spanDropLabel(SpanDrop d);
/// The reason @p span is not exported from its flags; TooLong is never returned (it depends on the export).
/// Returns false for a complete span.
bool spanCut(const IdleSpanRec &span, SpanDrop *why);

using SpanDrops = std::array<std::int64_t, SPAN_DROP_COUNT>;

/// Where each stream row comes from in the trace, index = row.
struct StreamRows {
    std::vector<std::int32_t> spanIndex;  ///< CpuTrace::spans index of the row's span
    std::vector<std::int32_t> firstEntry; ///< CpuTrace::entries index of its first entry (-1: none)
    std::vector<std::int32_t> entryCount; ///< its entries (0 for a span without cpu_idle events)
    std::vector<Ns> startNs;              ///< trace timestamp of the row's start

    std::size_t size() const { return spanIndex.size(); }
    void reserve(std::size_t n);
};

struct StreamExport {
    IdleStream stream;
    StreamRows rows;                ///< the trace's side of every row
    std::int64_t spans = 0;         ///< spans exported (rows with need_resched = 1)
    std::int64_t timerFallback = 0; ///< rows with no known next timer
    std::int64_t timerClamped = 0;  ///< rows whose next timer expired before the wakeup
    std::int64_t timerWakes = 0;    ///< rows ended by that timer (wake moved to its expiry)
    SpanDrops dropped{};            ///< spans not exported, by SpanDrop

    std::int64_t droppedCount(SpanDrop d) const { return dropped[static_cast<size_t>(d)]; }
};

/// The replay stream of one CPU.
StreamExport toReplayStream(const CpuTrace &cpu);

/// Complete (not truncated) entries of @p cpu inside the rows of @p rows: what the
/// recorded run keeps and the simulated runs replay.
std::int64_t completeEntriesIn(const CpuTrace &cpu, const StreamRows &rows);

/// "13825 spans = 6892 exported + 6931 missing a sched_switch + 2 cut by the trace's end":
/// every non-zero reason, so that the terms add up to @p total.
std::string spanAccountText(std::int64_t total, std::int64_t exported, const SpanDrops &dropped);

} // namespace idlescope::trace
