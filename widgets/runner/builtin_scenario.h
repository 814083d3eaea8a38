// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file builtin_scenario.h
 * What the window simulates without any file, on top of core/targets (the
 * built-in tables) and core/workloads (the synthetic generators): table and
 * stream resolution for a ScenarioSpec, the governor colours, and the
 * default scenario shown on first start — the POWER10 LPAR table with IPI
 * wakeups every 100 us, menu v6.14 vs menu v6.19 (merged residency threshold) vs teo v6.14 and the
 * oracle.
 *
 * WorkloadSourceSpec conventions: WorkloadKind::Csv reads @c path (conformance
 * stream format); WorkloadKind::Trace imports the kernel trace at @c path
 * (ftrace text, trace-cmd .dat or report, perf script;
 * widgets/runner/trace_workload.h) and replays the idle spans of CPU @c cpu;
 * a Generator or a Spec is text in the command line's grammar
 * (widgets/runner/spec_workload.h), a ClosedLoop the runner's own
 * (closed_loop_workload.h).
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"
#include "core/stream/idle_span.h"
#include "widgets/runner/scenario_spec.h"

#include <QColor>
#include <QStringList>

namespace idlescope {

/// Id of the POWER10 LPAR table (snooze 0/0, CEDE 12/120 us, HZ 100).
inline constexpr const char *POWER10_TARGET_ID = "pseries-power10-lpar";

/// Built-in target ids (sorted), and one line describing each.
QStringList builtinTargetIds();
QString builtinTargetLabel(const QString &id);
/// The built-in table of @p id (aliases such as "pseries-p10" resolve), or an Error.
Result<IdleStateTable> builtinTable(const QString &id);

/// "periodic: kind ipi, interval 100 µs · 200000 spans" (non-default parameters shown).
QString describeWorkload(const WorkloadSourceSpec &w);

/// Resolves a workload into a stream (generator, stream file or trace). Errors name the
/// file/field. May take seconds (a trace import): SimulationRunner's worker calls it.
Result<IdleStream> buildStream(const WorkloadSourceSpec &w);

/// The colour of the n-th governor of a selection (the oracle has a neutral grey).
QColor governorColor(int n, const std::string &variant);

/// IPI wakeups every @p intervalUs us (the core "periodic" generator), @p spans spans,
/// uniform jitter of +- @p jitterUs us.
WorkloadSourceSpec periodicIpiWorkload(qint64 spans, qint64 intervalUs = 100, qint64 jitterUs = 0);

/// First start: POWER10 LPAR, IPI every 100 us, menu-6.14 vs menu-6.19 vs teo-6.14 + oracle
/// (only the variants that are registered; others fill in while a family is missing).
ScenarioSpec defaultScenario();

} // namespace idlescope
