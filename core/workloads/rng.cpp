// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workloads/rng.h"

#include <algorithm>
#include <cmath>

namespace idlescope::workloads {

namespace {

constexpr std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/// The full 128-bit product of two 64-bit values, as (high, low), in portable C++.
void mul64(std::uint64_t a, std::uint64_t b, std::uint64_t &hi, std::uint64_t &lo)
{
    const std::uint64_t aL = a & 0xffffffffULL, aH = a >> 32;
    const std::uint64_t bL = b & 0xffffffffULL, bH = b >> 32;
    const std::uint64_t ll = aL * bL, lh = aL * bH, hl = aH * bL, hh = aH * bH;
    const std::uint64_t mid = (ll >> 32) + (lh & 0xffffffffULL) + (hl & 0xffffffffULL);
    lo = (mid << 32) | (ll & 0xffffffffULL);
    hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

} // namespace

Rng::Rng(std::uint64_t seed)
{
    std::uint64_t s = seed;
    for (std::uint64_t &w : m_s)
        w = splitMix64(s);
}

std::uint64_t Rng::next()
{
    // xoshiro256**: the scrambler and the linear engine, as published.
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

std::uint64_t Rng::below(std::uint64_t n)
{
    // The high half of a 64x64 product maps next() onto [0, n); draws that
    // fall in the short leftover range are rejected so every value is equally likely.
    std::uint64_t high = 0, low = 0;
    mul64(next(), n, high, low);
    if (low < n) {
        const std::uint64_t threshold = (0 - n) % n;
        while (low < threshold)
            mul64(next(), n, high, low);
    }
    return high;
}

std::int64_t Rng::range(std::int64_t lo, std::int64_t hi)
{
    if (hi <= lo)
        return lo;
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
    if (span == 0) // the full 64-bit range
        return static_cast<std::int64_t>(next());
    return lo + static_cast<std::int64_t>(below(span));
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
