// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file teo_legacy_governor.h
 * The timer events oriented governor as it was before the June 2021 rework:
 * drivers/cpuidle/governors/teo.c of Linux v5.13 (blob ac4bb27d69b0), with
 * per-state "hits", "misses" and "early hits" and the 8 most recent measured
 * idle durations. Variant "teo-5.13". Selection::predictedNs is the final
 * expected idle duration (duration_ns); the reasoning record is a
 * TeoReasoning with legacy = true (misses in intercepts[], early hits in
 * extra[]). Tunables PULSE, DECAY_SHIFT and INTERVALS start at the kernel's
 * 1024, 3 and 8 and take effect at once.
 */
#pragma once

#include "core/governors/governor.h"
#include "core/governors/tunable_check.h"

#include <array>
#include <cstdint>

namespace idlescope {

namespace teo513 {
/// Added to a metric when it grows (teo.c PULSE).
inline constexpr std::int64_t PULSE = 1024;
/// Metrics decay by metric >> DECAY_SHIFT at every update, i.e. by 1/8 (teo.c DECAY_SHIFT).
inline constexpr std::int64_t DECAY_SHIFT = 3;
/// Recent measured idle durations kept for pattern detection (teo.c INTERVALS).
inline constexpr std::int64_t INTERVALS = 8;
/// Storage for the INTERVALS tunable (the kernel's array is fixed at 8).
inline constexpr int INTERVALS_MAX = 64;
} // namespace teo513

class TeoLegacyGovernor final : public TableTunableGovernor<TeoLegacyGovernor> {
public:
    explicit TeoLegacyGovernor(const VariantInfo &v);
    const VariantInfo &variant() const override { return m_variant; }
    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override;
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override;
    void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) override;

    std::span<const TunableInfo> tunables() const override;

private:
    friend class TableTunableGovernor<TeoLegacyGovernor>;
    static std::span<const TunableRow<TeoLegacyGovernor>> tunableRows();

    /// struct teo_idle_state.
    struct StateMetrics {
        std::uint32_t earlyHits = 0;
        std::uint32_t hits = 0;
        std::uint32_t misses = 0;
    };

    /// What the state scan of teo_select() leaves behind (step 1).
    struct Scan {
        int idx = -1;          ///< candidate: deepest enabled state with TR <= duration
        int idx0 = -1;         ///< first enabled state
        int constraintIdx = 0; ///< first such state with EL > latency limit (state_count if none)
        int maxEarlyIdx = -1;
        int prevMaxEarlyIdx = -1;
        std::uint32_t hits = 0; ///< of the candidate, or of a disabled state it covers
        std::uint32_t misses = 0;
        std::uint32_t earlyHits = 0;
    };

    /// The state picked so far (steps 2-5), the duration expected in it, and
    /// the early-hits alternative after the previous-maximum swap.
    struct Pick {
        int idx;
        Ns durationNs;
        TeoReasoning::Path path;
        int maxEarlyIdx;
        bool stopTick;
    };

    void update(const IdleStateTable &drv, CpuidleDevice &dev);
    Scan scanDisabledState(Scan s, const StateMetrics &m, const IdleStateTable &drv, const SelectContext &ctx) const;
    Pick earlyHitsStep(const IdleStateTable &drv, const Scan &s, Pick p) const;
    Pick tickStep(const IdleStateTable &drv, const SelectContext &ctx, const Scan &s, Pick p) const;
    void recordMetrics(const IdleStateTable &drv, TeoReasoning &r) const;
    Scan scanStates(const IdleStateTable &drv, const CpuidleDevice &dev, const SelectContext &ctx, Ns durationNs) const;
    int refineWithRecentIntervals(const IdleStateTable &drv, const CpuidleDevice &dev, const SelectContext &ctx,
                                  int idx, Ns &durationNs);
    static int findShallowerState(const IdleStateTable &drv, int stateIdx, Ns durationNs);
    static bool timeOk(const SelectContext &ctx, std::uint64_t intervalNs);
    std::uint32_t decayed(std::uint32_t metric) const { return metric - (metric >> m_decayShift); }

    const VariantInfo &m_variant;
    // struct teo_cpu
    Ns m_timeSpanNs = 0;
    Ns m_sleepLengthNs = 0;
    std::array<StateMetrics, CPUIDLE_STATE_MAX> m_states{};
    int m_intervalIdx = 0;
    std::array<std::uint64_t, teo513::INTERVALS_MAX> m_intervals{};
    // tunables
    std::uint32_t m_pulse = teo513::PULSE;
    int m_decayShift = teo513::DECAY_SHIFT;
    int m_intervalCount = teo513::INTERVALS;
};

} // namespace idlescope
