// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_result.h
 * What one simulation made for one governor: its run and everything built
 * from it on the runner's worker (prefix counts, plot summaries, the
 * comparison table's totals, throughput), with how every view shows it (name,
 * colour, the defaults badge, a stale source file, a closed loop's figures).
 * SimulationSnapshot holds one per governor that ran, in display order.
 *
 * A runner fills every field. A snapshot made by hand (tests, benchmarks)
 * needs only `run`; the others behave as follows when left as they are:
 * `name` empty gives the variant id (displayName()); `color` invalid makes
 * each view use its own fallback (gray in a figure's legend, black in the
 * inspector); `atDefaults` true (no badge); `counts` and `lod` empty make the
 * governor unsummarised (summarised()), and the plots and the legend then show
 * no snapshot at all; `totals` and `throughput` unset make the comparison
 * table compute them from the run; `stale` empty is up to date; `closedLoop`
 * unset is an open-loop workload.
 */
#pragma once

#include "core/experiments/closed_loop.h"
#include "core/replay/governor_run.h"
#include "core/stats/governor_totals.h"
#include "core/stats/run_counts.h"
#include "core/stats/run_lod.h"
#include "core/stats/run_throughput.h"

#include <QColor>
#include <QString>

#include <memory>
#include <optional>
#include <string>

namespace idlescope {

struct GovernorResult {
    /// A run is held through a shared_ptr so that a run whose inputs did not
    /// change, or whose replay made every entry of it again, is shared with the
    /// previous snapshot instead of copied (tens of MB per million entries);
    /// nothing ever modifies it.
    using RunPtr = std::shared_ptr<const GovernorRun>;

    /// The replay (or a trace's recorded choices, or a closed loop's summary run, which
    /// keeps no entries). Never null in a snapshot.
    RunPtr run;
    /// The name in every view (legend, lanes, table rows, inspector, exports):
    /// GovernorSpec::name(), a second instance's label, else the variant id.
    std::string name;
    /// The colour of the run in every view.
    QColor color;
    /// The run used only kernel-default tunables (no badge).
    bool atDefaults = true;
    /// This snapshot replayed the governor (its run may still be the previous snapshot's when the
    /// replay made every entry of it again); false for a run shared because its inputs did not change.
    bool replayed = false;
    /// Prefix totals of the run (per-state usage/above/below/time up to any entry).
    RunCounts counts;
    /// Chunk summaries of the run's plotted columns (decimation without full scans).
    RunLod lod;
    /// The comparison table's totals of the run, built on the worker so that showing a
    /// snapshot scans no run on the GUI thread.
    std::optional<GovernorTotals> totals;
    /// The run's duration, wakeups per second and energy on the snapshot's `power`
    /// (run_throughput.h), as `idlescope-cli compare --throughput` counts them; a recorded
    /// run's is zero (no replay clock).
    std::optional<RunThroughput> throughput;
    /// When not empty: the run is the last good run of a governor built from source whose
    /// file no longer builds or runs, and this is why (the compiler's or the governor
    /// host's message).
    QString stale;
    /// A closed-loop workload (closed_loop_workload.h): the run's loop, its operations per
    /// second and added latency as `idlescope-cli compare --closed-loop` prints them, on
    /// SimulationSnapshot::closedLoopMachine. Unset for every other workload.
    std::optional<ClosedLoopRun> closedLoop;

    /// `name`, or the run's variant id when a hand-made snapshot left it empty.
    const std::string &displayName() const { return name.empty() ? run->variant : name; }
    /// True when `counts` (and so `lod`, built with them) cover every entry of the run.
    bool summarised() const { return counts.size() == run->size(); }
};

} // namespace idlescope
