// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_stream.h
 * A CPU's recorded idle spans as a reference-replay stream (the conformance
 * stream format of core/stream/idle_span.h), so that any governor variant can
 * run on them on any table.
 *
 * Per exported span: gap_ns = start - end of the previous span on the CPU
 * (the CPU's first event for its first span); wake_ns = last idle exit of the
 * span - start; timer_ns = the next non-tick hrtimer expiry at the span start
 * - start; latency_req_ns = -1; util = 0.
 * Fallbacks (counted, documented in docs/traces.md): no known next timer
 * (no hrtimer events, or none armed on the CPU) -> timer_ns = wake_ns, i.e.
 * the span is taken as timer-ended; a next timer that expired before the span
 * ended (it woke the CPU without ending the span, which the stream model
 * cannot say) -> timer_ns = wake_ns too, except when that very hrtimer ended the span
 * (SPAN_TIMER_WAKE): then wake_ns = timer_ns = the expiry, the moment the timer
 * woke the CPU (counted as timerWakes, not a fallback). Spans cut by the start or the end of
 * the trace are not exported.
 */
#pragma once

#include "core/stream/idle_span.h"
#include "core/trace/trace_model.h"

namespace idlescope::trace {

struct StreamExport {
    IdleStream stream;
    std::vector<std::int32_t> spanIndex; ///< CpuTrace::spans index of each row
    std::int64_t timerFallback = 0;      ///< rows with no known next timer
    std::int64_t timerClamped = 0;       ///< rows whose next timer expired before the wakeup
    std::int64_t timerWakes = 0;         ///< rows ended by that timer (wake moved to its expiry)
    std::int64_t truncatedSkipped = 0;   ///< spans not exported (cut by the trace's start or end)
    std::int64_t tooLongSkipped = 0;     ///< spans longer than MAX_SPAN_NS (core/io/stream_csv.h), not exported
};

/// The replay stream of one CPU.
StreamExport toReplayStream(const CpuTrace &cpu);

} // namespace idlescope::trace
