// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file kernel_types.h
 * Time units and kernel constants shared by the whole engine.
 *
 * Every engine time is a signed 64-bit count of nanoseconds, as the kernel's
 * s64/ktime_t values are (include/linux/ktime.h). Names keep the kernel's
 * spelling so that a reader can grep between idlescope and drivers/cpuidle/.
 */
#pragma once

#include <cstdint>
#include <limits>

namespace idlescope {

/// Nanoseconds, signed 64-bit (the kernel's s64 / ktime_t).
using Ns = std::int64_t;

/// KTIME_MAX (include/linux/ktime.h): "no timer pending".
inline constexpr Ns KTIME_MAX = std::numeric_limits<std::int64_t>::max();
inline constexpr std::uint32_t UINT_MAX_U32 = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint64_t U64_MAX = std::numeric_limits<std::uint64_t>::max();
inline constexpr std::int32_t INT_MAX_I32 = std::numeric_limits<std::int32_t>::max();
inline constexpr Ns NSEC_PER_USEC = 1000;
inline constexpr Ns NSEC_PER_SEC = 1000000000;

/// RESIDENCY_THRESHOLD_NS (drivers/cpuidle/governors/gov.h, v6.6+): 15 us.
inline constexpr Ns RESIDENCY_THRESHOLD_NS = 15 * NSEC_PER_USEC;

/// CPUIDLE_STATE_MAX (include/linux/cpuidle.h): the most states a driver has.
inline constexpr int CPUIDLE_STATE_MAX = 10;

/// PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 s in us) converted to ns as
/// cpuidle_governor_latency_req() does: the "no constraint" latency limit.
inline constexpr Ns PM_QOS_DEFAULT_LATENCY_NS = 2000LL * 1000000LL * NSEC_PER_USEC;

/// TICK_NSEC for a CONFIG_HZ value, with the kernel's rounding: (1e9 + HZ/2) / HZ.
constexpr Ns tickNsecForHz(int hz)
{
    return (NSEC_PER_SEC + hz / 2) / hz;
}

} // namespace idlescope
