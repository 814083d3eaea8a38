// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file rng.h
 * The workload generators' random numbers: one independent stream per
 * generator, derived from (seed, stream index), with integer-only sampling so
 * that a seed gives byte-identical streams on every compiler and standard
 * library. (std::uniform_int_distribution and friends are not specified
 * bit for bit, so two standard libraries give two different streams.)
 *
 * Engine: xoshiro256** (Blackman and Vigna, 2018), state filled by SplitMix64.
 * The one floating-point draw is exponential(): it takes -log(u) of a 53-bit
 * uniform, rounded to whole nanoseconds; std::log is correctly rounded in
 * current glibc and musl, which is what the determinism tests rely on.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <cstdint>
#include <initializer_list>

namespace idlescope::workloads {

/// SplitMix64 step: the mixing function used to derive seeds (Steele et al., 2014).
constexpr std::uint64_t splitMix64(std::uint64_t &state)
{
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// Combines a seed with stream coordinates (point, iteration, generator index, ...).
constexpr std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0)
{
    std::uint64_t s = seed;
    std::uint64_t h = splitMix64(s);
    for (std::uint64_t v : {a, b, c}) {
        s = h ^ (v * 0xd1342543de82ef95ULL + 0x632be59bd9b4e019ULL);
        h = splitMix64(s);
    }
    return h;
}

/// A deterministic random stream. Not thread-safe; one per generator.
class Rng {
public:
    explicit Rng(std::uint64_t seed = 0);

    /// 64 uniform bits.
    std::uint64_t next();

    /// Uniform integer in [0, n); n > 0. Lemire's multiply-shift with rejection (unbiased).
    std::uint64_t below(std::uint64_t n);

    /// Uniform integer in [lo, hi] (inclusive); lo <= hi.
    std::int64_t range(std::int64_t lo, std::int64_t hi);

    /// True with probability ppm / 1,000,000.
    bool chancePpm(std::int64_t ppm);

    /// Uniform double in [0, 1) from 53 bits.
    double unit();

    /// Exponentially distributed duration with the given mean (ns), rounded to ns, >= 0.
    Ns exponential(Ns meanNs);

    /// value +/- up to jitter, uniform, clamped at >= floor.
    Ns jitter(Ns value, Ns jitterNs, Ns floor = 0);

private:
    std::uint64_t m_s[4];
};

namespace detail {

constexpr std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/// The full 128-bit product of two 64-bit values, as (high, low): the compiler's 128-bit type
/// where it has one (one instruction on x86-64 and arm64; a closed loop draws a timer per
/// idle period), else in portable C++. Both give the same bits.
inline void mul64(std::uint64_t a, std::uint64_t b, std::uint64_t &hi, std::uint64_t &lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
    hi = static_cast<std::uint64_t>(p >> 64);
    lo = static_cast<std::uint64_t>(p);
#else
    const std::uint64_t aL = a & 0xffffffffULL, aH = a >> 32;
    const std::uint64_t bL = b & 0xffffffffULL, bH = b >> 32;
    const std::uint64_t ll = aL * bL, lh = aL * bH, hl = aH * bL, hh = aH * bH;
    const std::uint64_t mid = (ll >> 32) + (lh & 0xffffffffULL) + (hl & 0xffffffffULL);
    lo = (mid << 32) | (ll & 0xffffffffULL);
    hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

} // namespace detail

inline std::uint64_t Rng::next()
{
    // xoshiro256**: the scrambler and the linear engine, as published.
    const std::uint64_t result = detail::rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = detail::rotl(m_s[3], 45);
    return result;
}

inline std::uint64_t Rng::below(std::uint64_t n)
{
    // The high half of a 64x64 product maps next() onto [0, n); draws that
    // fall in the short leftover range are rejected so every value is equally likely.
    std::uint64_t high = 0, low = 0;
    detail::mul64(next(), n, high, low);
    if (low < n) {
        const std::uint64_t threshold = (0 - n) % n;
        while (low < threshold)
            detail::mul64(next(), n, high, low);
    }
    return high;
}

inline std::int64_t Rng::range(std::int64_t lo, std::int64_t hi)
{
    if (hi <= lo)
        return lo;
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
    if (span == 0) // the full 64-bit range
        return static_cast<std::int64_t>(next());
    return lo + static_cast<std::int64_t>(below(span));
}

} // namespace idlescope::workloads
