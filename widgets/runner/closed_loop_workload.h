// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file closed_loop_workload.h
 * A closed-loop workload in the window (core/experiments/closed_loop.h):
 * WorkloadKind::ClosedLoop, its text written as for `idlescope-cli compare
 * --closed-loop TEXT` (for example `io:service_us=50,work_us=10,iodepth=4`)
 * and its seed compare's --seed. The
 * runner's worker runs every governor's loop with runClosedLoop(), as compare
 * does, on the target table with as many CPUs as the loop needs and the
 * table's power data (compare --table), or on the board of a board's built-in
 * table, its other CPUs running the default background (compare --machine
 * juno-r0; a loop wider than the board is refused as there); the snapshot's comparison table and Trade-off view then
 * show the operations per second and the added latency (mean, p99) next to
 * the misses and energy. A loop's spans are made as it runs, different for
 * each governor, so its runs keep no entries and the per-entry views stay
 * empty. (The text's check is spec_workload.h's.)
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"
#include "widgets/runner/spec_workload.h"

#include <QString>

#include <atomic>

namespace idlescope {

class JobProgress;

/**
 * Fills @p snap (its spec, table and power already set) with one run per governor of
 * the closed loop of @p spec's workload: runs (summaries only), counts, lods, totals,
 * throughput, closedLoop; an empty stream. Says how many operations each governor has
 * done through @p progress; stops when @p cancel is raised (error "cancelled").
 * Errors (in @p error, false returned): the spec's parse error, too few CPUs (a board's:
 * closedLoopFits(), compare --machine's words), a governor
 * that cannot run a closed loop (built from source).
 */
bool simulateClosedLoop(SimulationSnapshot &snap, const std::atomic<bool> &cancel, JobProgress *progress,
                        QString *error);

} // namespace idlescope
