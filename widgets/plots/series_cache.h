// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file series_cache.h
 * Decimated points of one plotted column of one run, remembered with what
 * they were decimated from. A snapshot shares every run whose inputs did not
 * change with the previous one (GovernorResult::run), and every run whose
 * replay made the same entries again, so after a slider release on one
 * governor the other governors' runs are the very same objects: their
 * points over the same window are still right and only the new runs' series
 * are decimated again (decimation is most of a replot's cost at a million
 * entries per run).
 */
#pragma once

#include "core/stats/decimate.h"
#include "widgets/runner/simulation_snapshot.h"

#include <vector>

namespace idlescope {

struct CachedSeries {
    /// The run the points came from, held so that a later run can never
    /// reuse its address and pass for it.
    GovernorResult::RunPtr run;
    TimeWindow window;
    /// Anything else the points depend on (e.g. a lane's base line).
    double offset = 0.0;
    std::vector<DecimatedPoint> points;

    /// Whether the points are those of @p r over @p w at @p off.
    bool isFor(const GovernorResult::RunPtr &r, const TimeWindow &w, double off = 0.0) const
    {
        return run && run == r && window.startNs == w.startNs && window.endNs == w.endNs && window.columns == w.columns
               && offset == off;
    }
    /// Remember that the points now are those of @p r over @p w at @p off.
    void setSource(GovernorResult::RunPtr r, const TimeWindow &w, double off = 0.0)
    {
        run = std::move(r);
        window = w;
        offset = off;
    }
};

/// The series of run @p r among @p old (moved out, so each is adopted once), or an empty one.
inline CachedSeries adoptCached(std::vector<CachedSeries> &old, const GovernorResult::RunPtr &r)
{
    for (CachedSeries &s : old)
        if (s.run && s.run == r)
            return std::move(s); // leaves s.run null: not adopted twice
    return {};
}

} // namespace idlescope
