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

/// One idle span: from the moment the CPU runs out of work until a task is woken on it.
struct IdleSpan {
    Ns gapNs = 0;                     ///< busy time before the span starts (>= 0)
    Ns timerNs = 0;                   ///< span start to the next (non-tick) timer expiry
    Ns wakeNs = 0;                    ///< span start to the event that ends the span; <= timerNs
    Ns latencyReqNs = NO_LATENCY_REQ; ///< PM QoS resume-latency limit, -1 for none
    int util = 0;                     ///< scheduler utilisation during the span, 0..1024

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
