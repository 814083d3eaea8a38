// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file idle_profile.h
 * The figures the idle-system background (the `idle` generator) is
 * calibrated by, for one CPU over a stretch of time: how often it wakes
 * (idle entries of a trace, rows of a stream), how many of those wakeups
 * are in-idle ones (an interrupt that wakes no task: the CPU stays in the
 * idle loop and enters idle again), and how long its idle periods last, in
 * bands wide enough for a few dozen entries (docs/workloads.md has the
 * comparison with the idle traces and the commands).
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/stream/idle_span.h"

#include <array>
#include <cstdint>

namespace idlescope::workloads {

/// Upper ends of the idle-duration bands: < 10 us, [10 us, 1 ms), [1, 3 ms), [3, 5 ms) (a tick
/// period of 250 Hz), [5, 50 ms), and the last band, >= 50 ms.
inline constexpr std::array<Ns, 5> IDLE_BAND_UPPER_NS = {10 * NSEC_PER_USEC, 1000 * NSEC_PER_USEC, 3000 * NSEC_PER_USEC,
                                                         5000 * NSEC_PER_USEC, 50000 * NSEC_PER_USEC};
inline constexpr int IDLE_BANDS = static_cast<int>(IDLE_BAND_UPPER_NS.size()) + 1;

/// The band of an idle duration (0..IDLE_BANDS-1).
int idleBand(Ns idleNs);

struct IdleProfile {
    Ns observedNs = 0;                            ///< the stretch of time the wakeups lie in
    std::int64_t wakeups = 0;                     ///< idle entries (a trace) or rows (a stream)
    std::int64_t inIdle = 0;                      ///< of them, in-idle wakeups (need_resched = 0)
    std::array<std::int64_t, IDLE_BANDS> bands{}; ///< wakeups by the idle time before them

    /// One idle period of @p idleNs, ended by an in-idle wakeup or not.
    void add(Ns idleNs, bool inIdleWakeup);
    /// Wakeups per second of observed time (0 for no time).
    double perSecond() const;
    /// inIdle / wakeups (0 for none).
    double inIdleShare() const;
    /// bands[k] / wakeups (0 for none).
    double bandShare(int k) const;
};

/// The profile of a stream: its busy + idle time, each row a wakeup after wake_ns of idle,
/// in-idle when its need_resched is 0 (as the row says, the last one included).
IdleProfile streamProfile(const IdleStream &stream);

} // namespace idlescope::workloads
