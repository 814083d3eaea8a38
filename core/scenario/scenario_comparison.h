// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_comparison.h
 * A scenario on one CPU as the comparison `idlescope-cli compare` runs: the
 * one place that says which table, spans, governors and settings a scenario
 * compares, so that the CLI's table and a check of the window's "Copy as
 * command" in process are the same function's result.
 */
#pragma once

#include "core/common/error.h"
#include "core/experiments/comparison.h"
#include "core/scenario/scenario.h"

#include <optional>

namespace idlescope::scenario {

/**
 * The one-CPU comparison of @p s: s.table at s.tickHz when set, with the wake delays of
 * s.wakeDelaysPath when given (applyWakeDelaysFile()); a Generator or Spec workload's
 * text generated at every point of its sweep, or the stream of a stream file or trace CPU
 * (@p stream when the front end has read it already, else workloadStream()) as a fixed stream
 * with s.latencyLimitNs on every span; the governors with their settings (--governors and
 * --set as settingTexts() writes them); the seed and span count. Three iterations of a
 * generated workload, one of a fixed stream, as compare's defaults. A closed loop, a machine
 * and a text that does not parse are refused (field "workload", "machine").
 */
Result<experiments::CompareOptions> oneCpuComparison(const Scenario &s, std::optional<IdleStream> stream = {});

} // namespace idlescope::scenario
