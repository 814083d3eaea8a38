// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file haltpoll_reasoning.h
 * What haltpoll_select()/adjust_poll_limit() (drivers/cpuidle/governors/haltpoll.c) computed.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <cstdint>

namespace idlescope {

struct HaltpollReasoning {
    enum class Action : std::uint8_t { LatencyZero, NoPollWindow, PollAgain, PollExpired, AfterHalt };
    enum class Adjust : std::uint8_t { None, Grow, Shrink };
    Ns pollLimitNs = 0;       ///< dev->poll_limit_ns at select
    Ns lastBlockNs = 0;       ///< last halt's block time that drove the adjustment
    Adjust lastAdjust = Adjust::None;
    Action action = Action::NoPollWindow;
    int chosenIdx = 0;
};

} // namespace idlescope
