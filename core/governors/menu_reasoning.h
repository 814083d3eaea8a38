// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file menu_reasoning.h
 * What menu_select() (drivers/cpuidle/governors/menu.c) computed for one
 * decision, and what menu_update() recorded for the entry before it.
 * Fixed size (no pointers, no strings): the governor fills it in place on
 * every select() without allocating. describeMenu()/explainMenu() in
 * menu_explain.cpp turn it into words.
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
        MainLoop,           ///< deepest state whose target residency fits predicted_ns
        EarlyState0,        ///< latency_req == 0, a single state, or next timer / latency below state 1
        PollingOverride,    ///< "first non-polling state" rule replaced the polling state
        TickStoppedDeeper,  ///< tick already stopped: a deeper state up to delta_tick
        TickKeptDemotion,   ///< tick kept: demoted to fit before the next tick
        ResidencyThreshold, ///< the residency-threshold rule kept the polling state
        CoreSingleState,    ///< v7.0 core: one state only, the governor is not consulted
    };
    /// How get_typical_interval() ended.
    enum class Typical : std::uint8_t {
        Average,        ///< avg accepted (avg > 6 stddev with enough samples, or stddev small)
        MaxOfRemaining, ///< menu-5 / v6.15–v6.17: max of >= INTERVALS/2 remaining samples
        NoPattern,      ///< too few samples left: UINT_MAX
        NoSamples,      ///< nothing usable (max == 0 / early exit)
        AboveTimer,     ///< v5.x–v6.5: min sample >= the timer prediction, not worth computing
    };
    /// Why the main state loop stopped.
    enum class LoopEnd : std::uint8_t {
        AllFit,          ///< ran off the end: the deepest enabled state fits
        Residency,       ///< next state's target residency exceeds predicted_ns
        Latency,         ///< next state's exit latency exceeds the latency limit
        ShallowKeepTick, ///< tick running, prediction >= TICK_NSEC: keep the tick, predicted := TR(idx)
        TickStopped,     ///< tick already stopped: returned from inside the loop
        NotRun,          ///< early exit before the loop
    };
    /// What stopped the polling override when it was considered and did not fire.
    enum class OverrideBlock : std::uint8_t {
        None,               ///< not considered, or it fired
        Disabled,           ///< variant without the override (menu-nooverride)
        LatencyLimit,       ///< exit latency above latency_req (<= v6.17-rc2 guard)
        NextTimer,          ///< target residency beyond the next timer
        ExitLatency,        ///< exit latency above predicted_ns (v6.18-rc4+ guard)
        ResidencyThreshold, ///< target residency >= RESIDENCY_THRESHOLD_NS (v6.19 / resthresh)
    };
    /// How menu_update() arrived at the measured idle time.
    enum class Measured : std::uint8_t {
        Residency,       ///< last_residency_ns minus the exit latency
        ResidencyHalved, ///< last_residency_ns <= 2 * exit latency: halved
        TickWakeup,      ///< woken by the tick with a timer beyond it: 9/10 of MAX_INTERESTING
        PollTimeLimit,   ///< polling ended by its time limit: assume the next timer
        Invalid,         ///< v6.17+: no entry since last select, UINT_MAX recorded
    };

    // Recent-interval window (copy of the ring, oldest first) and what was dropped.
    int intervalCount = 0;                                       ///< INTERVALS in force
    std::array<std::uint32_t, MENU_MAX_INTERVALS> intervalsUs{}; ///< the ring, oldest first (first intervalCount)
    std::uint64_t discardedMask = 0;                             ///< bit i set: intervalsUs[i] dropped as an outlier
    std::uint64_t invalidMask = 0; ///< bit i set: above the initial threshold, never considered
    int rounds = 0;                ///< outlier-elimination rounds run (passes over the window)
    Typical typical = Typical::NoSamples;
    std::uint32_t typicalUs = UINT_MAX_U32; ///< get_typical_interval() result
    std::uint64_t avgUs = 0;                ///< last round's average
    std::uint64_t varianceUs2 = 0;          ///< last round's variance (us^2)
    std::uint32_t minUs = 0;                ///< last round's smallest sample used
    std::uint32_t maxUs = 0;                ///< last round's largest sample used
    int divisor = 0;                        ///< samples used in the last round
    std::uint32_t stddevRatio = 6;          ///< STDDEV_RATIO in force
    std::uint32_t stddevMaxUs = 20;         ///< STDDEV_MAX_US in force

    // Timer-based prediction.
    bool timerQueried = false;          ///< tick_nohz_get_sleep_length() called
    Ns residencyThresholdNs = 0;        ///< RESIDENCY_THRESHOLD_NS in force (0: variant has none)
    Ns nextTimerNs = 0;                 ///< data->next_timer_ns (KTIME_MAX when not queried)
    Ns deltaTickNs = 0;                 ///< delta_tick (TICK_NSEC/2 when not queried)
    int bucket = 0;                     ///< correction-factor bucket
    int bucketCount = 6;                ///< BUCKETS of the variant (12 before v6.13)
    std::uint32_t correctionFactor = 0; ///< correction_factor[bucket] (8192 = 1.0)
    std::uint32_t timerUs = 0;          ///< corrected timer prediction, us (32-bit, wraps)

    // Outcome.
    bool tickStopped = false;         ///< tick_nohz_tick_stopped() at select
    bool stoppedTickReplaced = false; ///< tick stopped, short prediction replaced by the next timer
    /// v7.1: tick stopped and the prediction short, but the next timer within
    /// SAFE_TIMER_RANGE_NS (2 ticks), so the prediction was kept.
    bool safeTimerKept = false;
    bool safeTimerRangeRule = false; ///< the variant has v7.1's SAFE_TIMER_RANGE_NS rule
    Ns predictedInitialNs = 0;       ///< predicted_ns before the state loop
    Ns predictedNs = 0;              ///< final predicted_ns (after overrides)
    Ns latencyReqInputNs = 0;        ///< cpuidle_governor_latency_req()
    Ns latencyReqNs = 0;             ///< latency limit in force in the main loop
    Path path = Path::MainLoop;
    LoopEnd loopEnd = LoopEnd::NotRun;
    int loopStopIdx = -1; ///< the state whose test ended the loop (-1: none)
    OverrideBlock overrideBlock = OverrideBlock::None;
    int candidateIdx = 0; ///< state before the tick decision
    int chosenIdx = 0;    ///< returned state
    bool stopTick = true; ///< value left in *stop_tick

    // menu_update() run at the start of this select (for the previous entry).
    bool updated = false; ///< menu_update() or the invalid-data append ran
    Measured measuredKind = Measured::Residency;
    int updatedStateIdx = 0;         ///< dev->last_state_idx that was evaluated
    Ns lastResidencyNs = 0;          ///< dev->last_residency_ns it read
    Ns measuredNs = 0;               ///< measured idle time that was recorded
    bool measuredClamped = false;    ///< measured was cut to next_timer_ns
    std::uint32_t storedUs = 0;      ///< value appended to the ring (32-bit, truncating)
    int updatedBucket = 0;           ///< bucket whose correction factor changed
    std::uint32_t updatedFactor = 0; ///< its new correction factor
};

} // namespace idlescope
