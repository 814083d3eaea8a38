// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * get_typical_interval() of drivers/cpuidle/governors/menu.c, all versions.
 *
 * The idea (unchanged since 2009): if the last INTERVALS idle durations are
 * close to each other, their average is a better prediction than the next
 * timer. "Close" means the standard deviation is small in absolute terms
 * (<= 20 us) or small next to the average (avg > 6 stddev, with at least 3/4
 * of the samples). If the test fails, the worst outliers are dropped and the
 * test is repeated while more than 3/4 of the samples remain.
 *
 * The forms, as the kernel wrote them:
 *  G1  (v4.1x–v6.5)  threshold INT_MAX, "v <= thresh" kept, next thresh = max - 1;
 *                    average first, then the mean of squared deviations from the
 *                    truncated average; returns early when the smallest kept
 *                    sample is not below the caller's timer prediction.
 *  G2  (v6.6–v6.14)  G1 without the argument; returns early when max == 0.
 *  menu-2            one pass: sum and sum of squares, both divided, then
 *                    variance = E[v^2] - avg^2 (u64), different rounding.
 *  menu-3            threshold starts at UINT_MAX, "v >= thresh" dropped,
 *                    next thresh = max (the same cut as max - 1 with "<=").
 *  menu-4 (v6.15+)   two thresholds, strict on both sides; each round drops
 *                    the minimum if avg - min > max - avg, else the maximum.
 *  menu-5            when the stop rule hits with >= INTERVALS/2 samples left,
 *                    return their maximum (v6.15–v6.17; reverted in v6.18).
 *
 * How, and why it is the same computation: the kernel re-scans the window in
 * every round. Every round drops all samples equal to the current maximum (or
 * minimum), so over the samples sorted ascending the kept ones are always one
 * range [a, b). The sums are kept running and the dropped extremes
 * subtracted, in u64 modulo 2^64 like the kernel's sums. G1/G2's two-pass
 * variance, the sum of (v - avg)^2 over the kept samples, equals
 * S2 - 2 avg S1 + n avg^2 as an integer identity, hence also modulo 2^64,
 * which is where the kernel's u64 accumulator lives. tst_menu checks this
 * against a literal per-round transcription on random windows.
 *
 * Round 1 needs no order at all (its kept samples are all of them below the
 * first threshold), and it decides every steady pattern: the ring is sorted
 * only when round 1 rejects it (tst_menu compares both paths field by field).
 *
 * Deviations: none in results. INTERVALS, the 6x ratio and the 20 us bound
 * are parameters; with the kernel values the results are identical.
 */
#include "core/governors/menu_typical_interval.h"

#include <algorithm>
#include <array>
#include <utility>

namespace idlescope {

namespace {

constexpr std::int64_t INT_MAX_EXCLUSIVE = std::int64_t(INT_MAX_I32) + 1; // "v <= INT_MAX"

// x / d for the divisors a round can have (1..MENU_MAX_INTERVALS), each a
// division by a constant (a multiply) instead of a 64-bit DIV. The kernel
// shifts by INTERVAL_SHIFT when all 8 samples are in; for unsigned values
// that is x / 8, so every divisor, 8 included, may take the same path.
using DivFn = std::uint64_t (*)(std::uint64_t);
template <unsigned D>
std::uint64_t divideByConstant(std::uint64_t x)
{
    return x / D;
}
template <unsigned... I>
constexpr std::array<DivFn, sizeof...(I) + 1> makeDividers(std::integer_sequence<unsigned, I...>)
{
    return {nullptr, &divideByConstant<I + 1>...};
}
constexpr auto kDivideBy = makeDividers(std::make_integer_sequence<unsigned, MENU_MAX_INTERVALS>());

// x / divisor. With the kernel's 8 samples the rounds see 8, 7 and 6 almost
// always: those are inline; the rest go through the table.
inline std::uint64_t divideSmall(std::uint64_t x, unsigned divisor)
{
    switch (divisor) {
    case 8: return x >> 3; // the kernel's INTERVAL_SHIFT
    case 7: return x / 7;
    case 6: return x / 6;
    default: return kDivideBy[divisor](x);
    }
}

} // namespace

namespace {

/// Round 1's upper bound: samples at or above it are never considered.
constexpr std::int64_t firstThreshold(MenuTypicalAlgo algo)
{
    return (algo == MenuTypicalAlgo::OnePassUintMax || algo == MenuTypicalAlgo::TwoSided) ? std::int64_t(UINT_MAX_U32)
                                                                                          : INT_MAX_EXCLUSIVE;
}

/// One round's figures: its kept samples (count, extremes, sums mod 2^64)
/// going in, its statistics and verdict coming out.
struct Round {
    unsigned divisor = 0;
    std::uint32_t min = UINT_MAX_U32, max = 0;
    std::uint64_t sum = 0, sumSq = 0;
    std::uint64_t avg = 0, variance = 0;
    MenuReasoning::Typical kind = MenuReasoning::Typical::NoSamples;
    std::uint32_t result = UINT_MAX_U32;
};

// Steps 1–4 of a round: true when the round decides (kind and result set),
// false when the outliers are to be dropped and another round made.
inline bool roundDecides(Round &r, unsigned intervals, const MenuTypicalParams &p)
{
    using Typical = MenuReasoning::Typical;
    const unsigned divisor = r.divisor;
    r.avg = r.variance = 0;

    // Step 1: the early exits. G1 skips the work when even the shortest
    // sample would lose against the timer prediction; later forms only
    // need something non-zero (max == 0 also covers "no samples").
    if (p.algo == MenuTypicalAlgo::G1) {
        if (r.min >= p.predictedUs) {
            r.kind = divisor ? Typical::AboveTimer : Typical::NoSamples;
            return true;
        }
    } else if (r.max == 0) {
        r.kind = Typical::NoSamples;
        return true;
    }

    // Step 2: average and variance, truncating. divisor >= 1 here.
    r.avg = divideSmall(r.sum, divisor);
    if (p.algo == MenuTypicalAlgo::G1 || p.algo == MenuTypicalAlgo::G2) {
        // G1/G2 keep avg in an unsigned int (the samples are <= INT_MAX,
        // so it fits): the sum of squared deviations from it, mod 2^64.
        r.avg = static_cast<std::uint32_t>(r.avg);
        const std::uint64_t deviations = r.sumSq - 2 * r.avg * r.sum + std::uint64_t(divisor) * r.avg * r.avg;
        r.variance = divideSmall(deviations, divisor);
    } else {
        r.variance = divideSmall(r.sumSq, divisor) - r.avg * r.avg;
    }

    // Step 3: accept the average if the spread is small, absolutely or
    // next to the average (the latter only with >= 3/4 of the samples).
    // The guard keeps ratio^2 * variance within u64 (U64_MAX/36).
    if (r.variance <= p.varianceGuard
        && ((r.avg * r.avg > r.variance * p.ratioSq && divisor * 4 >= intervals * 3) || r.variance <= p.stddevMaxSq)) {
        r.kind = Typical::Average;
        r.result = static_cast<std::uint32_t>(r.avg);
        return true;
    }

    // Step 4: stop when dropping more would leave 3/4 of the samples or fewer.
    if (divisor * 4 <= intervals * 3) {
        if (p.maxOfRemaining && divisor >= intervals / 2) {
            r.kind = Typical::MaxOfRemaining;
            r.result = r.max;
        } else {
            r.kind = Typical::NoPattern;
        }
        return true;
    }
    return false;
}

MenuTypicalResult resultOf(const Round &r, int rounds, std::int64_t lo, std::int64_t hi, std::int64_t firstHi,
                           int neverConsidered)
{
    MenuTypicalResult out;
    out.us = r.result;
    out.kind = r.kind;
    out.rounds = rounds;
    out.divisor = static_cast<int>(r.divisor);
    out.avg = r.avg;
    out.variance = r.variance;
    out.min = r.min;
    out.max = r.max;
    out.lo = lo;
    out.hi = hi;
    out.firstHi = firstHi;
    out.neverConsidered = neverConsidered;
    return out;
}

// The detector proper; @p sum / @p sumSq are the sums of all samples and of
// their squares (mod 2^64), which the callers get where it is cheapest.
MenuTypicalResult typicalSorted(std::span<const std::uint32_t> sorted, std::uint64_t sum, std::uint64_t sumSq,
                                const MenuTypicalParams &p)
{
    const unsigned intervals = static_cast<unsigned>(sorted.size());
    const bool twoSided = p.algo == MenuTypicalAlgo::TwoSided;
    std::int64_t lo = -1;
    std::int64_t hi = firstThreshold(p.algo);
    const std::int64_t firstHi = hi;

    // Round 1's range: everything below the initial threshold (samples are
    // unsigned, so lo = -1 excludes nothing), with its running sums.
    size_t a = 0;
    size_t b = sorted.size();
    while (b > 0 && std::int64_t(sorted[b - 1]) >= hi) {
        --b;
        sum -= sorted[b];
        sumSq -= std::uint64_t(sorted[b]) * sorted[b];
    }
    const size_t considered = b;

    Round r;
    int rounds = 0;
    for (;;) {
        ++rounds;
        r.divisor = static_cast<unsigned>(b - a);
        r.min = r.divisor ? sorted[a] : UINT_MAX_U32;
        r.max = r.divisor ? sorted[b - 1] : 0;
        r.sum = sum;
        r.sumSq = sumSq;
        if (roundDecides(r, intervals, p))
            break;

        // Step 5: drop the outliers: every sample equal to the maximum, or
        // (two-sided form, when the minimum is strictly farther from the
        // average) every sample equal to the minimum. avg lies in [min, max].
        const std::uint32_t min = r.min, max = r.max;
        if (twoSided && r.avg - min > max - r.avg) {
            lo = min;
            for (; a < b && sorted[a] == min; ++a) {
                sum -= min;
                sumSq -= std::uint64_t(min) * min;
            }
        } else {
            hi = max;
            for (; b > a && sorted[b - 1] == max; --b) {
                sum -= max;
                sumSq -= std::uint64_t(max) * max;
            }
        }
    }
    return resultOf(r, rounds, lo, hi, firstHi, static_cast<int>(sorted.size() - considered));
}

// Round 1 straight from the samples in ring order: true when it decides
// (@p out set). It needs no order, only the count, extremes and sums of the
// samples. A steady pattern is accepted there, which on a periodic workload
// is most decisions; a rejected window has to be sorted, for dropping its
// outliers round by round, and so has one with a sample at or above the
// first threshold (rare: a UINT_MAX placeholder, a KTIME_MAX sleep).
// N: the sample count when fixed at compile time (the kernel's 8, unrolled), 0 for @p n.
template <size_t N>
inline bool firstRoundDecides(const std::uint32_t *v, size_t n, const MenuTypicalParams &p, MenuTypicalResult &out)
{
    if constexpr (N != 0)
        n = N;
    Round r;
    for (size_t i = 0; i < n; ++i) {
        const std::uint32_t x = v[i];
        r.sum += x;
        r.sumSq += std::uint64_t(x) * x;
        r.min = std::min(r.min, x);
        r.max = std::max(r.max, x);
    }
    const std::int64_t firstHi = firstThreshold(p.algo);
    if (n == 0 || std::int64_t(r.max) >= firstHi)
        return false;
    r.divisor = static_cast<unsigned>(n);
    if (!roundDecides(r, r.divisor, p))
        return false;
    out = resultOf(r, 1, -1, firstHi, firstHi, 0);
    return true;
}

} // namespace

MenuTypicalResult menuTypicalInterval(std::span<const std::uint32_t> sorted, const MenuTypicalParams &p)
{
    std::uint64_t sum = 0;
    std::uint64_t sumSq = 0;
    for (const std::uint32_t v : sorted) {
        sum += v;
        sumSq += std::uint64_t(v) * v;
    }
    return typicalSorted(sorted, sum, sumSq, p);
}

namespace {

// One compare-exchange of a sorting network, on values in registers. The
// swap goes through a mask: with std::min/std::max the compiler may emit
// branches, which mispredict on this data.
inline void compareExchange(std::uint32_t &a, std::uint32_t &b)
{
    const std::uint32_t swap = (a ^ b) & (0u - std::uint32_t(b < a));
    a ^= swap;
    b ^= swap;
}

// Sorts 8 values from @p in into @p out with the 19-comparator network of
// depth 6 (Knuth, TAOCP 5.3.4): branch-free, the values stay in registers.
// Also returns their sum and sum of squares, taken from the same registers:
// the ring was written a moment ago, and wide loads of it (as a vectorised
// loop would do) would stall store forwarding.
inline void sort8(const std::uint32_t *in, std::uint32_t *out, std::uint64_t &sum, std::uint64_t &sumSq)
{
    std::uint32_t v0 = in[0], v1 = in[1], v2 = in[2], v3 = in[3];
    std::uint32_t v4 = in[4], v5 = in[5], v6 = in[6], v7 = in[7];
    sum = std::uint64_t(v0) + v1 + v2 + v3 + v4 + v5 + v6 + v7;
    sumSq = std::uint64_t(v0) * v0 + std::uint64_t(v1) * v1 + std::uint64_t(v2) * v2 + std::uint64_t(v3) * v3
            + std::uint64_t(v4) * v4 + std::uint64_t(v5) * v5 + std::uint64_t(v6) * v6 + std::uint64_t(v7) * v7;
    compareExchange(v0, v2), compareExchange(v1, v3), compareExchange(v4, v6), compareExchange(v5, v7);
    compareExchange(v0, v4), compareExchange(v1, v5), compareExchange(v2, v6), compareExchange(v3, v7);
    compareExchange(v0, v1), compareExchange(v2, v3), compareExchange(v4, v5), compareExchange(v6, v7);
    compareExchange(v2, v4), compareExchange(v3, v5);
    compareExchange(v1, v4), compareExchange(v3, v6);
    compareExchange(v1, v2), compareExchange(v3, v4), compareExchange(v5, v6);
    out[0] = v0, out[1] = v1, out[2] = v2, out[3] = v3;
    out[4] = v4, out[5] = v5, out[6] = v6, out[7] = v7;
}

// Up to this many samples, sizes other than 8 are sorted without branches
// too: std::sort's insertion sort mispredicts on most of its comparisons,
// which made a replay with INTERVALS = 9 twice as slow as with 8.
constexpr size_t SMALL_SORT_MAX = 16;

// Sorts v[0..n) ascending given v[0..sortedPrefix) already sorted: each
// further value sinks through the sorted part by compare-exchanges (a
// branch-free insertion sort; n <= SMALL_SORT_MAX keeps it short).
inline void sinkInto(std::uint32_t *v, size_t sortedPrefix, size_t n)
{
    for (size_t i = std::max<size_t>(sortedPrefix, 1); i < n; ++i)
        for (size_t k = i; k > 0; --k)
            compareExchange(v[k - 1], v[k]);
}

// Sorts n values from @p in into @p out (n <= SMALL_SORT_MAX, n != 0) and
// returns their sum and sum of squares (mod 2^64): the first 8 through the
// network when there are that many, the rest sunk in.
inline void sortSmall(const std::uint32_t *in, std::uint32_t *out, size_t n, std::uint64_t &sum, std::uint64_t &sumSq)
{
    size_t done = 0;
    sum = sumSq = 0;
    if (n >= 8) {
        sort8(in, out, sum, sumSq);
        done = 8;
    }
    for (size_t i = done; i < n; ++i) {
        out[i] = in[i];
        sum += in[i];
        sumSq += std::uint64_t(in[i]) * in[i];
    }
    sinkInto(out, done, n);
}

} // namespace

void menuSortWindow(std::span<std::uint32_t> v)
{
    std::uint64_t sum, sumSq;
    if (!v.empty() && v.size() <= SMALL_SORT_MAX) {
        std::array<std::uint32_t, SMALL_SORT_MAX> copy;
        std::copy(v.begin(), v.end(), copy.begin());
        sortSmall(copy.data(), v.data(), v.size(), sum, sumSq);
    } else {
        std::sort(v.begin(), v.end());
    }
}

MenuTypicalResult menuTypicalIntervalUnsorted(std::span<const std::uint32_t> values, const MenuTypicalParams &p)
{
    std::array<std::uint32_t, MENU_MAX_INTERVALS> sorted;
    const size_t n = std::min(values.size(), sorted.size());
    MenuTypicalResult decided;
    if (n == 8 ? firstRoundDecides<8>(values.data(), n, p, decided)
               : firstRoundDecides<0>(values.data(), n, p, decided))
        return decided;
    std::uint64_t sum = 0;
    std::uint64_t sumSq = 0;
    if (n == 8) { // the kernel's INTERVALS
        sort8(values.data(), sorted.data(), sum, sumSq);
    } else if (n != 0 && n <= SMALL_SORT_MAX) {
        sortSmall(values.data(), sorted.data(), n, sum, sumSq);
    } else {
        for (size_t i = 0; i < n; ++i) {
            sum += values[i];
            sumSq += std::uint64_t(values[i]) * values[i];
        }
        std::copy_n(values.begin(), n, sorted.begin());
        std::sort(sorted.begin(), sorted.begin() + std::ptrdiff_t(n));
    }
    return typicalSorted(std::span<const std::uint32_t>(sorted.data(), n), sum, sumSq, p);
}

} // namespace idlescope
