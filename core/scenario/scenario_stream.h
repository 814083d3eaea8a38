// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_stream.h
 * One CPU's idle spans from a scenario's workload source: the one place that
 * says how a spec text, a stream file or a trace becomes the stream the
 * engine replays (idlescope-cli replay / diff-governors / compare, and the
 * window's one-CPU runs).
 *
 * Errors name the scenario's fields, as core names them: "workload" (the spec
 * text), "spans", "seed", "cpu", or the file. A front end says them in its own
 * terms (the CLI's options, the window's fields).
 */
#pragma once

#include "core/common/error.h"
#include "core/scenario/scenario.h"
#include "core/stream/idle_span.h"
#include "core/workloads/workload_spec.h"

#include <string_view>

namespace idlescope::scenario {

/// The parsed spec @p text when it is one workload point; a sweep is refused (field
/// "workload": "sweeps 3 points of interval_us; give it one value (one stream)").
Result<workloads::WorkloadSpec> parseOnePoint(std::string_view text);

/// The stream of a Generator or Spec source: point 0, iteration 0 of its text with its seed
/// (seededStream(), as compare's first iteration), or the legacy seeding of old sessions.
Result<IdleStream> generatedStream(const WorkloadSource &w);

/// The stream of @p w on one CPU: generated, read from the stream file, or the trace's CPU
/// (imported here; scenario_trace.h for a front end that keeps its import). A closed loop
/// has none: it makes its spans as it runs.
Result<IdleStream> workloadStream(const WorkloadSource &w);

} // namespace idlescope::scenario
