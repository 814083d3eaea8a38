// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file build_snapshot.h
 * The runner's job as a function: a ScenarioSpec in, an immutable
 * SimulationSnapshot out, on the calling thread (SimulationRunner calls it on
 * its worker; tests and benches call it directly).
 */
#pragma once

#include "widgets/runner/job_progress.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QString>

#include <atomic>
#include <memory>

namespace idlescope {

/// What buildSnapshot() made: a snapshot, or why there is none.
struct SnapshotBuild {
    std::shared_ptr<SimulationSnapshot> snapshot; ///< null when cancelled or failed
    QString error;                                ///< why it failed (names file, line and field); empty when cancelled
    bool cancelled = false;                       ///< the cancel flag was raised before the snapshot was whole
};

/**
 * Replays every governor of @p spec on its target and workload, with each run's
 * prefix counts, plot summaries, totals and throughput (snapshot generation 0: the
 * caller numbers it). A governor of @p previous (may be null) whose inputs did not
 * change (same stream, a table that decides alike, latency limit, variant, settings
 * and source file) is shared with it, not replayed; a governor that is replayed and makes
 * every entry of its run in @p previous (RunOptions::base: the same variant on the same
 * stream) keeps that run's entries and summaries. @p progress, when given, hears how
 * far each fresh run has come; raising @p cancel stops the replays at their next step.
 * Governors that cannot run are named in the snapshot's errors; the others run.
 * Keeps the last workload's stream (a latency-limit change does not re-read a file)
 * and takes run columns from RunRecycler.
 */
SnapshotBuild buildSnapshot(const ScenarioSpec &spec, const SnapshotPtr &previous, const std::atomic<bool> &cancel,
                            JobProgress *progress = nullptr);

} // namespace idlescope
