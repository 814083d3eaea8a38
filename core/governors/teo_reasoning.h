// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file teo_reasoning.h
 * What teo_select() (drivers/cpuidle/governors/teo.c) computed for one decision,
 * and what teo_update() did with the entry before it. Fixed size (no pointers,
 * no strings): the governor fills it in place at every select() without
 * allocating. describeTeo()/explainTeo() in teo_explain.cpp turn it into words.
 *
 * Shared by the two teo implementations: TeoGovernor (v5.14–v7.1,
 * teo_governor.cpp and its version family headers) and the pre-2021
 * teo-5.13 (teo_legacy_governor.cpp, `legacy` set). Fields
 * are only added, never removed.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <array>
#include <cstdint>

namespace idlescope {

/**
 * TeoGovernor's part of the record (v5.14–v7.0): the steps of teo_select()
 * that ran and what teo_update() did. A base of TeoReasoning, so the fields
 * read as r.walkIdx etc.; kept in one block because select() builds it in a
 * local and stores it in one copy (the record is filled on the hot path).
 */
struct TeoSteps {
    /// What teo_update() did with the previous entry.
    enum class Update : std::uint8_t {
        None,          ///< no update (nothing reflected yet, or the v7.0 core answered alone)
        Hit,           ///< measured and sleep length in the same bin: hits[updateBin] += PULSE
        Intercept,     ///< measured in another (shallower) bin: intercepts[updateBin] += PULSE
        TickHit,       ///< v6.6–v6.10: both beyond TICK_NSEC: tick_hits += PULSE (updateBin = stateCount)
        TickDominant,  ///< v6.19+: tick wakeups dominate: hits[deepest bin] += PULSE
        TickWakeupHit, ///< v7.0: tick wakeup, tick-range intercepts rare: hits[timer bin] += PULSE
    };

    Ns updateSleepLengthNs = 0;         ///< the sleep length saved at the previous select (KTIME_MAX if not queried)
    std::uint32_t idxRecentSum = 0;     ///< v5.14–v6.10: recent intercepts below the candidate
    std::uint32_t tickInterceptSum = 0; ///< v6.6–v6.10: intercepts of all bins (tick rule input)
    int updateBin = -1;                 ///< the bin that received the PULSE, -1 if no update
    int timerBin = 0;                   ///< idx_timer: bin of the saved sleep length
    int durationBin = 0;                ///< idx_duration: bin of the measured idle duration
    int interceptMaxIdx = -1;           ///< v7.0: bin with the most intercepts (ties: the higher)
    int minIdx = -1;                    ///< v6.19+: lowest state the walk may reach, -1 if no walk
    int walkIdx = -1;                   ///< state after the intercept walk, -1 if no walk
    int util = 0;                       ///< teo-6.10: sched_cpu_util() seen
    int utilThreshold = 0;              ///< teo-6.10: capacity >> UTIL_THRESHOLD_SHIFT (0 for other variants)
    Update update = Update::None;
    bool measuredSafetyNet = false;  ///< measured set to the maximum (poll limit, tick, or woke after the timer)
    bool tickWakeup = false;         ///< the previous wakeup was the tick (v6.19+ tick_wakeup)
    bool altIntercepts = false;      ///< 2 * idxInterceptSum > total - idxHitSum
    bool altRecent = false;          ///< v5.14–v6.10: idxRecentSum > NR_RECENT / 2
    bool utilized = false;           ///< teo-6.10: util > utilThreshold
    bool latencyCapped = false;      ///< the latency cap moved the state
    bool utilShallower = false;      ///< teo-6.10: utilization moved the state
    bool skippedQuery = false;       ///< a skip rule spared the sleep length query (tick kept)
    bool sleepLengthRefined = false; ///< the state was moved to fit the sleep length
    bool tickInterceptsRule = false; ///< duration set to TICK_NSEC/2: tick kept for tick-range intercepts
    bool tickKeptDemotion = false;   ///< tick kept and the state moved to fit delta_tick
    /// v7.1: the tick was stopped and the next timer more than SAFE_TIMER_RANGE_NS
    /// away, so teo took the deepest state within the latency limit that fits it.
    bool safeTimerRangeDeeper = false;

    std::uint32_t totalTick = 0;         ///< v6.19+: decayed count of tick wakeups
    std::uint32_t tickHits = 0;          ///< v6.6–v6.10: the hits-only bin beyond the last state
    int stateCount = 0;                  ///< states in the table
    bool tickStopped = false;            ///< tick_nohz_tick_stopped() at select
    bool hasDuration = false;            ///< durationNs was computed (else Selection::predictedNs = -1)
    bool candidateBySleepLength = false; ///< v5.14: the candidate is the deepest state within the sleep length
    Ns latencyReqNs = 0;                 ///< cpuidle_governor_latency_req()
    Ns deltaTickNs = 0;                  ///< delta_tick when the tick decision was made
    Ns tickNsec = 0;                     ///< TICK_NSEC
};

struct TeoReasoning : TeoSteps {
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
        Utilized,         ///< teo-6.10: CPU utilized, a shallower non-polling state
        CoreSingleState,  ///< v7.0 core: one state only, the governor is not consulted
        StoppedTickTimer, ///< v7.1: tick stopped, timer beyond SAFE_TIMER_RANGE_NS: deepest state fitting it
    };

    std::array<std::uint32_t, CPUIDLE_STATE_MAX> hits{};       ///< per-bin hits (or v5.13 hits)
    std::array<std::uint32_t, CPUIDLE_STATE_MAX> intercepts{}; ///< per-bin intercepts (v5.13: misses)
    std::array<std::uint32_t, CPUIDLE_STATE_MAX> extra{};      ///< v5.13 early_hits / v5.14 recent
    std::uint32_t total = 0;
    std::uint32_t tickIntercepts = 0;
    std::uint32_t shortIdles = 0;
    std::uint32_t idxInterceptSum = 0;
    std::uint32_t idxHitSum = 0;
    int binCount = 0;
    int candidateIdx = 0;  ///< before the intercept walk
    int constraintIdx = 0; ///< deepest state within the latency limit
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
    bool legacy = false;  ///< a teo-5.13 record: hits/intercepts(misses)/extra(early_hits) per state
    int idx0 = -1;        ///< first enabled state
    int maxEarlyIdx = -1; ///< the early-hits alternative after the prev-max swap, -1 if none
    int recentCount = 0;  ///< recent intervals shorter than the duration
    Ns recentAvgNs = -1;  ///< their average when more than half qualified, else -1
    bool stopTick = true; ///< the value left in *stop_tick
};

} // namespace idlescope
