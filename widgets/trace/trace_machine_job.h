// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_machine_job.h
 * Every CPU of a snapshot's trace through core's machine comparison
 * (core/experiments/machine_comparison.h): the snapshot's governors on every
 * CPU's exported spans, the kernel's recorded choices beside them, with each
 * entry's interval kept for the per-CPU lanes and each run's energy. The
 * window computes nothing itself: this only builds the options from the
 * snapshot (its table, governors and settings, and the trace import the
 * snapshot already holds, so that no CPU switch imports the file again).
 *
 * The machine is the built-in board of the snapshot's table when there is one
 * (arm-juno-r0: juno-r0, with its CPU clusters and energy model), otherwise
 * that table on every CPU of the trace. Runs in a worker thread.
 */
#pragma once

#include "core/common/error.h"
#include "core/experiments/machine_comparison.h"
#include "core/trace/cpu_table.h"
#include "core/trace/trace_agreement.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QString>

#include <atomic>

namespace idlescope {

/**
 * The machine every CPU of @p snap's trace replays on: machineOfTable() of the snapshot's
 * table (the built-in board of a built-in table, else the table on the trace's CPUs with
 * @p tablePower, a table file's power data). The one source of energy of the window: the CPUs
 * dock replays it, and the one-CPU views (comparison table, trade-off) price the replayed CPU
 * with its cluster's power data (SimulationSnapshot::power).
 */
Machine traceReplayMachine(const SimulationSnapshot &snap, const PowerModel &tablePower);

/// What compareTraceMachine() depends on in @p snap: equal keys, equal results ("" without a trace).
QString traceMachineKey(const SimulationSnapshot &snap);

/// Errors: a snapshot without a trace, cancellation, and those of runMachineComparison().
Result<MachineComparison> compareTraceMachine(const SimulationSnapshot &snap, const std::atomic<bool> *cancel);

/// One governor's agreement with the kernel's recorded choices (core/trace/trace_agreement.h),
/// under the run's name in the comparison (the governor's name in the window).
using GovernorAgreement = trace::RunAgreement;

/**
 * Each built-in governor of @p snap against the recorded run of its trace on @p machine
 * (the comparison's, so the machine's own tables), keeping @p keep disagreements. Empty
 * when the snapshot shows no recorded run, or applies a latency limit (the agreement is of
 * the trace's own rows; the note says so).
 */
std::vector<GovernorAgreement> traceMachineAgreement(const SimulationSnapshot &snap, const Machine &machine,
                                                     std::size_t keep = 5);

} // namespace idlescope
