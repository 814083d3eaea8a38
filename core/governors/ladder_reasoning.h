// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file ladder_reasoning.h
 * What ladder_select_state() (drivers/cpuidle/governors/ladder.c) computed.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <cstdint>

namespace idlescope {

struct LadderReasoning {
    enum class Action : std::uint8_t { Stay, Promote, Demote, ForcedDemote, LatencyZero };
    int lastIdx = 0;           ///< ladder's last_state_idx before this select
    Ns lastResidencyNs = 0;    ///< last_residency_ns minus the exit latency
    int promotionCount = 0;    ///< counter of lastIdx after this select
    int demotionCount = 0;
    Action action = Action::Stay;
    int chosenIdx = 0;
};

} // namespace idlescope
