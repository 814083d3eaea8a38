// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file ladder_governor.h
 * The ladder governor of drivers/cpuidle/governors/ladder.c (v7.0, unchanged
 * since v6.10): one step deeper after PROMOTION_COUNT long residencies in a
 * row, one step shallower after DEMOTION_COUNT short ones. It never clears
 * stop_tick and makes no prediction (Selection::predictedNs = -1).
 * Tunables: PROMOTION_COUNT (4), DEMOTION_COUNT (1); like the kernel's
 * #defines they are copied into the per-state thresholds by enable().
 */
#pragma once

#include "core/governors/governor.h"
#include "core/governors/tunable_check.h"

#include <array>
#include <cstdint>

namespace idlescope {

namespace ladder {
/// Long residencies in a row before a step deeper (ladder.c PROMOTION_COUNT).
inline constexpr std::int64_t PROMOTION_COUNT = 4;
/// Short residencies in a row before a step shallower (ladder.c DEMOTION_COUNT).
inline constexpr std::int64_t DEMOTION_COUNT = 1;
} // namespace ladder

class LadderGovernor final : public TableTunableGovernor<LadderGovernor> {
public:
    explicit LadderGovernor(const VariantInfo &v);
    const VariantInfo &variant() const override { return m_variant; }
    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override;
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override;
    void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) override;

    std::span<const TunableInfo> tunables() const override;

private:
    friend class TableTunableGovernor<LadderGovernor>;
    static std::span<const TunableRow<LadderGovernor>> tunableRows();

    /// struct ladder_device_state: thresholds (u32 counts, u64 times) and int counters.
    struct LadderState {
        std::uint32_t promotionCountThreshold = 0;
        std::uint32_t demotionCountThreshold = 0;
        std::uint64_t promotionTimeNs = 0;
        std::uint64_t demotionTimeNs = 0;
        int promotionCount = 0;
        int demotionCount = 0;
    };

    int doSelection(CpuidleDevice &dev, int oldIdx, int newIdx);

    const VariantInfo &m_variant;
    std::array<LadderState, CPUIDLE_STATE_MAX> m_states{};
    std::int64_t m_promotionCount = ladder::PROMOTION_COUNT;
    std::int64_t m_demotionCount = ladder::DEMOTION_COUNT;
};

} // namespace idlescope
