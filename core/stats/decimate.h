// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file decimate.h
 * Level-of-detail reduction for plotting, after KernelShark's visualisation
 * model (libkshark-model.c): the visible time window is cut into one bin per
 * pixel column and each bin keeps only the points that change what the
 * column looks like — the first, the minimum, the maximum and the last, in
 * time order. A line, step or scatter series drawn from those points is
 * pixel-identical in its envelope to the full series, and costs O(columns)
 * to draw however many entries the run has.
 *
 * Plain C++: no Qt. Keys are int64 ns (sorted ascending); values are any
 * arithmetic type read through an accessor, so one function serves residency
 * columns, state columns and derived ratios without copying them.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace idlescope {

/// A visible window [startNs, endNs) cut into @c columns equal bins (one per pixel column).
struct TimeWindow {
    Ns startNs = 0;
    Ns endNs = 1;     ///< > startNs
    int columns = 1;  ///< >= 1

    /// Bin of time @p t: floor((t - start) * columns / (end - start)); may be < 0 or >= columns.
    std::int64_t columnOf(Ns t) const;
    /// Time at which bin @p c starts.
    Ns columnStartNs(std::int64_t c) const;
};

/// One kept point: time and value, in time order.
struct DecimatedPoint {
    Ns t = 0;
    double v = 0.0;
};

/**
 * Indices [first, last) of the sorted @p keys that lie in [startNs, endNs),
 * widened by one entry on each side when @p withNeighbours (so a line or
 * step series reaches the window edges instead of stopping at the first
 * inside point). O(log n).
 */
std::pair<std::size_t, std::size_t> visibleIndexRange(std::span<const Ns> keys, Ns startNs,
                                                      Ns endNs, bool withNeighbours);

/// The largest index whose key is <= @p t, or -1 when every key is later (O(log n)).
std::int64_t lastIndexAtOrBefore(std::span<const Ns> keys, Ns t);

/**
 * First/min/max/last per pixel column of the entries [first, last) of a
 * series. @p keys are the sorted times; @p valueAt(i) gives entry i's value
 * as double, and @p keep(i) says whether entry i exists in this series (e.g.
 * "has a prediction", "value > 0 for a log axis"). Points before the window
 * fall into column -1 and points after it into column @c columns, so the
 * neighbours kept by visibleIndexRange() come out unchanged. Appends to
 * @p out (cleared first), at most 4 points per column, in time order.
 */
template <typename ValueAt, typename Keep>
void decimateMinMax(std::span<const Ns> keys, std::size_t first, std::size_t last,
                    const TimeWindow &window, ValueAt &&valueAt, Keep &&keep,
                    std::vector<DecimatedPoint> &out);

/// decimateMinMax() keeping every entry.
template <typename ValueAt>
void decimateMinMax(std::span<const Ns> keys, std::size_t first, std::size_t last,
                    const TimeWindow &window, ValueAt &&valueAt, std::vector<DecimatedPoint> &out)
{
    decimateMinMax(keys, first, last, window, valueAt, [](std::size_t) { return true; }, out);
}

/// What one pixel column of a state timeline shows (KernelShark's bin summary).
struct StateColumn {
    std::int64_t column = 0;
    Ns firstNs = 0;       ///< start of the first entry in the column
    int firstState = -1;  ///< state of the first entry starting in the column
    int lastState = -1;   ///< state of the last one
    int minState = -1;    ///< shallowest
    int maxState = -1;    ///< deepest
    int dominantState = -1; ///< the state holding most of the column's time (ties: the shallower)
    std::int32_t transitions = 0;  ///< state changes inside the column
};

/**
 * Per-column summary of a state column over the window; only columns that
 * contain an entry start appear (in column order). @p durations weight each
 * entry for dominantState (e.g. residencies); empty = every entry weighs 1.
 * States must be 0..CPUIDLE_STATE_MAX-1. With @p withNeighbours the entries
 * just outside the window come out as columns -1 and @c columns.
 */
std::vector<StateColumn> summariseStates(std::span<const Ns> keys, std::span<const std::int8_t> states,
                                         std::span<const Ns> durations, const TimeWindow &window,
                                         bool withNeighbours = false);

// ---------------------------------------------------------------------------

namespace detail {
/// Emits a column's first/min/max/last in time order without duplicates.
void flushColumn(std::vector<DecimatedPoint> &out, const DecimatedPoint (&pts)[4]);
} // namespace detail

template <typename ValueAt, typename Keep>
void decimateMinMax(std::span<const Ns> keys, std::size_t first, std::size_t last,
                    const TimeWindow &window, ValueAt &&valueAt, Keep &&keep,
                    std::vector<DecimatedPoint> &out)
{
    out.clear();
    if (last > keys.size())
        last = keys.size();
    bool open = false;
    std::int64_t col = 0;
    // first, min, max, last of the open column
    DecimatedPoint pts[4];
    for (std::size_t i = first; i < last; ++i) {
        if (!keep(i))
            continue;
        const Ns t = keys[i];
        const std::int64_t c = window.columnOf(t);
        const double v = static_cast<double>(valueAt(i));
        if (!open || c != col) {
            if (open)
                detail::flushColumn(out, pts);
            open = true;
            col = c;
            pts[0] = pts[1] = pts[2] = pts[3] = DecimatedPoint{t, v};
            continue;
        }
        if (v < pts[1].v)
            pts[1] = {t, v};
        if (v > pts[2].v)
            pts[2] = {t, v};
        pts[3] = {t, v};
    }
    if (open)
        detail::flushColumn(out, pts);
}

} // namespace idlescope
