// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file run_lod.h
 * The chunk summaries (series_lod.h) of the columns a run's time plots draw:
 * predicted idle duration and measured residency (kept where > 0, for a log
 * axis), the cumulative idle-miss ratio in percent, and the state series
 * weighted by residency. Built once per run, off the GUI thread.
 */
#pragma once

#include "core/replay/governor_run.h"
#include "core/stats/run_counts.h"
#include "core/stats/series_lod.h"

namespace idlescope {

struct RunLod {
    ValueLod predicted; ///< GovernorRun::predictedNs where > 0
    ValueLod residency; ///< GovernorRun::residencyNs where > 0
    ValueLod missRatio; ///< 100 * missesThrough(i) / (i + 1)
    StateLod states;    ///< GovernorRun::state weighted by residencyNs

    RunLod() = default;
    /// @p counts must have been built from @p run.
    RunLod(const GovernorRun &run, const RunCounts &counts);

    /// The two halves of the constructor, for building them on two threads:
    /// everything but missRatio (needs only the run) ...
    static RunLod fromRun(const GovernorRun &run);
    /// ... and missRatio (needs the prefix counts).
    void setMissRatio(const GovernorRun &run, const RunCounts &counts);
};

/// The value plotted as the cumulative idle-miss ratio at entry @p i (percent).
inline double missRatioPercent(const RunCounts &counts, std::size_t i)
{
    return 100.0 * counts.missesThrough(i) / static_cast<double>(i + 1);
}

} // namespace idlescope
