// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Mirrors drivers/cpuidle/governors/ladder.c of Linux v7.0 (blob 6617eb494a11;
 * the file is unchanged since v6.10).
 *
 * Vocabulary. The ladder climbs the state table one rung at a time. The rung it
 * stands on is dev->last_state_idx, which ladder uses as its own memory. The
 * "last residency" is the measured residency of the last entry minus that
 * rung's exit latency. A residency is "long" when it exceeds the rung's
 * promotion time and "short" when it is below its demotion time; both
 * thresholds are the rung's exit latency (the deepest rung has no promotion
 * time and the first usable rung no demotion time: those stay 0). The first
 * usable rung (first_idx) is 1 when state 0 is the polling loop, else 0.
 *
 * Selection, in order (ladder_select_state()):
 *  1. Latency limit 0: reset the current rung's counters and go to state 0.
 *  2. Promotion: if a deeper rung exists, is enabled, fits the latency limit
 *     and the last residency was long, count one promotion (and clear the
 *     demotion count); at PROMOTION_COUNT step one rung deeper.
 *  3. Forced demotion: if the current rung is above first_idx and disabled or
 *     over the latency limit, scan down for the first rung above first_idx
 *     that fits the limit, landing on first_idx if none does. Disabled rungs
 *     are not skipped by this scan, and first_idx itself is not checked.
 *  4. Demotion: if the current rung is above first_idx and the last residency
 *     was short, count one demotion (and clear the promotion count); at
 *     DEMOTION_COUNT step one rung shallower.
 *  5. Otherwise stay. A counted promotion that did not reach the threshold
 *     falls through to steps 3-4, as in the kernel.
 * Every move resets the counters of the rung being left. reflect() records
 * the entered state only when it is above 0.
 *
 * One state. Since v7.0 cpuidle_select() does not call the governor when the
 * driver has a single state: state 0 with the tick kept. That is done here,
 * before step 1, because ladder itself would go wrong: with a single polling
 * state first_idx is 1, past the table (the crash the v7.0 change fixed).
 *
 * Integer types matter: the thresholds are u64 and last_residency is s64, so
 * C compares them as u64. A negative last residency (last_residency_ns below
 * the exit latency; e.g. the zeroed device at the first select) therefore
 * counts as long, never as short. Counters are int, count thresholds u32.
 * States below first_idx (the polling state) are skipped by enable(), so
 * their thresholds stay 0: a ladder that was sent to state 0 by a zero
 * latency limit climbs back at the first long residency.
 *
 * Deviations from the kernel: none in decisions. The kernel's per-CPU data
 * is zero at boot and enable() leaves states below first_idx alone; here
 * enable() zeroes everything first, which is the same as a freshly booted
 * CPU. ladder never writes *stop_tick, so the tick is always stopped.
 */
#include "core/governors/ladder_governor.h"

#include "core/governors/registry.h"
#include "core/governors/tunable_check.h"

namespace idlescope {

namespace {

constexpr VariantInfo kLadder[] = {
    {"ladder-latest",
     "ladder",
     "v7.0",
     {7, 0},
     "Residency ladder: one state deeper after 4 long residencies, one shallower after a short one",
     PollTimeRule::V5_11,
     true},
};

constexpr TunableInfo kLadderTunables[] = {
    {"PROMOTION_COUNT", "Long residencies in a row before stepping one state deeper", "count", ladder::PROMOTION_COUNT,
     1, 1000},
    {"DEMOTION_COUNT", "Short residencies in a row before stepping one state shallower", "count",
     ladder::DEMOTION_COUNT, 1, 1000},
};

int firstUsableIdx(const IdleStateTable &drv)
{
    return drv[0].polling ? 1 : 0;
}

/// Step 3's target: the deepest state below the rung within the latency
/// limit, first_idx if none is.
int forcedDemotionIdx(const IdleStateTable &drv, int lastIdx, int firstIdx, Ns latencyReq)
{
    int i = lastIdx - 1;
    for (; i > firstIdx; --i)
        if (drv[i].exitLatencyNs <= latencyReq)
            break;
    return i;
}

/// The rung's counters as the decision left them, into the record.
template <class State>
void recordCounts(LadderReasoning &r, const State &last)
{
    r.promotionCount = last.promotionCount;
    r.demotionCount = last.demotionCount;
}

/// The decision into the record; ladder never writes *stop_tick.
Selection finishSelection(LadderReasoning &r, int idx, LadderReasoning::Action a)
{
    r.action = a;
    r.chosenIdx = idx;
    return Selection{idx, true, -1};
}

/// v7.0 cpuidle_select() on a one-state driver: state 0 with the tick kept, ladder not called.
Selection coreSingleState(LadderReasoning &r)
{
    r.lastIdx = r.firstIdx = 0;
    r.action = LadderReasoning::Action::CoreSingleState;
    r.chosenIdx = 0;
    return Selection{0, false, -1};
}

} // namespace

std::span<const VariantInfo> ladderVariants()
{
    return kLadder;
}

std::unique_ptr<Governor> makeLadderGovernor(const VariantInfo &v)
{
    return std::make_unique<LadderGovernor>(v);
}

LadderGovernor::LadderGovernor(const VariantInfo &v) : m_variant(v)
{
    m_reasoning.emplace<LadderReasoning>();
}

std::span<const TunableInfo> LadderGovernor::tunables() const
{
    return kLadderTunables;
}

std::span<const TunableRow<LadderGovernor>> LadderGovernor::tunableRows()
{
    // Like the kernel's #defines, the counts reach the per-state thresholds at enable().
    using G = LadderGovernor;
    static constexpr TunableRow<G> rows[] = {
        {kLadderTunables[0], [](const G &g) -> std::int64_t { return g.m_promotionCount; },
         [](G &g, std::int64_t v) { g.m_promotionCount = v; }},
        {kLadderTunables[1], [](const G &g) -> std::int64_t { return g.m_demotionCount; },
         [](G &g, std::int64_t v) { g.m_demotionCount = v; }},
    };
    static_assert(std::size(rows) == std::size(kLadderTunables));
    return rows;
}

// ladder_enable_device(): thresholds from the table, counters cleared.
void LadderGovernor::enable(const IdleStateTable &drv, CpuidleDevice &dev)
{
    const int firstIdx = firstUsableIdx(drv);
    m_states = {};
    dev.lastStateIdx = firstIdx;
    for (int i = firstIdx; i < drv.count(); ++i) {
        LadderState &ls = m_states[static_cast<size_t>(i)];
        ls.promotionCountThreshold = static_cast<std::uint32_t>(m_promotionCount);
        ls.demotionCountThreshold = static_cast<std::uint32_t>(m_demotionCount);
        if (i < drv.count() - 1)
            ls.promotionTimeNs = static_cast<std::uint64_t>(drv[i].exitLatencyNs);
        if (i > firstIdx)
            ls.demotionTimeNs = static_cast<std::uint64_t>(drv[i].exitLatencyNs);
    }
    m_reasoning.emplace<LadderReasoning>();
}

// ladder_do_selection(): leaving a rung forgets its counts.
int LadderGovernor::doSelection(CpuidleDevice &dev, int oldIdx, int newIdx)
{
    m_states[static_cast<size_t>(oldIdx)].promotionCount = 0;
    m_states[static_cast<size_t>(oldIdx)].demotionCount = 0;
    dev.lastStateIdx = newIdx;
    return newIdx;
}

Selection LadderGovernor::select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx)
{
    using Action = LadderReasoning::Action;
    const int lastIdx = dev.lastStateIdx;
    const int firstIdx = firstUsableIdx(drv);
    const Ns latencyReq = ctx.latencyReqNs;
    LadderReasoning &r = std::get<LadderReasoning>(m_reasoning);
    r = LadderReasoning{.lastIdx = lastIdx, .firstIdx = firstIdx, .latencyReqNs = latencyReq};
    auto finish = [&](int idx, Action a) { return finishSelection(r, idx, a); };

    if (drv.count() <= 1)
        return coreSingleState(r);

    // Step 1: a zero latency limit allows nothing but state 0.
    if (latencyReq == 0)
        return finish(doSelection(dev, lastIdx, 0), Action::LatencyZero);

    LadderState &last = m_states[static_cast<size_t>(lastIdx)];
    const Ns lastResidency = dev.lastResidencyNs - drv[lastIdx].exitLatencyNs;
    // s64 against u64 thresholds: C converts to u64, so a negative residency is "long".
    const auto lastResidencyU = static_cast<std::uint64_t>(lastResidency);
    r.lastResidencyNs = lastResidency;
    r.promotionTimeNs = static_cast<Ns>(last.promotionTimeNs);
    r.demotionTimeNs = static_cast<Ns>(last.demotionTimeNs);

    // Step 2: promotion.
    if (lastIdx < drv.count() - 1 && !drv[lastIdx + 1].disabled && lastResidencyU > last.promotionTimeNs
        && drv[lastIdx + 1].exitLatencyNs <= latencyReq) {
        r.promotionCandidate = true;
        last.promotionCount++;
        last.demotionCount = 0;
        recordCounts(r, last);
        if (static_cast<std::uint32_t>(last.promotionCount) >= last.promotionCountThreshold)
            return finish(doSelection(dev, lastIdx, lastIdx + 1), Action::Promote);
    }

    // Step 3: forced demotion off a rung that is disabled or too slow to leave.
    if (lastIdx > firstIdx && (drv[lastIdx].disabled || drv[lastIdx].exitLatencyNs > latencyReq)) {
        recordCounts(r, last);
        return finish(doSelection(dev, lastIdx, forcedDemotionIdx(drv, lastIdx, firstIdx, latencyReq)),
                      Action::ForcedDemote);
    }

    // Step 4: demotion.
    if (lastIdx > firstIdx && lastResidencyU < last.demotionTimeNs) {
        r.demotionCandidate = true;
        last.demotionCount++;
        last.promotionCount = 0;
        recordCounts(r, last);
        if (static_cast<std::uint32_t>(last.demotionCount) >= last.demotionCountThreshold)
            return finish(doSelection(dev, lastIdx, lastIdx - 1), Action::Demote);
    }

    // Step 5: stay.
    recordCounts(r, last);
    return finish(lastIdx, Action::Stay);
}

// ladder_reflect(): state 0 is never remembered as the rung.
void LadderGovernor::reflect(const IdleStateTable &, CpuidleDevice &dev, int index)
{
    if (index > 0)
        dev.lastStateIdx = index;
}

} // namespace idlescope
