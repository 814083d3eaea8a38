// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cpuidle_device.h
 * The per-CPU fields that governors read and write in struct cpuidle_device
 * (include/linux/cpuidle.h), plus the tick code's sticky got_tick flag
 * (kernel/time/tick-sched.c) that tick_nohz_idle_got_tick() reads and clears.
 */
#pragma once

#include "core/common/kernel_types.h"

namespace idlescope {

struct CpuidleDevice {
    int lastStateIdx = 0;       ///< dev->last_state_idx
    Ns lastResidencyNs = 0;     ///< dev->last_residency_ns (set by cpuidle_enter_state)
    Ns pollLimitNs = 0;         ///< dev->poll_limit_ns (cpuidle_poll_time() cache; haltpoll owns it)
    bool pollTimeLimit = false; ///< dev->poll_time_limit (polling ended by its time limit)
    bool gotTickFlag = false;   ///< ts->got_idle_tick: set by every tick that fires while idle

    /// tick_nohz_idle_got_tick(): returns the sticky flag and clears it.
    bool tickNohzIdleGotTick()
    {
        bool got = gotTickFlag;
        gotTickFlag = false;
        return got;
    }
};

} // namespace idlescope
