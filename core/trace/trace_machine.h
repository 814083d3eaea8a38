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
 * residencies) as a MachineRun named "recorded", with the counters of
 * computeStats() (trace_stats.h) per CPU: above/below from cpu_idle_miss when
 * the trace has it, otherwise recomputed with the kernel's rule against each
 * CPU's cluster table (missSource says which). Wakeups and latency cost are
 * counted on the exported spans with the simulated runs' rule (a span not
 * ended by its own timer costs the exit latency of the state its last entry
 * was in), so the columns compare like for like.
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
