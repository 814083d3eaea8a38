// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Mirrors drivers/cpuidle/governors/haltpoll.c of Linux v7.0 (blob
 * b367d10279c8) with its module parameters, for the cpuidle-haltpoll driver
 * of KVM guests: state 0 polls, state 1 halts (a VM exit).
 *
 * Vocabulary. The "poll window" is dev->poll_limit_ns: how long the polling
 * state may spin; cpuidle_poll_time() returns it as long as it is non-zero.
 * The "block time" of a halt is its measured residency (last_residency_ns).
 * guest_halt_poll_ns is the largest useful window: a halt that blocked
 * longer than that would not have been saved by polling.
 *
 * Selection (haltpoll_select()), in order:
 *  1. Latency limit 0: poll (state 0) and keep the tick.
 *  2. No poll window yet (0): halt (state 1) and leave *stop_tick as it is,
 *     so the tick stops.
 *  3. The last entry polled: if it ran out its window (poll_time_limit),
 *     nothing came while polling, so halt (tick may stop); otherwise an event
 *     ended the poll quickly, so poll again and keep the tick.
 *  4. The last entry halted: poll first and keep the tick.
 * After the entry (haltpoll_reflect()) the entered index becomes
 * last_state_idx; after a halt adjust_poll_limit() runs with its block time:
 *  a. Grow when window < block <= guest_halt_poll_ns: val = window * grow,
 *     raised to grow_start if below it, capped at guest_halt_poll_ns.
 *  b. Shrink when block > guest_halt_poll_ns and shrinking is allowed:
 *     val = window / shrink (0 if shrink is 0), and since v6.9 a value that
 *     falls below grow_start becomes 0 (no polling until the next grow).
 *  c. Otherwise the window is unchanged.
 * `val` is an unsigned int: the u64 product of (a) and the window read in (b)
 * are truncated to 32 bits before the comparisons, as in C. Only (a) is
 * capped; an (unmerged, 2024) patch that caps both is not in v7.0.
 *
 * One state. Since v7.0 cpuidle_select() does not call the governor when the
 * driver has a single state (v7.0 also dropped haltpoll's own state-count
 * test): state 0 with the tick kept. Done here, before step 1; step 2 would
 * otherwise pick state 1, past the table.
 *
 * Deviations from the kernel: none in decisions. The kernel's module
 * parameters are global; here they are per-governor tunables.
 */
#include "core/governors/haltpoll_governor.h"

#include "core/governors/registry.h"
#include "core/governors/tunable_check.h"

namespace idlescope {

namespace {

constexpr VariantInfo kHaltpoll[] = {
    {"haltpoll-latest",
     "haltpoll",
     "v7.0",
     {7, 0},
     "KVM guest: poll after a halt, halt after an empty poll window; the window grows and shrinks",
     PollTimeRule::V5_11,
     true},
};

constexpr std::int64_t kUintMax = UINT_MAX_U32;

constexpr TunableInfo kHaltpollTunables[] = {
    {"guest_halt_poll_ns", "Largest poll window; halts that block longer shrink the window", "ns",
     haltpoll::GUEST_HALT_POLL_NS, 0, kUintMax},
    {"guest_halt_poll_shrink", "Divisor applied to the window after a long halt (0: reset to 0)", "ratio",
     haltpoll::GUEST_HALT_POLL_SHRINK, 0, kUintMax},
    {"guest_halt_poll_grow", "Factor applied to the window after a halt it could have covered", "ratio",
     haltpoll::GUEST_HALT_POLL_GROW, 0, kUintMax},
    {"guest_halt_poll_grow_start", "Smallest non-zero window (ns)", "ns", haltpoll::GUEST_HALT_POLL_GROW_START, 0,
     kUintMax},
    {"guest_halt_poll_allow_shrink", "1 to shrink the window after long halts, 0 never to", "bool",
     haltpoll::GUEST_HALT_POLL_ALLOW_SHRINK, 0, 1},
};

} // namespace

std::span<const VariantInfo> haltpollVariants()
{
    return kHaltpoll;
}

std::unique_ptr<Governor> makeHaltpollGovernor(const VariantInfo &v)
{
    return std::make_unique<HaltpollGovernor>(v);
}

HaltpollGovernor::HaltpollGovernor(const VariantInfo &v) : m_variant(v)
{
    m_reasoning.emplace<HaltpollReasoning>();
}

std::span<const TunableInfo> HaltpollGovernor::tunables() const
{
    return kHaltpollTunables;
}

std::span<const TunableRow<HaltpollGovernor>> HaltpollGovernor::tunableRows()
{
    // The module parameters are unsigned ints (allow_shrink a bool).
    using G = HaltpollGovernor;
    static constexpr TunableRow<G> rows[] = {
        {kHaltpollTunables[0], [](const G &g) -> std::int64_t { return g.m_guestHaltPollNs; },
         [](G &g, std::int64_t v) { g.m_guestHaltPollNs = static_cast<std::uint32_t>(v); }},
        {kHaltpollTunables[1], [](const G &g) -> std::int64_t { return g.m_shrink; },
         [](G &g, std::int64_t v) { g.m_shrink = static_cast<std::uint32_t>(v); }},
        {kHaltpollTunables[2], [](const G &g) -> std::int64_t { return g.m_grow; },
         [](G &g, std::int64_t v) { g.m_grow = static_cast<std::uint32_t>(v); }},
        {kHaltpollTunables[3], [](const G &g) -> std::int64_t { return g.m_growStart; },
         [](G &g, std::int64_t v) { g.m_growStart = static_cast<std::uint32_t>(v); }},
        {kHaltpollTunables[4], [](const G &g) -> std::int64_t { return g.m_allowShrink ? 1 : 0; },
         [](G &g, std::int64_t v) { g.m_allowShrink = v != 0; }},
    };
    static_assert(std::size(rows) == std::size(kHaltpollTunables));
    return rows;
}

// haltpoll_enable_device(): no window until the first halt grows one.
void HaltpollGovernor::enable(const IdleStateTable &, CpuidleDevice &dev)
{
    dev.pollLimitNs = 0;
    m_reasoning.emplace<HaltpollReasoning>();
}

Selection HaltpollGovernor::select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx)
{
    using Action = HaltpollReasoning::Action;
    HaltpollReasoning &r = std::get<HaltpollReasoning>(m_reasoning);
    r = HaltpollReasoning{};
    r.latencyReqNs = ctx.latencyReqNs;
    r.lastStateIdx = dev.lastStateIdx;
    r.pollTimeLimit = dev.pollTimeLimit;
    r.pollLimitNs = dev.pollLimitNs;

    auto finish = [&](int idx, bool stopTick, Action a) {
        r.action = a;
        r.chosenIdx = idx;
        return Selection{idx, stopTick, -1};
    };

    // v7.0 cpuidle_select(): one state, state 0 and the tick kept; haltpoll is not called.
    if (drv.count() <= 1)
        return finish(0, false, Action::CoreSingleState);
    // Step 1.
    if (ctx.latencyReqNs == 0)
        return finish(0, false, Action::LatencyZero);
    // Step 2: *stop_tick is not touched, so it stays true.
    if (dev.pollLimitNs == 0)
        return finish(1, true, Action::NoPollWindow);
    // Step 3.
    if (dev.lastStateIdx == 0) {
        if (dev.pollTimeLimit)
            return finish(1, true, Action::PollExpired);
        return finish(0, false, Action::PollAgain);
    }
    // Step 4.
    return finish(0, false, Action::AfterHalt);
}

// adjust_poll_limit(), steps a-c.
void HaltpollGovernor::adjustPollLimit(CpuidleDevice &dev, std::uint64_t blockNs)
{
    using Adjust = HaltpollReasoning::Adjust;
    HaltpollReasoning &r = std::get<HaltpollReasoning>(m_reasoning);
    const auto pollLimit = static_cast<std::uint64_t>(dev.pollLimitNs);
    std::uint32_t val = 0;

    if (blockNs > pollLimit && blockNs <= m_guestHaltPollNs) {
        // u64 product stored in an unsigned int: truncated to 32 bits.
        val = static_cast<std::uint32_t>(pollLimit * m_grow);
        r.adjust = Adjust::Grow;
        r.rawVal = val;
        if (val < m_growStart) {
            val = m_growStart;
            r.raisedToGrowStart = true;
        }
        if (val > m_guestHaltPollNs) {
            val = m_guestHaltPollNs;
            r.cappedAtMax = true;
        }
        dev.pollLimitNs = val;
    } else if (blockNs > m_guestHaltPollNs && m_allowShrink) {
        val = static_cast<std::uint32_t>(pollLimit);
        r.adjust = Adjust::Shrink;
        if (m_shrink == 0) {
            val = 0;
            r.resetToZero = true;
        } else {
            val /= m_shrink;
            r.rawVal = val;
            // v6.9: a window below grow_start is not worth keeping.
            if (val < m_growStart) {
                val = 0;
                r.resetToZero = true;
            }
        }
        dev.pollLimitNs = val;
    }
}

// haltpoll_reflect().
void HaltpollGovernor::reflect(const IdleStateTable &, CpuidleDevice &dev, int index)
{
    HaltpollReasoning &r = std::get<HaltpollReasoning>(m_reasoning);
    // The adjustment part describes this reflect only.
    r.reflected = true;
    r.blockNs = 0;
    r.adjust = HaltpollReasoning::Adjust::None;
    r.rawVal = 0;
    r.raisedToGrowStart = r.cappedAtMax = r.resetToZero = false;
    dev.lastStateIdx = index;
    if (index != 0) {
        r.blockNs = dev.lastResidencyNs;
        adjustPollLimit(dev, static_cast<std::uint64_t>(dev.lastResidencyNs));
    }
    r.newPollLimitNs = dev.pollLimitNs;
}

} // namespace idlescope
