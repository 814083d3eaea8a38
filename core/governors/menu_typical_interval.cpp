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
 * Deviations: none in arithmetic. INTERVALS, the 6x ratio and the 20 us bound
 * are parameters here; with the kernel values the results are identical.
 */
#include "core/governors/menu_typical_interval.h"

namespace idlescope {

namespace {

constexpr std::int64_t INT_MAX_EXCLUSIVE = std::int64_t(INT_MAX_I32) + 1; // "v <= INT_MAX"
constexpr std::uint64_t U64_MAX_LOCAL = ~std::uint64_t(0);

// The kernel shifts by INTERVAL_SHIFT when all 8 samples are in; a shift and
// a division by 8 agree for unsigned values, and the shift is cheaper.
inline std::uint64_t divideBy(std::uint64_t x, unsigned divisor)
{
    return divisor == 8 ? x >> 3 : x / divisor;
}

} // namespace

MenuTypicalResult menuTypicalInterval(std::span<const std::uint32_t> values, const MenuTypicalParams &p)
{
    using Typical = MenuReasoning::Typical;
    const unsigned intervals = static_cast<unsigned>(values.size());
    const bool twoPass = p.algo == MenuTypicalAlgo::G1 || p.algo == MenuTypicalAlgo::G2;

    MenuTypicalResult r;
    r.lo = -1;
    r.hi = (p.algo == MenuTypicalAlgo::OnePassUintMax || p.algo == MenuTypicalAlgo::TwoSided)
               ? std::int64_t(UINT_MAX_U32)
               : INT_MAX_EXCLUSIVE;
    r.firstHi = r.hi;

    for (;;) {
        ++r.rounds;
        // Step 1: the samples inside the thresholds: count, sum, extremes,
        // and (one-pass forms) the sum of squares, all in wrapping u64.
        unsigned divisor = 0;
        std::uint32_t max = 0;
        std::uint32_t min = UINT_MAX_U32;
        std::uint64_t sum = 0;
        std::uint64_t sumSq = 0;
        for (const std::uint32_t v : values) {
            const std::int64_t s = v;
            if (s <= r.lo || s >= r.hi)
                continue;
            ++divisor;
            sum += v;
            sumSq += std::uint64_t(v) * v;
            if (v > max)
                max = v;
            if (v < min)
                min = v;
        }
        r.divisor = static_cast<int>(divisor);
        r.min = min;
        r.max = max;
        r.avg = 0;
        r.variance = 0;

        // Step 2: the early exits. G1 skips the work when even the shortest
        // sample would lose against the timer prediction; later forms only
        // need something non-zero (max == 0 also covers "no samples").
        if (p.algo == MenuTypicalAlgo::G1) {
            if (min >= p.predictedUs) {
                r.kind = divisor ? Typical::AboveTimer : Typical::NoSamples;
                r.us = UINT_MAX_U32;
                return r;
            }
        } else if (max == 0) {
            r.kind = Typical::NoSamples;
            r.us = UINT_MAX_U32;
            return r;
        }

        // Step 3: average and variance, truncating.
        std::uint64_t avg = divideBy(sum, divisor);
        std::uint64_t variance;
        if (twoPass) {
            // G1/G2 keep avg in an unsigned int (the samples are <= INT_MAX,
            // so it fits) and square the signed deviations from it.
            avg = static_cast<std::uint32_t>(avg);
            std::uint64_t acc = 0;
            for (const std::uint32_t v : values) {
                const std::int64_t s = v;
                if (s <= r.lo || s >= r.hi)
                    continue;
                const std::int64_t diff = s - static_cast<std::int64_t>(avg);
                acc += static_cast<std::uint64_t>(diff) * static_cast<std::uint64_t>(diff);
            }
            variance = divideBy(acc, divisor);
        } else {
            variance = divideBy(sumSq, divisor) - avg * avg;
        }
        r.avg = avg;
        r.variance = variance;

        // Step 4: accept the average if the spread is small, absolutely or
        // next to the average (the latter only with >= 3/4 of the samples).
        // The guard keeps ratio^2 * variance within u64, as the kernel's
        // U64_MAX/36 does.
        if (variance <= U64_MAX_LOCAL / p.ratioSq) {
            const bool relative = avg * avg > variance * p.ratioSq && divisor * 4 >= intervals * 3;
            if (relative || variance <= p.stddevMaxSq) {
                r.kind = Typical::Average;
                r.us = static_cast<std::uint32_t>(avg);
                return r;
            }
        }

        // Step 5: stop when dropping more would leave 3/4 of the samples or fewer.
        if (divisor * 4 <= intervals * 3) {
            if (p.maxOfRemaining && divisor >= intervals / 2) {
                r.kind = Typical::MaxOfRemaining;
                r.us = max;
                return r;
            }
            r.kind = Typical::NoPattern;
            r.us = UINT_MAX_U32;
            return r;
        }

        // Step 6: drop the outliers. One-sided forms cut every sample equal to
        // the maximum; the two-sided form cuts the end farther from the average
        // (ties cut the maximum). avg lies within [min, max], so no wrap.
        if (p.algo == MenuTypicalAlgo::TwoSided && avg - min > max - avg)
            r.lo = min;
        else
            r.hi = max;
    }
}

} // namespace idlescope
