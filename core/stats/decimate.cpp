// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/decimate.h"

#include <algorithm>
#include <array>
#include <limits>

namespace idlescope {

// (t - start) * columns overflows int64 for windows of hours at ns resolution
// and thousands of columns, so the products are taken in 128 bits.
namespace {
__extension__ using Int128 = __int128;
} // namespace

std::int64_t TimeWindow::columnOf(Ns t) const
{
    if (t < startNs)
        return -1;
    if (t >= endNs)
        return columns;
    const Int128 c = static_cast<Int128>(t - startNs) * columns / (endNs - startNs);
    return static_cast<std::int64_t>(c);
}

Ns TimeWindow::columnStartNs(std::int64_t c) const
{
    const Int128 width = endNs - startNs;
    // ceil(width * c / columns): the smallest offset whose column is c.
    return startNs + static_cast<Ns>((width * c + columns - 1) / columns);
}

Ns TimeWindow::columnEndNs(std::int64_t c) const
{
    if (c < 0)
        return startNs;
    if (c >= columns)
        return std::numeric_limits<Ns>::max();
    return columnStartNs(c + 1);
}

std::pair<std::size_t, std::size_t> visibleIndexRange(std::span<const Ns> keys, Ns startNs, Ns endNs,
                                                      bool withNeighbours)
{
    auto lo = std::lower_bound(keys.begin(), keys.end(), startNs);
    auto hi = std::lower_bound(lo, keys.end(), endNs);
    std::size_t first = static_cast<std::size_t>(lo - keys.begin());
    std::size_t last = static_cast<std::size_t>(hi - keys.begin());
    if (withNeighbours) {
        if (first > 0)
            --first;
        if (last < keys.size())
            ++last;
    }
    return {first, last};
}

std::vector<std::size_t> flaggedEntryPerColumn(std::span<const Ns> keys, std::span<const std::uint16_t> flags,
                                               std::uint16_t mask, const TimeWindow &window)
{
    std::vector<std::size_t> out;
    const auto [first, last] = visibleIndexRange(keys, window.startNs, window.endNs, false);
    std::int64_t lastColumn = -2;
    for (std::size_t i = first; i < std::min(last, flags.size()); ++i) {
        if (!(flags[i] & mask))
            continue;
        const std::int64_t c = window.columnOf(keys[i]);
        if (c == lastColumn)
            continue;
        lastColumn = c;
        out.push_back(i);
    }
    return out;
}

std::int64_t lastIndexAtOrBefore(std::span<const Ns> keys, Ns t)
{
    auto it = std::upper_bound(keys.begin(), keys.end(), t);
    return static_cast<std::int64_t>(it - keys.begin()) - 1;
}

namespace detail {

void flushColumn(std::vector<DecimatedPoint> &out, const ValueSummary &s)
{
    // min and max may be in either order; first and last bracket them.
    DecimatedPoint mid[2] = {s.min, s.max};
    if (mid[1].t < mid[0].t)
        std::swap(mid[0], mid[1]);
    for (const DecimatedPoint &p : {s.first, mid[0], mid[1], s.last}) {
        if (!out.empty() && out.back().t == p.t && out.back().v == p.v)
            continue;
        out.push_back(p);
    }
}

} // namespace detail

std::vector<StateColumn> summariseStates(std::span<const Ns> keys, std::span<const std::int8_t> states,
                                         std::span<const Ns> durations, const TimeWindow &window, bool withNeighbours,
                                         const StateLod *lod)
{
    std::vector<StateColumn> out;
    auto scan = [&](StateSummary &s, std::size_t from, std::size_t to) {
        for (std::size_t k = from; k < to; ++k)
            s.add(std::clamp<int>(states[k], 0, CPUIDLE_STATE_MAX - 1),
                  durations.empty() ? 1 : std::max<Ns>(durations[k], 0));
    };
    const auto [first, last] = visibleIndexRange(keys, window.startNs, window.endNs, withNeighbours);
    forEachColumn(keys, first, std::min(last, states.size()), window,
                  [&](std::int64_t c, std::size_t i, std::size_t j) {
                      StateSummary s;
                      detail::summariseColumn(s, i, j, lod, scan);
                      StateColumn col{c, keys[i], s.first, s.last, s.min, s.max, s.min, s.transitions};
                      Ns best = -1;
                      for (int st = s.min; st <= s.max; ++st)
                          if (s.weight[static_cast<std::size_t>(st)] > best) {
                              best = s.weight[static_cast<std::size_t>(st)];
                              col.dominantState = st;
                          }
                      out.push_back(col);
                  });
    return out;
}

} // namespace idlescope
