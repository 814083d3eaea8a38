// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file ladder_reasoning.h
 * What ladder_select_state() (drivers/cpuidle/governors/ladder.c, v7.0)
 * computed for one decision. Fixed size; filled on every select.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <cstdint>

namespace idlescope {

struct LadderReasoning {
    enum class Action : std::uint8_t {
        Stay,            ///< no rule fired: the ladder stays on lastIdx
        Promote,         ///< promotion count reached: one step deeper
        Demote,          ///< demotion count reached: one step shallower
        ForcedDemote,    ///< lastIdx disabled or over the latency limit: scan down
        LatencyZero,     ///< latency_req == 0: state 0 at once
        CoreSingleState, ///< v7.0 core: one state only, the governor is not consulted
    };
    int lastIdx = 0;                 ///< ladder's dev->last_state_idx before this select
    int firstIdx = 0;                ///< 1 when state 0 polls, else 0
    Ns lastResidencyNs = 0;          ///< last_residency_ns minus lastIdx's exit latency (s64, may be < 0)
    Ns latencyReqNs = 0;             ///< cpuidle_governor_latency_req()
    Ns promotionTimeNs = 0;          ///< lastIdx's promotion threshold (its exit latency, 0 if unset)
    Ns demotionTimeNs = 0;           ///< lastIdx's demotion threshold (its exit latency, 0 if unset)
    bool promotionCandidate = false; ///< the promotion test held (residency long enough, next state usable)
    bool demotionCandidate = false;  ///< the demotion test held (residency too short)
    int promotionCount = 0;          ///< lastIdx's promotion counter as compared (before a move resets it)
    int demotionCount = 0;           ///< lastIdx's demotion counter as compared (before a move resets it)
    Action action = Action::Stay;
    int chosenIdx = 0;
};

} // namespace idlescope
