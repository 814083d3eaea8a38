// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workloads/rng.h"

#include <algorithm>
#include <cmath>

namespace idlescope::workloads {

Rng::Rng(std::uint64_t seed)
{
    std::uint64_t s = seed;
    for (std::uint64_t &w : m_s)
        w = splitMix64(s);
}

bool Rng::chancePpm(std::int64_t ppm)
{
    if (ppm <= 0)
        return false;
    if (ppm >= 1000000)
        return true;
    return static_cast<std::int64_t>(below(1000000)) < ppm;
}

double Rng::unit()
{
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

Ns Rng::exponential(Ns meanNs)
{
    if (meanNs <= 0)
        return 0;
    // 1 - unit() is in (0, 1], so the log is finite.
    const double x = -std::log(1.0 - unit()) * static_cast<double>(meanNs);
    constexpr double kCap = 4.0e15; // about 46 days: far beyond any idle span
    return static_cast<Ns>(std::llround(std::min(x, kCap)));
}

Ns Rng::jitter(Ns value, Ns jitterNs, Ns floor)
{
    if (jitterNs <= 0)
        return std::max(value, floor);
    return std::max(value + range(-jitterNs, jitterNs), floor);
}

} // namespace idlescope::workloads
