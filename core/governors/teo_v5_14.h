// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * teo v5.14–v6.5, the family of the June 2021 rework: variant teo-5.14
 * (blob d9262db79cae, unchanged through v6.2; v6.3 added util-awareness,
 * which teo-6.10 reproduces). Part of TeoGovernor, included by
 * teo_governor.cpp only (which holds the steps families share); the
 * family's option set opens it, its steps follow.
 *
 * Why a family of its own: until v6.6 teo_select() asks for the sleep length
 * before anything else (tick_nohz_get_sleep_length() up front). So the
 * candidate is the deepest state within the sleep length, a state 1 that
 * does not fit the sleep length ends the select at state 0 at once, and the
 * intercepts walk expects the middle of the bin it picks
 * (teo_middle_of_bin()), checked against a stopped tick by teo_time_ok().
 * v6.6's "Do not call tick_nohz_get_sleep_length() upfront" turned the
 * flow around (teo_v6_6.h).
 *
 * v6.3–v6.5 keep this shape and add util-awareness (the utilizedTwoStates()
 * check below, from teo_v6_6.h; no variant here reproduces those three
 * versions). Two steps of this family outlived it and sit with the shared
 * steps in teo_governor.cpp: the intercepts walk to the first suitable
 * state (with the middle of the bin here, with teo_state_ok() in v6.6–v6.18)
 * and the NR_RECENT ring of recent intercepts (until v6.10).
 */
#pragma once

#include "core/governors/teo_steps.h"

#include <optional>

namespace idlescope {

namespace teo {

/// v5.14's teo.c (blob d9262db79cae), unchanged through v6.2.
constexpr TeoOptions v5_14()
{
    using O = TeoOptions;
    return {
        .query = O::SleepLengthQuery::Upfront,
        .skip = O::QuerySkip::Never,
        .safetyNet = O::SafetyNet::TimeSpan,
        .total = O::Total::SumOfBins,
        .tickStats = O::TickStats::None,
        .tickRule = O::TickRule::None,
        .tickWakeups = O::TickWakeups::SafetyNet,
        .walk = O::InterceptWalk::FirstSuitable,
        .recentIntercepts = true,
        .utilAwareness = false,
        .shortIdles = false,
        .stateOkAfterShallower = false,
        .decayToZero = false,
        .hitNeedsTimerProximity = false,
        .singleStateInCore = false,
    };
}

} // namespace teo

template <class P>
TEO_STEP TeoGovernor::Choice TeoGovernor::selectUpfrontWith(const IdleStateTable &drv, const SelectContext &ctx,
                                                            Notes &notes)
{
    // v5.14: the sleep length first; the candidate must fit within it.
    const TeoOptions o = P::get(m_opt);
    Choice ch = querySleepLength(ctx, Choice{0, 0, 0, false, Choice::Exit::End}, notes);
    // Step 1.
    if (drv.count() < 2) {
        notes.path = TeoReasoning::Path::NoChoice;
        return ch;
    }
    const int first = drv[0].disabled ? -1 : 0;
    // State 1 does not fit the sleep length, so state 0 it is.
    if (first == 0 && drv[1].targetResidencyNs > ch.durationNs)
        return ch;
    if (o.utilAwareness) {
        if (const std::optional<Choice> u = utilizedTwoStates(drv, ctx, first, ch, notes))
            return *u;
    }
    // Step 2.
    const Candidate cand = candidateWith<P>(drv, ctx, first, ch.durationNs, notes);
    if (cand.idx < 0) {
        notes.path = TeoReasoning::Path::NoChoice; // nothing enabled: state 0 regardless
        return ch;
    }
    ch.idx = cand.idx;
    if (cand.idx == cand.idx0)
        return ch; // the shallowest enabled state: nothing shallower to look for
    // Steps 3 and 4.
    return shallowerWith<P>(drv, ctx, cand, ch, notes);
}

} // namespace idlescope
