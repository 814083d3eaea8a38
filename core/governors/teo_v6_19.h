// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * teo v6.19–v7.1 (variants teo-6.19, blob 81ac5fd58a1c; teo-latest, v7.0,
 * blob bec0142377b8; teo-7.1, blob ac43b9b013b3): part of TeoGovernor
 * (included by teo_governor.cpp only). The family's option sets open it,
 * its steps follow. teo_select() keeps v6.6's shape (teo_v6_6.h); what this
 * family changed:
 *
 *  - v6.19 "Simplify intercepts-based state lookup": the walk from the
 *    candidate goes down to min_idx (with the tick stopped, the shallowest
 *    state worth a tick period) and takes the shallowest state whose bins
 *    hold the majority of the intercepts, with no "first suitable" fallback.
 *    v7.0 also stops at the bin with the most intercepts; v7.1 "Rearrange
 *    stopped tick handling" drops min_idx and handles a stopped tick after
 *    the sleep length query instead (stoppedTickTimerRule()).
 *  - v6.19 counts tick wakeups in total_tick: a wakeup by the tick is no
 *    longer a safety net but, when ticks dominate, a hit on the deepest bin
 *    (v7.0: also a hit on the timer bin when tick-range intercepts are rare).
 *  - teo_decay() (small metrics drop to 0), the tick-range intercepts
 *    counted at or below TICK_NSEC, v7.0's EL/2 margin for a hit and its
 *    two-thirds tick rule are options of the shared steps in
 *    teo_governor.cpp, read where they apply.
 */
#pragma once

#include "core/governors/teo_steps.h"

namespace idlescope {

namespace teo {

/// v6.19's teo.c (blob 81ac5fd58a1c).
constexpr TeoOptions v6_19()
{
    using O = TeoOptions;
    return {
        .query = O::SleepLengthQuery::AfterCandidate,
        .skip = O::QuerySkip::ShortIdles,
        .safetyNet = O::SafetyNet::PollLimitOnly,
        .total = O::Total::SumOfBins,
        .tickStats = O::TickStats::InterceptsAtOrBelowTick,
        .tickRule = O::TickRule::FiveEighths,
        .tickWakeups = O::TickWakeups::TotalTick,
        .walk = O::InterceptWalk::MinIdx,
        .recentIntercepts = false,
        .utilAwareness = false,
        .shortIdles = true,
        .stateOkAfterShallower = false,
        .decayToZero = true,
        .hitNeedsTimerProximity = false,
        .singleStateInCore = false,
    };
}

/// v7.0's teo.c (blob bec0142377b8).
constexpr TeoOptions v7_0()
{
    using O = TeoOptions;
    TeoOptions o = v6_19();
    // "Refine tick_intercepts vs total events check" (two thirds), a hit on the
    // timer bin from a tick wakeup, the walk's stop at the bin with the most
    // intercepts, the EL/2 margin for a hit, and one state decided in the core.
    o.tickRule = O::TickRule::TwoThirds;
    o.tickWakeups = O::TickWakeups::TotalTickOrHit;
    o.walk = O::InterceptWalk::MinIdxMaxIntercepts;
    o.hitNeedsTimerProximity = true;
    o.singleStateInCore = true;
    return o;
}

/// v7.1: v7.0 with "Rearrange stopped tick handling" (blob ac43b9b013b3).
constexpr TeoOptions v7_1()
{
    TeoOptions o = v7_0();
    o.safeTimerRange = true;
    return o;
}

} // namespace teo

TEO_STEP int TeoGovernor::walkMinIdx(const IdleStateTable &drv, const SelectContext &ctx, const Candidate &cand,
                                     bool trackMax, Notes &notes)
{
    // v6.19+: walk down from the candidate, never below min_idx (with the
    // tick stopped, the shallowest state worth a tick period), to the
    // shallowest state whose bins hold the majority of the intercepts.
    const int idx = cand.idx;
    int minIdx = cand.idx0;
    // v7.1 dropped min_idx: the stopped tick is handled after the sleep length query.
    const bool stoppedTickMinIdx = !m_opt.safeTimerRange;
    if (stoppedTickMinIdx && ctx.tickStopped) {
        while (minIdx < idx && drv[minIdx].targetResidencyNs < ctx.tickNsec)
            minIdx++;
    }
    notes.st.minIdx = minIdx;
    // v7.0: min_idx shares the candidate's residency, its bin is empty.
    if (stoppedTickMinIdx && ctx.tickStopped && trackMax && drv[minIdx].targetResidencyNs == drv[idx].targetResidencyNs)
        return idx;
    // v7.0: the busiest intercepts bin is at or below min_idx.
    if (stoppedTickMinIdx && trackMax && minIdx >= cand.interceptMaxIdx && !drv[minIdx].disabled)
        return minIdx;
    int found = idx;
    std::uint32_t walkIntercepts = 0;
    for (int i = idx - 1; i >= minIdx; --i) {
        walkIntercepts += m_intercepts[static_cast<size_t>(i)];
        if (drv[i].disabled)
            continue;
        found = i;
        if (2u * walkIntercepts > cand.idxInterceptSum && (!trackMax || i <= cand.interceptMaxIdx))
            break;
    }
    return found;
}

template <class P>
TEO_STEP bool TeoGovernor::tickWakeupWith(int n, const Bins &b, TeoSteps &st)
{
    // v6.19+: total_tick; a tick wakeup may be counted here, not as an intercept.
    const TeoOptions o = P::get(m_opt);
    const std::uint32_t pulse = m_pulse;
    m_totalTick = decayed(m_totalTick, o.decayToZero);
    if (!m_tickWakeup)
        return false;
    m_totalTick += pulse;
    // Tick wakeups dominate: favour the deepest state so the tick gets stopped.
    if (3u * m_totalTick > 2u * m_total) {
        m_hits[static_cast<size_t>(n - 1)] += pulse;
        st.update = TeoReasoning::Update::TickDominant;
        st.updateBin = n - 1;
        return true;
    }
    // v7.0: a tick that came while tick-range intercepts are rare most
    // likely replaced a missing intercept; count it as a timer hit.
    if (o.tickWakeups == TeoOptions::TickWakeups::TotalTickOrHit && 3u * m_tickIntercepts < 2u * b.total) {
        m_hits[static_cast<size_t>(b.timer)] += pulse;
        st.update = TeoReasoning::Update::TickWakeupHit;
        st.updateBin = b.timer;
        return true;
    }
    return false;
}

TEO_STEP TeoGovernor::Choice TeoGovernor::stoppedTickTimerRule(const IdleStateTable &drv, Choice ch, Notes &notes)
{
    // v7.1: the tick is stopped and the closest timer is more than
    // SAFE_TIMER_RANGE_NS away, so a shallow state could hold the CPU for
    // long: the deepest enabled state within the latency limit whose target
    // residency fits the sleep length, and return (the tick stays stopped).
    for (int i = notes.constraintIdx; i > ch.idx; --i) {
        if (drv[i].disabled)
            continue;
        if (drv[i].targetResidencyNs <= ch.durationNs) {
            ch.idx = i;
            break;
        }
    }
    notes.st.safeTimerRangeDeeper = true;
    notes.path = TeoReasoning::Path::StoppedTickTimer;
    ch.exit = Choice::Exit::End;
    return ch;
}

} // namespace idlescope
