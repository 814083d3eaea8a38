// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file menu_reasoning.h
 * What menu_select() (drivers/cpuidle/governors/menu.c) computed for one decision.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <array>
#include <cstdint>

namespace idlescope {

/// Upper bound of the menu INTERVALS tunable (the kernel uses 8).
inline constexpr int MENU_MAX_INTERVALS = 64;

struct MenuReasoning {
    /// Which rule fired last on the way to the state.
    enum class Path : std::uint8_t {
        MainLoop,            ///< deepest state whose target residency fits predicted_ns
        EarlyState0,         ///< latency_req == 0 or next timer / latency below state 1
        PollingOverride,     ///< "first non-polling state" rule replaced the polling state
        TickStoppedDeeper,   ///< tick already stopped: a deeper state up to delta_tick
        TickKeptDemotion,    ///< tick kept: demoted to fit before the next tick
        ResidencyThreshold,  ///< the residency-threshold patch kept the polling state
    };
    /// How get_typical_interval() ended.
    enum class Typical : std::uint8_t {
        Average,        ///< avg accepted (avg > 6 stddev with enough samples, or stddev small)
        MaxOfRemaining, ///< menu-5 / v6.15–v6.17: max of >= INTERVALS/2 remaining samples
        NoPattern,      ///< too few samples left: UINT_MAX
        NoSamples,      ///< nothing usable (max == 0 / early exit)
    };

    // Recent-interval window (copy of the ring, oldest first) and the samples dropped.
    int intervalCount = 0;                                     ///< INTERVALS in force
    std::array<std::uint32_t, MENU_MAX_INTERVALS> intervalsUs{}; ///< ring, oldest first
    std::uint64_t discardedMask = 0;   ///< bit i set: intervalsUs[i] dropped as an outlier
    int rounds = 0;                    ///< outlier-elimination rounds run
    Typical typical = Typical::NoSamples;
    std::uint32_t typicalUs = UINT_MAX_U32;  ///< get_typical_interval() result
    std::uint64_t avgUs = 0;           ///< last round's average
    std::uint64_t varianceUs2 = 0;     ///< last round's variance (us^2)
    int divisor = 0;                   ///< samples used in the last round

    // Timer-based prediction.
    bool timerQueried = false;         ///< tick_nohz_get_sleep_length() called
    Ns nextTimerNs = 0;                ///< data->next_timer_ns
    Ns deltaTickNs = 0;                ///< delta_tick
    int bucket = 0;                    ///< correction-factor bucket
    std::uint32_t correctionFactor = 0;///< correction_factor[bucket] (8192 = 1.0)
    std::uint32_t timerUs = 0;         ///< corrected timer prediction, us

    // Outcome.
    Ns predictedNs = 0;                ///< final predicted_ns (after overrides)
    Ns latencyReqNs = 0;               ///< latency limit in force in the main loop
    Path path = Path::MainLoop;
    int candidateIdx = 0;              ///< state before the tick decision
    int chosenIdx = 0;                 ///< returned state

    // menu_update() run at the start of this select (for the previous entry).
    bool updated = false;
    Ns measuredNs = 0;                 ///< measured idle time that was recorded
};

} // namespace idlescope
