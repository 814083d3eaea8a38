// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Mirrors drivers/cpuidle/cpuidle.c: cpuidle_poll_time() (v5.5–v5.10 and
 * v5.11+ forms) and the above/below counting in cpuidle_enter_state()
 * (unchanged from v5.1 to v7.0).
 */
#include "core/replay/cpuidle_core.h"

#include <algorithm>

namespace idlescope {

Ns cpuidlePollLimit(PollTimeRule rule, const IdleStateTable &drv)
{
    const Ns tickNsec = drv.tickNsec();
    Ns limit = 0;
    if (rule == PollTimeRule::V5_5) {
        // Before v5.11 the first enabled physical state set the limit, however short.
        limit = tickNsec;
        for (int i = 1; i < drv.count(); ++i) {
            if (drv[i].disabled)
                continue;
            limit = drv[i].targetResidencyNs;
            break;
        }
    } else {
        // v5.11 "Select polling interval based on a c-state with a longer
        // target residency": skip states too shallow to be worth leaving
        // polling for, and never poll longer than a sixteenth of a tick.
        const Ns pollMax = tickNsec / 16;
        limit = pollMax;
        for (int i = 1; i < drv.count(); ++i) {
            if (drv[i].disabled)
                continue;
            const Ns stateLimit = drv[i].targetResidencyNs;
            if (stateLimit < CPUIDLE_POLL_MIN)
                continue;
            limit = std::min(stateLimit, pollMax);
            break;
        }
    }
    return limit;
}

} // namespace idlescope
