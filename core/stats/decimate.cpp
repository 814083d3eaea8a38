// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/decimate.h"

#include <algorithm>
#include <array>

namespace idlescope {

std::int64_t TimeWindow::columnOf(Ns t) const
{
    const Ns width = endNs - startNs;
    const Ns off = t - startNs;
    // (off * columns) can overflow int64 for windows of hours at ns resolution
    // and thousands of columns; long double keeps 64 bits of mantissa.
    const long double c = static_cast<long double>(off) * columns / static_cast<long double>(width);
    std::int64_t ci = static_cast<std::int64_t>(c);
    if (static_cast<long double>(ci) > c)
        --ci; // floor for negative offsets
    if (ci < -1)
        return -1;
    if (ci > columns)
        return columns;
    return ci;
}

Ns TimeWindow::columnStartNs(std::int64_t c) const
{
    const long double w = static_cast<long double>(endNs - startNs);
    return startNs + static_cast<Ns>(w * static_cast<long double>(c) / columns);
}

std::pair<std::size_t, std::size_t> visibleIndexRange(std::span<const Ns> keys, Ns startNs,
                                                      Ns endNs, bool withNeighbours)
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

std::int64_t lastIndexAtOrBefore(std::span<const Ns> keys, Ns t)
{
    auto it = std::upper_bound(keys.begin(), keys.end(), t);
    return static_cast<std::int64_t>(it - keys.begin()) - 1;
}

namespace detail {

void flushColumn(std::vector<DecimatedPoint> &out, const DecimatedPoint (&pts)[4])
{
    // min and max may be in either order; first and last bracket them.
    DecimatedPoint mid[2] = {pts[1], pts[2]};
    if (mid[1].t < mid[0].t)
        std::swap(mid[0], mid[1]);
    const DecimatedPoint seq[4] = {pts[0], mid[0], mid[1], pts[3]};
    for (const DecimatedPoint &p : seq) {
        if (!out.empty() && out.back().t == p.t && out.back().v == p.v)
            continue;
        out.push_back(p);
    }
}

} // namespace detail

std::vector<StateColumn> summariseStates(std::span<const Ns> keys, std::span<const std::int8_t> states,
                                         std::span<const Ns> durations, const TimeWindow &window,
                                         bool withNeighbours)
{
    std::vector<StateColumn> out;
    std::array<Ns, CPUIDLE_STATE_MAX> weight{};
    auto closeColumn = [&] {
        StateColumn &col = out.back();
        Ns best = -1;
        for (int s = col.minState; s <= col.maxState; ++s)
            if (weight[static_cast<std::size_t>(s)] > best) {
                best = weight[static_cast<std::size_t>(s)];
                col.dominantState = s;
            }
        weight.fill(0);
    };
    const auto [first, last] = visibleIndexRange(keys, window.startNs, window.endNs, withNeighbours);
    for (std::size_t i = first; i < last && i < states.size(); ++i) {
        const int s = std::clamp<int>(states[i], 0, CPUIDLE_STATE_MAX - 1);
        const std::int64_t c = window.columnOf(keys[i]);
        if (out.empty() || out.back().column != c) {
            if (!out.empty())
                closeColumn();
            out.push_back(StateColumn{c, keys[i], s, s, s, s, s, 0});
        } else {
            StateColumn &col = out.back();
            if (s != col.lastState)
                ++col.transitions;
            col.lastState = s;
            col.minState = std::min(col.minState, s);
            col.maxState = std::max(col.maxState, s);
        }
        weight[static_cast<std::size_t>(s)] += durations.empty() ? 1 : std::max<Ns>(durations[i], 0);
    }
    if (!out.empty())
        closeColumn();
    return out;
}

} // namespace idlescope
