// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file woken_tasks.h
 * The one rule by which a replay's sink counts the wakeups a task waited for
 * and what each waited, entry by entry: every entry's wake delay goes into
 * the run's WakeTotals (wake_delay.h), and an entry whose wakeup woke a task
 * (entryWakesTask(): the row's wakeup, no timer of its own, also when it came
 * while a tick-ended entry was still leaving its state) adds one wakeup and
 * the rest of that delay (wokenTaskWaitNs()). compare, compare --machine and
 * the closed loops all sum their runs so.
 */
#pragma once

#include "core/replay/reference_replay.h"
#include "core/states/wake_delay.h"

#include <cstdint>

namespace idlescope {

/// Adds entry @p e of a replay on @p table to @p wake and, when it woke a task, one to
/// @p wakeups and what the task waited to @p latencyCostNs. Returns the entry's wake delay.
inline Ns addWokenTask(const IdleStateTable &table, const EntryRecord &e, WakeTotals &wake, std::int64_t &wakeups,
                       Ns &latencyCostNs)
{
    const Ns delay = wake.add(table, e.state, e.residencyNs);
    if (entryWakesTask(e.endsAtWakeup, e.wakeInExitNs, e.timerWake)) {
        ++wakeups;
        latencyCostNs += wokenTaskWaitNs(delay, e.wakeInExitNs);
    }
    return delay;
}

} // namespace idlescope
