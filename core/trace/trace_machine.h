// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_machine.h
 * A trace as a machine workload, and the kernel's own choices as a run.
 *
 * traceWorkload(): every CPU's exported spans (trace_stream.h) on a common
 * time axis (0 = the trace's earliest event), CPUs without a span to replay
 * kept with the reason (their span account, or "no events").
 *
 * recordedRun(): the states the kernel entered (cpu_idle values, measured
 * residencies) as a MachineRun named "recorded". Its CPUs count like with
 * like: the complete entries of the rows the simulated runs replay (the
 * exported spans, recorded_entries.h), over the time those rows cover (their
 * gaps and stays), so that entries, idle time and energy compare over the
 * same spans and the same time. Its wholeTrace holds the counters of
 * computeStats() (trace_stats.h) for every complete entry of the trace, a
 * separate line. Above/below come from cpu_idle_miss when the trace has it,
 * otherwise recomputed with the kernel's rule against each CPU's cluster
 * table (missSource says which). Wakeups and latency cost are counted with
 * the simulated runs' rule (an entry ending at a task's wakeup that was not
 * its row's own timer costs the exit latency of its state).
 */
#pragma once

#include "core/machine/machine.h"
#include "core/machine/machine_run.h"
#include "core/machine/machine_workload.h"
#include "core/trace/trace_model.h"

#include <string>

namespace idlescope::trace {

MachineWorkload traceWorkload(const TraceImport &trace, const std::string &label);

/// Fills every CPU's CpuStream::spanStartNs of @p workload (traceWorkload() of @p trace) with
/// its spans' trace timestamps from the trace's earliest event, so that simulated entry
/// intervals are drawn at the time of the span they belong to, as the recorded run's are
/// (the window's per-CPU lanes; the CLI keeps each replay's own clock).
void placeOnTraceClock(MachineWorkload &workload, const TraceImport &trace);

/// @p governor names the governor that ran (empty: the trace does not say); it goes into the label.
/// CPUs the machine lacks are skipped with that reason.
MachineRun recordedRun(const TraceImport &trace, const Machine &machine, const std::string &governor,
                       bool keepIntervals);

} // namespace idlescope::trace
