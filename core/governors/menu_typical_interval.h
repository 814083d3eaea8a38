// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file menu_typical_interval.h
 * menu's repeating-pattern detector, get_typical_interval()
 * (drivers/cpuidle/governors/menu.c), in every form it took from v5.x to
 * v7.0, as one function selected by MenuTypicalAlgo.
 *
 * Every form keeps, in each round, the samples v with lo < v < hi (signed
 * 64-bit bounds): the kernel's "v <= thresh" is hi = thresh + 1, its "v >=
 * thresh dropped" is hi = thresh, and the two-sided form moves lo or hi. A
 * round always drops all samples equal to one extreme, so on the samples
 * sorted ascending the kept set is one contiguous range; that is how this
 * implementation works (O(1) per round), with the kernel's arithmetic: u64
 * sums that wrap, truncating averages, avg^2 > ratio^2 * variance in u64.
 */
#pragma once

#include "core/governors/menu_reasoning.h"

#include <cstdint>
#include <span>

namespace idlescope {

/// Which get_typical_interval() body a variant has.
enum class MenuTypicalAlgo : std::uint8_t {
    G1,             ///< v4.1x–v6.5: argument predicted_us, early exit "min >= predicted_us",
                    ///< threshold INT_MAX, two passes (variance of deviations from the truncated mean)
    G2,             ///< v6.6–v6.14 and menu-1: no argument, early exit "max == 0", otherwise G1
    OnePass,        ///< menu-2: one pass, variance = E[v^2] - avg^2, threshold INT_MAX, thresh = max - 1
    OnePassUintMax, ///< menu-3: as OnePass, threshold starts at UINT_MAX, ">= thresh" dropped, thresh = max
    TwoSided,       ///< menu-4, v6.15+: drop the minimum or the maximum, whichever is farther from avg
};

/// Inputs besides the samples.
struct MenuTypicalParams {
    MenuTypicalAlgo algo = MenuTypicalAlgo::G2;
    /// menu-5 / v6.15–v6.17 "Avoid discarding useful information": when no more
    /// samples may be dropped but at least INTERVALS/2 remain, return their maximum.
    bool maxOfRemaining = false;
    /// "avg > ratio * stddev" is evaluated as avg^2 > ratioSq * variance (kernel: 36)...
    std::uint64_t ratioSq = 36;
    /// ...only when variance <= U64_MAX / ratioSq (kernel: U64_MAX/36). Set both with setRatio().
    std::uint64_t varianceGuard = ~std::uint64_t(0) / 36;
    /// "stddev <= max" is evaluated as variance <= stddevMaxSq (kernel: 400 = 20 us squared).
    std::uint64_t stddevMaxSq = 400;
    /// G1 only: the timer-based prediction in us; a window whose minimum is not below it is skipped.
    std::uint32_t predictedUs = UINT_MAX_U32;

    /// The "avg > ratio * stddev" factor (1..2^32-1).
    void setRatio(std::uint64_t ratio)
    {
        ratioSq = ratio * ratio;
        varianceGuard = ~std::uint64_t(0) / ratioSq;
    }
};

/// What one call computed; `us` is the kernel's return value.
struct MenuTypicalResult {
    std::uint32_t us = UINT_MAX_U32; ///< typical interval in us, UINT_MAX for "no prediction"
    MenuReasoning::Typical kind = MenuReasoning::Typical::NoSamples;
    int rounds = 0;             ///< passes over the window the kernel makes
    int divisor = 0;            ///< samples used in the last round
    std::uint64_t avg = 0;      ///< last round's average (us)
    std::uint64_t variance = 0; ///< last round's variance (us^2; 0 if not reached)
    std::uint32_t min = 0;      ///< last round's smallest used sample (UINT_MAX if none)
    std::uint32_t max = 0;      ///< last round's largest used sample (0 if none)
    std::int64_t lo = -1;       ///< the last round kept the samples with lo < v < hi
    std::int64_t hi = 0;
    std::int64_t firstHi = 0; ///< round 1's hi: samples at or above it are never considered
    int neverConsidered = 0;  ///< how many samples that is
};

/**
 * get_typical_interval() over the ring's samples, given sorted ascending
 * (INTERVALS is sorted.size(), 1..MENU_MAX_INTERVALS). The result is the
 * kernel's for the ring in any order. With 8 samples the kernel shifts by
 * INTERVAL_SHIFT; dividing by 8 gives the same result, so every size takes
 * the same path. Never allocates.
 */
MenuTypicalResult menuTypicalInterval(std::span<const std::uint32_t> sorted, const MenuTypicalParams &p);

/// The same for samples in any order, e.g. the ring itself. Round 1 needs
/// no order and decides most windows (a steady pattern is accepted at once);
/// a window it rejects is sorted, a copy on the stack, with menuSortWindow().
MenuTypicalResult menuTypicalIntervalUnsorted(std::span<const std::uint32_t> values, const MenuTypicalParams &p);

/// Sorts ascending in place: up to 16 samples branch-free (a sorting network for 8, compare-exchange
/// insertion for the rest), more with std::sort.
void menuSortWindow(std::span<std::uint32_t> values);

} // namespace idlescope
