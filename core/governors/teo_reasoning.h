// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file teo_reasoning.h
 * What teo_select() (drivers/cpuidle/governors/teo.c) computed for one decision.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <array>
#include <cstdint>

namespace idlescope {

struct TeoReasoning {
    enum class Path : std::uint8_t {
        Candidate,        ///< the deepest enabled state allowed (hits dominate)
        Intercepts,       ///< intercepts dominate: a shallower state from the bins
        LatencyLimit,     ///< capped by the PM QoS latency limit
        SleepLength,      ///< shallower state to fit the sleep length
        TickIntercepts,   ///< frequent tick-range intercepts: keep the tick
        TickKeptDemotion, ///< tick kept: demoted to fit before the next tick
        SkipSleepLength,  ///< short idle expected: no timer query, tick kept
        NoChoice,         ///< one or no enabled state
        EarlyHits,        ///< teo-5.13: the early-hits alternative
        RecentIntervals,  ///< teo-5.13: average of recent intervals
    };

    std::array<std::uint32_t, CPUIDLE_STATE_MAX> hits{};        ///< per-bin hits (or v5.13 hits)
    std::array<std::uint32_t, CPUIDLE_STATE_MAX> intercepts{};  ///< per-bin intercepts (v5.13: misses)
    std::array<std::uint32_t, CPUIDLE_STATE_MAX> extra{};       ///< v5.13 early_hits / v5.14 recent
    std::uint32_t total = 0;
    std::uint32_t tickIntercepts = 0;
    std::uint32_t shortIdles = 0;
    std::uint32_t idxInterceptSum = 0;
    std::uint32_t idxHitSum = 0;
    int binCount = 0;
    int candidateIdx = 0;     ///< before the intercept walk
    int constraintIdx = 0;    ///< deepest state within the latency limit
    int chosenIdx = 0;
    bool sleepLengthQueried = false;
    Ns sleepLengthNs = 0;
    Ns durationNs = 0;
    Path path = Path::Candidate;

    // teo_update() for the previous entry.
    bool updated = false;
    Ns measuredNs = 0;
    bool lastWasHit = false;

    // teo-5.13 only (teo_legacy_governor.cpp; words in explainTeoLegacy()).
    bool legacy = false;       ///< a teo-5.13 record: hits/intercepts(misses)/extra(early_hits) per state
    int idx0 = -1;             ///< first enabled state
    int maxEarlyIdx = -1;      ///< the early-hits alternative after the prev-max swap, -1 if none
    int recentCount = 0;       ///< recent intervals shorter than the duration
    Ns recentAvgNs = -1;       ///< their average when more than half qualified, else -1
    bool stopTick = true;      ///< the value left in *stop_tick
};

} // namespace idlescope
