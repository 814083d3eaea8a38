// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file spec_workload.h
 * The workload kind "spec": a workload written in the command line's spec
 * grammar (core/workloads/workload_spec.h: `a + b`, `mix(...)`), held in
 * WorkloadSpec::params as "spec" (the text), "spans" and "seed". Its stream is
 * the one `idlescope-cli replay --workload TEXT --spans N --seed S` replays
 * (and compare's first iteration): point 0 of the parsed spec with the run
 * seed runSeed(S, 0, 0). A spec that sweeps a parameter is refused: the window
 * shows one workload. With "loop" = "closed" the text is a closed loop instead,
 * as for `idlescope-cli compare --closed-loop` (closed_loop_workload.h).
 */
#pragma once

#include "core/common/error.h"
#include "core/stream/idle_span.h"
#include "widgets/runner/scenario_spec.h"

#include <QString>
#include <QVariantMap>

namespace idlescope {

/// WorkloadSpec::kind of a spec-text workload.
inline constexpr const char *SPEC_WORKLOAD_KIND = "spec";

/// "spec" (an overlay of two generators, to show the grammar), "spans" 200000, "seed" 1.
QVariantMap specWorkloadDefaults();

/// Why @p text cannot be simulated (the parser's message with its column, or a sweep), or "".
/// @p closedLoop: the text is a closed loop (params "loop" = "closed"), parsed as such.
QString specWorkloadRefusal(const QString &text, bool closedLoop = false);

/// The spans of the spec workload @p w (kind "spec"). Errors: field "spec", "spans" or "seed".
Result<IdleStream> specWorkloadStream(const WorkloadSpec &w);

/// Kind "spec" with params "loop" = "closed": the text is a closed loop (closed_loop_workload.h).
bool isClosedLoopWorkload(const WorkloadSpec &w);

/// Why @p text is not a closed loop the window can run (core's parser's message), or "".
QString closedLoopRefusal(const QString &text);

/// "spec: periodic:interval_us=100 + poisson:mean_us=500 · 200000 spans" (the seed is said apart, as for a generator).
QString describeSpecWorkload(const WorkloadSpec &w);

} // namespace idlescope
