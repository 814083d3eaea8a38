// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file tick_running_what_if.h
 * What a governor would have chosen had the tick still been running, at an
 * entry it selected with the tick already stopped (after an in-idle wakeup
 * that left the CPU in the idle loop). The inspector sets it beside the real
 * choice: the stopped-tick branches of menu and teo (v7.0 "Always check
 * timers with tick stopped", v7.1's SAFE_TIMER_RANGE_NS) are exactly where
 * the two differ.
 */
#pragma once

#include "core/replay/governor_run.h"

namespace idlescope {

/**
 * Replays @p stream through a fresh @p variant with @p settings up to entry
 * @p index and asks that select() with tick_nohz_tick_stopped() false and
 * delta_next the time to the next tick (or the timer, if sooner), as
 * do_idle() would have passed with the tick running; the governor's state
 * is the one the real select saw. The result's entry is the real entry's
 * record; its selection and reasoning are the what-if's. An Error for a
 * governor built from source (its host replays the stream on its own and
 * cannot be asked twice), an index past the run, or an entry selected with
 * the tick running (nothing to ask).
 */
Result<EntryReasoning> reasoningWithTickRunning(const IdleStateTable &table, const IdleStream &stream,
                                                const std::string &variant, const std::vector<TunableSetting> &settings,
                                                std::int64_t index, Ns latencyLimitNs = NO_LATENCY_REQ);

} // namespace idlescope
