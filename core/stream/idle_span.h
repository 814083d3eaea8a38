// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file idle_span.h
 * The wakeup stream model of the reference replay (shared/conformance/README.md):
 * one row per idle span on one CPU.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <vector>

namespace idlescope {

/// latency_req_ns value meaning "no PM QoS constraint".
inline constexpr Ns NO_LATENCY_REQ = -1;

/// One idle span: from the moment the CPU runs out of work until a task is woken on it.
struct IdleSpan {
    Ns gapNs = 0;                       ///< busy time before the span starts (>= 0)
    Ns timerNs = 0;                     ///< span start to the next (non-tick) timer expiry
    Ns wakeNs = 0;                      ///< span start to the event that ends the span; <= timerNs
    Ns latencyReqNs = NO_LATENCY_REQ;   ///< PM QoS resume-latency limit, -1 for none
    int util = 0;                       ///< scheduler utilisation during the span, 0..1024

    /// True when the timer itself ends the span (wake == timer).
    bool timerWake() const { return wakeNs == timerNs; }
};

using IdleStream = std::vector<IdleSpan>;

} // namespace idlescope
