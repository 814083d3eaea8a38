// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file haltpoll_reasoning.h
 * What haltpoll_select() and, after the entry, adjust_poll_limit()
 * (drivers/cpuidle/governors/haltpoll.c, v7.0) computed. select() fills the
 * first part; reflect() of the same entry fills the adjustment part, so the
 * record read after an entry describes all of it. Fixed size.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <cstdint>

namespace idlescope {

struct HaltpollReasoning {
    enum class Action : std::uint8_t {
        LatencyZero,     ///< latency_req == 0: poll, keep the tick
        NoPollWindow,    ///< poll_limit_ns == 0: halt, stop_tick left alone
        PollAgain,       ///< last entry polled and was woken by an event: poll again
        PollExpired,     ///< last entry polled until the window ran out: halt
        AfterHalt,       ///< last entry halted: poll first
        CoreSingleState, ///< v7.0 core: one state only, the governor is not consulted
    };
    enum class Adjust : std::uint8_t {
        None,   ///< polling state entered, or block time in neither range
        Grow,   ///< poll_limit < block <= guest_halt_poll_ns
        Shrink, ///< block > guest_halt_poll_ns with shrinking allowed
    };

    // haltpoll_select()
    Ns latencyReqNs = 0;
    int lastStateIdx = 0;       ///< dev->last_state_idx at select
    bool pollTimeLimit = false; ///< dev->poll_time_limit at select
    Ns pollLimitNs = 0;         ///< dev->poll_limit_ns at select
    Action action = Action::NoPollWindow;
    int chosenIdx = 0;

    // haltpoll_reflect() / adjust_poll_limit() of this entry
    bool reflected = false;
    Ns blockNs = 0; ///< last_residency_ns of a halt entry
    Adjust adjust = Adjust::None;
    std::uint32_t rawVal = 0;       ///< the 32-bit val before the grow_start floor / cap / zero rule
    bool raisedToGrowStart = false; ///< grow: val < grow_start, raised to it
    bool cappedAtMax = false;       ///< grow: val > guest_halt_poll_ns, capped
    bool resetToZero = false;       ///< shrink: below grow_start (v6.9+) or shrink factor 0
    Ns newPollLimitNs = 0;          ///< dev->poll_limit_ns after reflect
};

} // namespace idlescope
