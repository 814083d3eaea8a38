// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * teo v6.6–v6.18: variants teo-6.10 (v6.6–v6.10, blob 7244f71c59c5) and
 * teo-6.14 (v6.14–v6.18, blob 8fe5e1b47ef9). Part of TeoGovernor, included
 * by teo_governor.cpp only; the family's option sets open it, its steps
 * follow.
 *
 * Why a family of its own: v6.6's "Do not call tick_nohz_get_sleep_length()
 * upfront" made teo_select() pick the candidate and run the intercepts walk
 * first, with the sleep length "unknown" (KTIME_MAX), and ask for the sleep
 * length only afterwards and only for a candidate deep enough to need it:
 * a shallow candidate keeps the tick without the query. v6.19 and later keep
 * this shape (selectDeferredWith() and the sleep length step below serve
 * them too; teo_v6_19.h has what they changed).
 *
 * Inside the family, two generations of statistics:
 *  - v6.6–v6.10 (teo-6.10): util-awareness from v6.3 (a utilized CPU with two
 *    states needs no metrics; otherwise it prefers a shallower non-polling
 *    state), and, when no state is as deep as a tick, a hits-only "tick
 *    bin" beyond the last state whose hits and the intercepts below count
 *    for the tick rule. The skip rule: candidate 0, or a TR below
 *    RESIDENCY_THRESHOLD_NS with a polling state 0.
 *  - v6.14–v6.18 (teo-6.14): util-awareness was reverted in v6.11, and the
 *    January 2025 clean-up series replaced the tick bin and the recent
 *    intercepts by the short_idles and tick_intercepts metrics, kept by
 *    teo_update() in teo_governor.cpp; the query is skipped for a shallow
 *    candidate only when short idles dominate or the latency limit is tight.
 */
#pragma once

#include "core/governors/teo_steps.h"

#include <optional>

namespace idlescope {

namespace teo {

/// teo.c of v6.6–v6.10 (blob 7244f71c59c5).
constexpr TeoOptions v6_10()
{
    using O = TeoOptions;
    return {
        .query = O::SleepLengthQuery::AfterCandidate,
        .skip = O::QuerySkip::ShallowCandidate,
        .safetyNet = O::SafetyNet::TimeSpan,
        .total = O::Total::SumOfBins,
        .tickStats = O::TickStats::TickHitsBin,
        .tickRule = O::TickRule::FiveEighths,
        .tickWakeups = O::TickWakeups::SafetyNet,
        .walk = O::InterceptWalk::FirstSuitable,
        .recentIntercepts = true,
        .utilAwareness = true,
        .shortIdles = false,
        .stateOkAfterShallower = true,
        .decayToZero = false,
        .hitNeedsTimerProximity = false,
        .singleStateInCore = false,
    };
}

/// v6.14's teo.c (blob 8fe5e1b47ef9); v6.15–v6.18 decide the same.
constexpr TeoOptions v6_14()
{
    using O = TeoOptions;
    TeoOptions o = v6_10();
    // v6.11 reverted util-awareness; the January 2025 clean-up series replaced
    // the tick bin and the recent intercepts by short_idles and tick_intercepts,
    // decays the total on its own and wakes the CPU artificially as its safety net.
    o.skip = O::QuerySkip::ShortIdles;
    o.safetyNet = O::SafetyNet::ArtificialWakeup;
    o.total = O::Total::Decayed;
    o.tickStats = O::TickStats::InterceptsAtOrAboveTick;
    o.recentIntercepts = false;
    o.utilAwareness = false;
    o.shortIdles = true;
    return o;
}

} // namespace teo

template <class P>
TEO_STEP TeoGovernor::Choice TeoGovernor::selectDeferredWith(const IdleStateTable &drv, const SelectContext &ctx,
                                                             Notes &notes)
{
    // v6.6+: the sleep length is "unknown" (KTIME_MAX) until step 5 asks for
    // it: a wakeup after a skipped query is judged by its measured duration.
    const TeoOptions o = P::get(m_opt);
    m_sleepLengthNs = KTIME_MAX;
    Choice ch{0, 0, ctx.tickNsec / 2, false, Choice::Exit::OutTick};
    // Step 1.
    if (drv.count() < 2) {
        notes.path = TeoReasoning::Path::NoChoice;
        return ch;
    }
    const int first = drv[0].disabled ? -1 : 0;
    if (o.utilAwareness) {
        if (const std::optional<Choice> u = utilizedTwoStates(drv, ctx, first, ch, notes))
            return *u;
    }
    // Step 2.
    const Candidate cand = candidateWith<P>(drv, ctx, first, KTIME_MAX, notes);
    if (cand.idx < 0) {
        notes.path = TeoReasoning::Path::NoChoice; // nothing enabled: state 0 regardless
        return ch;
    }
    if (cand.idx == cand.idx0) {
        // The shallowest enabled state: nothing shallower to look for.
        notes.path = TeoReasoning::Path::NoChoice;
        return Choice{cand.idx, drv[cand.idx].targetResidencyNs, ch.deltaTickNs, true, Choice::Exit::End};
    }
    // Steps 3 to 5.
    ch = shallowerWith<P>(drv, ctx, cand, ch, notes);
    return sleepLengthStepWith<P>(drv, ctx, ch, notes);
}

template <class P>
TEO_STEP TeoGovernor::Choice TeoGovernor::sleepLengthStepWith(const IdleStateTable &drv, const SelectContext &ctx,
                                                              Choice ch, Notes &notes)
{
    // Step 5 (v6.6+): the sleep length, unless a skip rule spares the query.
    const TeoOptions o = P::get(m_opt);
    TeoSteps &st = notes.st;
    if (skipQueryWith<P>(drv, ctx, ch.idx)) {
        st.skippedQuery = true;
        notes.path = TeoReasoning::Path::SkipSleepLength;
        ch.exit = Choice::Exit::OutTick;
        return ch;
    }
    ch = querySleepLength(ctx, ch, notes);
    if (o.safeTimerRange && ctx.tickStopped && ch.durationNs > 2 * ctx.tickNsec
        && drv[ch.idx].targetResidencyNs < ctx.tickNsec)
        return stoppedTickTimerRule(drv, ch, notes);
    if (ch.idx == 0) {
        ch.exit = Choice::Exit::OutTick;
        return ch;
    }
    if (drv[ch.idx].targetResidencyNs > ch.durationNs) {
        const int i = findShallowerState(drv, ch.idx, ch.durationNs, false);
        if ((!o.stateOkAfterShallower || stateOk(drv, i, ctx.tickStopped)) && i != ch.idx) {
            ch.idx = i;
            st.sleepLengthRefined = true;
            notes.path = TeoReasoning::Path::SleepLength;
        }
    }
    if (drv[ch.idx].targetResidencyNs < ctx.tickNsec && tickInterceptsRuleWith<P>(st.tickInterceptSum)) {
        ch.durationNs = ctx.tickNsec / 2;
        st.tickInterceptsRule = true;
        notes.path = TeoReasoning::Path::TickIntercepts;
    }
    ch.exit = Choice::Exit::End;
    return ch;
}

template <class P>
TEO_STEP bool TeoGovernor::skipQueryWith(const IdleStateTable &drv, const SelectContext &ctx, int idx) const
{
    // v6.6+: a shallow candidate does not need the timer query.
    const TeoOptions o = P::get(m_opt);
    const Ns tr = drv[idx].targetResidencyNs;
    if (o.skip == TeoOptions::QuerySkip::ShallowCandidate)
        return idx == 0 || (drv[0].polling && tr < m_residencyThresholdNs);
    if (o.skip == TeoOptions::QuerySkip::ShortIdles)
        return !(o.safeTimerRange && ctx.tickStopped) && (idx == 0 || tr < m_residencyThresholdNs)
               && (2u * m_shortIdles >= m_total || ctx.latencyReqNs < m_latencyThresholdNs);
    return false;
}

template <class P>
TEO_STEP bool TeoGovernor::tickInterceptsRuleWith(std::uint32_t tickInterceptSum) const
{
    // Tick-range intercepts are frequent: keep the tick for a shallow state.
    const TeoOptions o = P::get(m_opt);
    const std::uint32_t total = m_total;
    if (o.tickRule == TeoOptions::TickRule::FiveEighths) {
        const std::uint32_t sum =
            o.tickStats == TeoOptions::TickStats::TickHitsBin ? tickInterceptSum : m_tickIntercepts;
        return sum > total / 2 + total / 8;
    }
    if (o.tickRule == TeoOptions::TickRule::TwoThirds)
        return 3u * m_tickIntercepts >= 2u * total;
    return false;
}

TEO_STEP std::optional<TeoGovernor::Choice> TeoGovernor::utilizedTwoStates(const IdleStateTable &drv,
                                                                           const SelectContext &ctx, int first,
                                                                           Choice ch, Notes &notes)
{
    // teo-6.10, step 1: two states and a busy CPU need no metrics.
    TeoSteps &st = notes.st;
    st.util = ctx.util;
    st.utilThreshold = static_cast<int>(teo::SCHED_CAPACITY_SCALE >> m_utilShift);
    st.utilized = ctx.util > st.utilThreshold;
    if (drv.count() >= 3 || !st.utilized)
        return std::nullopt;
    notes.path = TeoReasoning::Path::Utilized;
    st.utilShallower = true;
    if ((first == 0 && !drv[0].polling && stateOk(drv, 0, ctx.tickStopped)) || drv[1].disabled) {
        ch.idx = 0;
        ch.exit = Choice::Exit::OutTick;
        return ch;
    }
    ch.idx = 1;
    ch.durationNs = drv[1].targetResidencyNs;
    ch.hasDuration = true;
    ch.exit = Choice::Exit::End;
    return ch;
}

TEO_STEP TeoGovernor::Bins TeoGovernor::tickBin(const IdleStateTable &drv, int n, Ns measuredNs, Bins b)
{
    // v6.6–v6.10: with no state as deep as a tick, an extra hits-only bin
    // beyond the last state records sleeps that lasted a tick period.
    const Ns tick = m_tickNsec;
    if (drv[n - 1].targetResidencyNs >= tick)
        return b;
    m_tickHits -= m_tickHits >> m_decayShift;
    b.total += m_tickHits;
    if (tick <= m_sleepLengthNs) {
        b.timer = n;
        if (tick <= measuredNs) {
            m_tickHits += m_pulse;
            b.tickHit = true;
        }
    }
    return b;
}

} // namespace idlescope
