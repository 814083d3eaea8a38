// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cpuidle_core.h
 * The two pieces of the cpuidle core (drivers/cpuidle/cpuidle.c) that decide
 * what the governors see: cpuidle_poll_time() and the above/below accounting
 * of cpuidle_enter_state().
 */
#pragma once

#include "core/governors/cpuidle_device.h"
#include "core/governors/governor.h"
#include "core/states/idle_state_table.h"

namespace idlescope {

/// CPUIDLE_POLL_MIN (v5.11+): states with a shorter target residency do not set the poll limit.
inline constexpr Ns CPUIDLE_POLL_MIN = 10 * NSEC_PER_USEC;

/**
 * cpuidle_poll_time(): how long the polling state may spin, in ns.
 * Returns dev.pollLimitNs when non-zero (cached, or set by haltpoll);
 * otherwise computes it by the version's rule and caches it.
 * V5_5 (v5.5–v5.10): TR of the first enabled state after state 0, else TICK_NSEC.
 * V5_11 (v5.11+): first enabled state with TR >= CPUIDLE_POLL_MIN, clamped to
 * TICK_NSEC/16 (the clamp is also the default).
 */
inline Ns cpuidlePollTime(PollTimeRule rule, const IdleStateTable &drv, CpuidleDevice &dev);

/// The limit cpuidle_poll_time() computes by @p rule when nothing is cached.
Ns cpuidlePollLimit(PollTimeRule rule, const IdleStateTable &drv);

/// Which miss counter an entry incremented.
struct MissFlags {
    bool above = false; ///< too deep: residency < TR and a shallower state is enabled
    bool below = false; ///< too shallow: the next enabled deeper state would have fitted
};

/**
 * cpuidle_enter_state()'s accounting for an entry of state @p entered that
 * lasted @p diffNs with exit latency @p delayNs (v5.1+ rules; strict
 * comparisons, only the first enabled neighbour is examined).
 */
inline MissFlags classifyMiss(const IdleStateTable &drv, int entered, Ns diffNs, Ns delayNs);

// Both run on every entry of a replay (a run of polls makes one entry per
// 2 us): inline here, so that the common case costs a few compares.

inline Ns cpuidlePollTime(PollTimeRule rule, const IdleStateTable &drv, CpuidleDevice &dev)
{
    if (!dev.pollLimitNs)
        dev.pollLimitNs = cpuidlePollLimit(rule, drv);
    return dev.pollLimitNs;
}

inline MissFlags classifyMiss(const IdleStateTable &drv, int entered, Ns diffNs, Ns delayNs)
{
    MissFlags f;
    if (diffNs < drv[entered].targetResidencyNs) {
        // Too deep, but only a miss if a shallower state could have been used.
        for (int i = entered - 1; i >= 0; --i) {
            if (drv[i].disabled)
                continue;
            f.above = true;
            break;
        }
    } else if (diffNs > delayNs) {
        // Too shallow if the first enabled deeper state would have paid off.
        for (int i = entered + 1; i < drv.count(); ++i) {
            if (drv[i].disabled)
                continue;
            f.below = diffNs - delayNs >= drv[i].targetResidencyNs;
            break;
        }
    }
    return f;
}

} // namespace idlescope
