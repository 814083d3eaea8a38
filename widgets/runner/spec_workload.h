// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file spec_workload.h
 * Workloads written as text (WorkloadSourceSpec::text): a generator (WorkloadKind::Generator,
 * one generator with every parameter written out, which the panel's form edits field by
 * field) or a compound spec (WorkloadKind::Spec: `a + b`, `mix(...)`) in the command line's
 * grammar (core/workloads/workload_spec.h), with WorkloadSourceSpec::spans and seed. Their stream
 * is the one `idlescope-cli replay --workload TEXT --spans N --seed S` replays (and
 * compare's first iteration): point 0 of the parsed text with the run seed runSeed(S, 0,
 * 0). A text that sweeps a parameter is refused: the window shows one workload. A closed
 * loop (WorkloadKind::ClosedLoop) holds the text of `idlescope-cli compare --closed-loop`
 * instead (closed_loop_workload.h).
 */
#pragma once

#include "core/common/error.h"
#include "core/scenario/scenario.h"
#include "core/stream/idle_span.h"
#include "widgets/runner/scenario_spec.h"

#include <QString>

namespace idlescope {

namespace workloads {
struct GeneratorInfo;
struct ParamValues;
} // namespace workloads

/// The compound spec a new Spec workload starts from: an overlay of two generators, to show the grammar.
QString defaultSpecText();
/// A Spec workload of defaultSpecText(), DEFAULT_WORKLOAD_SPANS spans, seed 1.
WorkloadSourceSpec defaultSpecWorkload();

/// Why @p text cannot be simulated (the parser's message with its column, or a sweep), or "".
/// @p closedLoop: the text is a closed loop, parsed as such.
QString specWorkloadRefusal(const QString &text, bool closedLoop = false);

/// The most spans the window generates for a text workload of kind @p kind (Generator or Spec).
qint64 maxWorkloadSpans(WorkloadKind kind);

/// The spans of the text workload @p w (Generator or Spec; a Generator of an old session with its
/// legacy seeding, workload_seeding.h). Errors: field "spec", "spans" or "seed".
Result<IdleStream> specWorkloadStream(const WorkloadSourceSpec &w);

/// Why @p text is not a closed loop the window can run (core's parser's message), or "".
QString closedLoopRefusal(const QString &text);

/// "spec: periodic:interval_us=100 + poisson:mean_us=500 · 200000 spans" (the seed is said apart, as for a
/// generator); "closed loop: io:service_us=50,work_us=10" for a closed loop.
QString describeSpecWorkload(const WorkloadSourceSpec &w);

/// The generator a Generator workload's text names ("periodic" of "periodic:kind=ipi,..."), or nullptr.
const workloads::GeneratorInfo *workloadGenerator(const WorkloadSourceSpec &w);

/// The parameters of the one-generator text @p text in held units, defaults filled in; an
/// Error (field "spec") for a text that is not one generator of one point.
Result<workloads::ParamValues> generatorValues(const std::string &text);

/// A Generator workload of @p g at its defaults, @p spans spans, seed @p seed (no description).
WorkloadSourceSpec generatorWorkload(const workloads::GeneratorInfo &g, qint64 spans = DEFAULT_WORKLOAD_SPANS,
                                     qint64 seed = 1);

} // namespace idlescope
