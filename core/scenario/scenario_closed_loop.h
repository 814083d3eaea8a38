// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_closed_loop.h
 * A closed-loop scenario run, once for the CLI (compare --closed-loop) and the
 * window: the loop read from the scenario's workload text, its seed checked,
 * every governor instance run with its settings on a machine of its own, and
 * each run named by its instance (a second instance under its label), so that
 * the two front ends cannot run one scenario two ways.
 */
#pragma once

#include "core/common/error.h"
#include "core/experiments/closed_loop.h"
#include "core/machine/machine.h"
#include "core/scenario/scenario.h"

#include <string>
#include <vector>

namespace idlescope::scenario {

/// What a closed loop's machine runs on the CPUs outside the loop unless told otherwise
/// (compare --background's default, and the window's): an idle system's housekeeping.
inline constexpr const char *DEFAULT_CLOSED_LOOP_BACKGROUND = "idle";

/**
 * Which of @p machine's CPUs run @p background beside @p loop, in the words compare --closed-loop
 * says it ("CPUs 1..5 run the background 'idle'"), so that the window says the same: "" when the
 * loop takes every CPU or @p background is "none" (then there is none).
 */
std::string backgroundNote(const Machine &machine, const ClosedLoopSpec &loop, const std::string &background);

/// The loop of @p s (a ClosedLoop workload's text, parseClosedLoopSpec()); another kind or a
/// negative seed is refused, naming "workload" or "seed".
Result<ClosedLoopSpec> closedLoopOf(const Scenario &s);

/**
 * @p loop (closedLoopOf(@p s)) run by every governor instance of @p s on @p machine, seeded
 * with s.workload.seed, on up to @p threads threads; each run's governor is the instance's
 * name(). @p watch, when given, follows and may stop it; @p background, when given, runs on
 * the machine's CPUs outside the loop (runClosedLoop()).
 */
Result<std::vector<ClosedLoopRun>> runClosedLoopScenario(const Scenario &s, const ClosedLoopSpec &loop,
                                                         const Machine &machine, int threads,
                                                         const ClosedLoopWatch *watch = nullptr,
                                                         const workloads::WorkloadSpec *background = nullptr);

} // namespace idlescope::scenario
