// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file haltpoll_governor.h
 * The haltpoll governor of drivers/cpuidle/governors/haltpoll.c (v7.0), for
 * KVM guests whose table is {POLL, halt}. It polls after a halt, halts after
 * a poll that ran out its window, and grows or shrinks that window
 * (dev->poll_limit_ns, which cpuidle_poll_time() returns) from each halt's
 * block time. Tunables are the module parameters with their defaults:
 * guest_halt_poll_ns 200000, guest_halt_poll_shrink 2, guest_halt_poll_grow 2,
 * guest_halt_poll_grow_start 50000, guest_halt_poll_allow_shrink 1; they take
 * effect at once, as a write to /sys/module/haltpoll/parameters does.
 * No prediction: Selection::predictedNs is -1.
 */
#pragma once

#include "core/governors/governor.h"
#include "core/governors/tunable_check.h"

#include <cstdint>

namespace idlescope {

namespace haltpoll {
inline constexpr std::int64_t GUEST_HALT_POLL_NS = 200000;
inline constexpr std::int64_t GUEST_HALT_POLL_SHRINK = 2;
inline constexpr std::int64_t GUEST_HALT_POLL_GROW = 2;
inline constexpr std::int64_t GUEST_HALT_POLL_GROW_START = 50000;
inline constexpr std::int64_t GUEST_HALT_POLL_ALLOW_SHRINK = 1;
} // namespace haltpoll

class HaltpollGovernor final : public TableTunableGovernor<HaltpollGovernor> {
public:
    explicit HaltpollGovernor(const VariantInfo &v);
    const VariantInfo &variant() const override { return m_variant; }
    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override;
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override;
    void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) override;

    std::span<const TunableInfo> tunables() const override;

private:
    friend class TableTunableGovernor<HaltpollGovernor>;
    static std::span<const TunableRow<HaltpollGovernor>> tunableRows();
    void adjustPollLimit(CpuidleDevice &dev, std::uint64_t blockNs);

    const VariantInfo &m_variant;
    // Module parameters: unsigned int (and one bool) in the kernel.
    std::uint32_t m_guestHaltPollNs = haltpoll::GUEST_HALT_POLL_NS;
    std::uint32_t m_shrink = haltpoll::GUEST_HALT_POLL_SHRINK;
    std::uint32_t m_grow = haltpoll::GUEST_HALT_POLL_GROW;
    std::uint32_t m_growStart = haltpoll::GUEST_HALT_POLL_GROW_START;
    bool m_allowShrink = haltpoll::GUEST_HALT_POLL_ALLOW_SHRINK != 0;
};

} // namespace idlescope
