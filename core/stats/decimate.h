// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file decimate.h
 * Level-of-detail reduction for plotting, after KernelShark's visualisation
 * model (libkshark-model.c): the visible time window is cut into one bin per
 * pixel column and each bin keeps only the points that change what the
 * column looks like — the first, the minimum, the maximum and the last, in
 * time order. A line, step or scatter series drawn from those points is
 * pixel-identical in its envelope to the full series, and costs O(columns)
 * to draw however many entries the run has. With a chunk summary
 * (series_lod.h) a column costs O(its chunks + 2 partial chunks) instead of
 * O(its entries), with the same result.
 *
 * Plain C++: no Qt. Keys are int64 ns (sorted ascending); values are any
 * arithmetic type read through an accessor, so one function serves residency
 * columns, state columns and derived ratios without copying them.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/stats/series_lod.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace idlescope {

/// A visible window [startNs, endNs) cut into @c columns equal bins (one per pixel column).
struct TimeWindow {
    Ns startNs = 0;
    Ns endNs = 1;    ///< > startNs
    int columns = 1; ///< >= 1

    /// Bin of time @p t: floor((t - start) * columns / (end - start)), clamped to [-1, columns]
    /// (-1: before the window, columns: after it). Exact integer arithmetic.
    std::int64_t columnOf(Ns t) const;
    /// The first time in bin @p c (0 <= c <= columns): columnOf(columnStartNs(c)) == c.
    Ns columnStartNs(std::int64_t c) const;
    /// The first time after bin @p c (c in [-1, columns]); the largest Ns for c == columns.
    Ns columnEndNs(std::int64_t c) const;
};

/**
 * Indices [first, last) of the sorted @p keys that lie in [startNs, endNs),
 * widened by one entry on each side when @p withNeighbours (so a line or
 * step series reaches the window edges instead of stopping at the first
 * inside point). O(log n).
 */
std::pair<std::size_t, std::size_t> visibleIndexRange(std::span<const Ns> keys, Ns startNs, Ns endNs,
                                                      bool withNeighbours);

/// The largest index whose key is <= @p t, or -1 when every key is later (O(log n)).
std::int64_t lastIndexAtOrBefore(std::span<const Ns> keys, Ns t);

/**
 * Calls @p column(c, i, j) for every pixel column that holds entries of
 * [first, last), in order: c is the column (-1 / columns for entries before
 * / after the window), [i, j) its entries. One binary search per column.
 */
template <typename Column>
void forEachColumn(std::span<const Ns> keys, std::size_t first, std::size_t last, const TimeWindow &window,
                   Column &&column)
{
    last = std::min(last, keys.size());
    std::size_t i = first;
    while (i < last) {
        const std::int64_t c = window.columnOf(keys[i]);
        const Ns end = window.columnEndNs(c);
        const auto j = static_cast<std::size_t>(std::lower_bound(keys.begin() + static_cast<std::ptrdiff_t>(i),
                                                                 keys.begin() + static_cast<std::ptrdiff_t>(last), end)
                                                - keys.begin());
        column(c, i, j);
        i = j;
    }
}

namespace detail {
/// Appends a column's first/min/max/last in time order without duplicates.
void flushColumn(std::vector<DecimatedPoint> &out, const ValueSummary &s);

/// Summarises the entries [i, j) of one pixel column into @p s: with a chunk summary @p lod
/// (may be null) and at least three chunks' worth of entries, the whole chunks inside come from
/// it and only the entries either side are read (@p scan(s, from, to)); otherwise all are read.
template <typename Summary, typename Lod, typename Scan>
void summariseColumn(Summary &s, std::size_t i, std::size_t j, const Lod *lod, Scan &&scan)
{
    constexpr std::size_t C = Lod::CHUNK;
    if (lod && !lod->empty() && j - i >= 3 * C) {
        const std::size_t c0 = (i + C - 1) / C, c1 = j / C; // whole chunks [c0, c1)
        scan(s, i, c0 * C);
        for (std::size_t c = c0; c < c1; ++c)
            s.merge(lod->chunk(c));
        scan(s, c1 * C, j);
    } else {
        scan(s, i, j);
    }
}
} // namespace detail

/**
 * First/min/max/last per pixel column of the entries [first, last) of a
 * series. @p keys are the sorted times; @p valueAt(i) gives entry i's value,
 * and @p keep(i) says whether entry i exists in this series (e.g. "has a
 * prediction", "value > 0 for a log axis"). Points before the window fall
 * into column -1 and points after it into column @c columns, so neighbours
 * kept by visibleIndexRange() come out unchanged. @p lod (may be null) is the
 * chunk summary of the same series. Fills @p out (cleared first) with at most
 * 4 points per column, in time order.
 */
template <typename ValueAt, typename Keep>
void decimateMinMax(std::span<const Ns> keys, std::size_t first, std::size_t last, const TimeWindow &window,
                    ValueAt &&valueAt, Keep &&keep, std::vector<DecimatedPoint> &out, const ValueLod *lod = nullptr)
{
    out.clear();
    auto scan = [&](ValueSummary &s, std::size_t from, std::size_t to) {
        for (std::size_t k = from; k < to; ++k)
            if (keep(k))
                s.add(keys[k], static_cast<double>(valueAt(k)));
    };
    forEachColumn(keys, first, last, window, [&](std::int64_t, std::size_t i, std::size_t j) {
        ValueSummary s;
        detail::summariseColumn(s, i, j, lod, scan);
        if (s.any)
            detail::flushColumn(out, s);
    });
}

/// decimateMinMax() keeping every entry.
template <typename ValueAt>
void decimateMinMax(std::span<const Ns> keys, std::size_t first, std::size_t last, const TimeWindow &window,
                    ValueAt &&valueAt, std::vector<DecimatedPoint> &out, const ValueLod *lod = nullptr)
{
    decimateMinMax(
        keys, first, last, window, valueAt, [](std::size_t) { return true; }, out, lod);
}

/// What one pixel column of a state timeline shows (KernelShark's bin summary).
struct StateColumn {
    std::int64_t column = 0;
    Ns firstNs = 0;               ///< start of the first entry in the column
    int firstState = -1;          ///< state of the first entry starting in the column
    int lastState = -1;           ///< state of the last one
    int minState = -1;            ///< shallowest
    int maxState = -1;            ///< deepest
    int dominantState = -1;       ///< the state holding most of the column's time (ties: the shallower)
    std::int32_t transitions = 0; ///< state changes inside the column
};

/**
 * Per-column summary of a state column over the window; only columns that
 * contain an entry start appear (in column order). @p durations weight each
 * entry for dominantState (e.g. residencies); empty = every entry weighs 1.
 * States must be 0..CPUIDLE_STATE_MAX-1. With @p withNeighbours the entries
 * just outside the window come out as columns -1 and @c columns. @p lod (may
 * be null) is the StateLod of the same states and durations.
 */
/**
 * The entries of the window whose @p flags have a bit of @p mask: per pixel
 * column, the index of the first such entry (in column order; O(entries in
 * the window)). For marks that must stay visible however far out a lane is
 * zoomed, e.g. the entries that an in-idle interrupt ended.
 */
std::vector<std::size_t> flaggedEntryPerColumn(std::span<const Ns> keys, std::span<const std::uint16_t> flags,
                                               std::uint16_t mask, const TimeWindow &window);

std::vector<StateColumn> summariseStates(std::span<const Ns> keys, std::span<const std::int8_t> states,
                                         std::span<const Ns> durations, const TimeWindow &window,
                                         bool withNeighbours = false, const StateLod *lod = nullptr);

} // namespace idlescope
