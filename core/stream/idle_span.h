// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file idle_span.h
 * The wakeup stream model of the reference replay (shared/conformance/README.md):
 * one row per idle span on one CPU.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace idlescope {

/// latency_req_ns value meaning "no PM QoS constraint".
inline constexpr Ns NO_LATENCY_REQ = -1;

/**
 * One row of a stream: an idle span, from the moment the CPU runs out of work
 * until a task is woken on it; or, with needResched false, one wakeup inside
 * such a span: an interrupt whose handler wakes no task, after which the CPU
 * stays in the idle loop (kernel: do_idle() loops on !need_resched()) and
 * the next row goes on with the same stay. Its gapNs is then the handler's
 * time, and the next row's times count from the handler's end.
 */
struct IdleSpan {
    Ns gapNs = 0;                     ///< busy (or, after an in-idle wakeup, handler) time before the row starts (>= 0)
    Ns timerNs = 0;                   ///< row start to the next (non-tick) timer expiry
    Ns wakeNs = 0;                    ///< row start to the event that ends the row; <= timerNs
    Ns latencyReqNs = NO_LATENCY_REQ; ///< PM QoS resume-latency limit, -1 for none
    int util = 0;                     ///< scheduler utilisation during the span, 0..1024
    /// The event at wakeNs wakes a task and the idle loop is left (the
    /// stream column need_resched, 1 when absent); false: an in-idle
    /// interrupt that wakes nothing. A last row ends the stay whatever it says.
    bool needResched = true;
    /// gapNs counts from the previous row's wakeup event (its start + wake_ns), not from
    /// the replay's exit from the state it chose (which adds that state's exit latency):
    /// the stream column gap_from_wake, 0 when absent. Streams made from a trace set it,
    /// so that the replay keeps the trace's clock and its ticks fall where the kernel's
    /// did; if the exit comes later than that, the row starts at the exit.
    bool gapFromWake = false;

    /// True when the timer itself ends the span (wake == timer).
    bool timerWake() const { return wakeNs == timerNs; }
};

using IdleStream = std::vector<IdleSpan>;

/// Longest busy gap or idle span accepted (10,000 s): longer is a unit mistake,
/// and it bounds the work of one span.
inline constexpr Ns MAX_SPAN_NS = 10000 * NSEC_PER_SEC;
/// Longest stream (gaps plus spans) accepted, read or generated alike: about
/// 95 years of replay time, so that the replay's int64 ns clock never overflows.
inline constexpr Ns MAX_STREAM_NS = 3'000'000'000LL * NSEC_PER_SEC;

/// The index of the first span at which the stream's total time (gaps plus
/// spans) passes MAX_STREAM_NS, or -1 when it stays within it.
inline std::int64_t firstSpanPastStreamLimit(const IdleStream &stream)
{
    Ns total = 0;
    for (std::size_t i = 0; i < stream.size(); ++i)
        if (__builtin_add_overflow(total, stream[i].gapNs, &total)
            || __builtin_add_overflow(total, stream[i].wakeNs, &total) || total > MAX_STREAM_NS)
            return static_cast<std::int64_t>(i);
    return -1;
}

} // namespace idlescope
