// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_limits.h
 * What a trace cannot tell, found in the trace itself, in one place for every
 * view that shows its numbers (the CLI's stderr, the window's status and CPUs
 * dock):
 *  - no hrtimer events: each row's sleep length falls back to its real idle
 *    time, so every simulated governor knows the future (trace_stream.h);
 *  - every entry in state 1 and never another, which is what
 *    default_idle_call() logs when no cpuidle driver is loaded (a VM guest
 *    without haltpoll, a board without a driver): the recorded run is then
 *    not a governor's choices;
 *  - microsecond timestamps (text reports: ftrace's, trace-cmd report's,
 *    perf script's): every residency is rounded to a microsecond.
 */
#pragma once

#include "core/trace/trace_model.h"

#include <string>
#include <vector>

namespace idlescope::trace {

struct TraceLimits {
    bool noTimerEvents = false;         ///< no hrtimer_start: sleep lengths are the real idle
    bool defaultIdleOnly = false;       ///< every entry in state 1: likely no cpuidle driver
    bool microsecondTimestamps = false; ///< every idle timestamp a whole microsecond
};

TraceLimits traceLimits(const TraceImport &trace);

/// One sentence per limit that applies, for people.
std::vector<std::string> traceLimitTexts(const TraceLimits &limits);

} // namespace idlescope::trace
