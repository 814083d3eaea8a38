// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * menu v5.5–v5.12 (variant menu-5.10): the steps of menu_select() in which
 * this family differs, part of MenuGovernor (included by menu_governor.cpp
 * only; menu_governor.cpp holds the steps every version shares).
 *
 * Why a family of its own: up to v6.5 menu_select() asks for the next timer
 * first and lets the typical interval (the G1 detector of
 * menu_typical_interval.h) only beat the corrected timer prediction, which
 * it takes as its argument; v6.6's "Skip tick_nohz_get_sleep_length() call
 * in some cases" computes the typical interval first and queries the timer
 * only when that interval is long. The timer-first order also means that a
 * select ending at state 0 in step 3 never runs the detector (the record
 * shows no typical interval then).
 *
 * Two smaller v5.5–v5.12 traits are options of the shared steps, read where
 * they apply (MenuOptions::clampNegativeSleep, v5.13's "Take negative sleep
 * length values into account"): a negative sleep length is not clamped, the
 * stopped tick rule plans for delta_next, and a target residency is compared
 * as u64 with delta_tick (trWithin()). The 12 buckets last until v6.12.
 */
#pragma once

#include "core/governors/menu_governor.h"
#include "core/governors/menu_steps.h"

#include <algorithm>

namespace idlescope {

MENU_STEP MenuGovernor::Prediction MenuGovernor::predictTimerFirst(const SelectContext &ctx)
{
    // Step 2, v5.x: the timer only; predicted_ns is not known until
    // typicalAfterTimer() after step 3.
    return Prediction{0, queryTimer(ctx).deltaTickNs, false};
}

MENU_STEP std::uint64_t MenuGovernor::typicalAfterTimer()
{
    // Step 2's prediction, v5.x: the corrected timer prediction, and the
    // typical interval that would have to beat it.
    const std::uint32_t timerUs = m_rec->timerUs;
    return std::uint64_t(std::min(timerUs, typicalInterval(timerUs))) * NSEC_PER_USEC;
}

} // namespace idlescope
