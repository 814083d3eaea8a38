// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * menu v7.0–v7.1 (variants menu-latest and menu-7.1): the stopped tick
 * handling of this family, part of MenuGovernor (included by
 * menu_governor.cpp only; menu_governor.cpp holds the steps every version
 * shares).
 *
 * Why a family of its own: up to v6.19, with the tick already stopped, a
 * short typical interval skipped the timer query, and step 4 then replaced a
 * prediction shorter than a tick by the time till the next timer. v7.0's
 * "Always check timers with tick stopped" queries the timer whenever the
 * tick is stopped and makes that replacement right in step 2
 * (stoppedTickPrediction()); step 4 then has nothing left to do, and the
 * latency limit is no longer lowered to the prediction (that went in
 * v6.17-rc3 already). v7.1's "Refine stopped tick handling" keeps a short
 * prediction when the next timer is within SAFE_TIMER_RANGE_NS (two ticks):
 * that timer ends a shallow state soon enough.
 *
 * v7.0 also moved the single-state driver out of menu_select(): the core no
 * longer calls the governor (coreSingleState() in menu_governor.cpp answers
 * as it does).
 */
#pragma once

#include "core/governors/menu_governor.h"
#include "core/governors/menu_steps.h"

namespace idlescope {

MENU_STEP std::uint64_t MenuGovernor::stoppedTickPrediction(std::uint64_t predicted, Ns tickNsec)
{
    // Step 2, v7.0+, with the tick stopped and predicted_ns below a tick: a
    // short prediction risks a long stay in a shallow state, so plan for the
    // next timer (v7.1: unless it fires within SAFE_TIMER_RANGE_NS anyway).
    if (m_opt.safeTimerRange && m_nextTimerNs <= std::uint64_t(2 * tickNsec)) {
        m_rec->safeTimerKept = true;
        return predicted;
    }
    m_rec->stoppedTickReplaced = true;
    return m_nextTimerNs;
}

} // namespace idlescope
