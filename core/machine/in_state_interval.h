// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file in_state_interval.h
 * When a replayed entry was in its state, for a cluster's energy (energy.h):
 * the entry begins entering the state at its start, is in it once the entering
 * is done, and leaves it at the event; the measured residency the replay gives
 * holds the table's exit latency on top (cpuidle_enter_state()'s accounting),
 * which the CPU spends waking, not in the state. The split is WakeTotals's
 * (wake_delay.h): slept = residency - exit latency, entering = min(entry
 * latency, slept), in the state for slept - entering.
 */
#pragma once

#include "core/machine/machine_run.h"
#include "core/replay/reference_replay.h"

#include <algorithm>
#include <vector>

namespace idlescope {

/// Appends entry @p e of a replay on @p table, which began at @p startNs on the run's time axis,
/// as IntervalKind::InState: its time in its state. Nothing when none was left (a wakeup during
/// the entering); never before the last interval's end, so that @p out stays sorted and disjoint.
/// Out of line wherever it is called (a closed loop's and replayCpu()'s sinks): a run that keeps
/// no intervals, most of them, keeps its sink as small as without it.
[[gnu::noinline]] inline void addInStateInterval(std::vector<IdleInterval> &out, const IdleStateTable &table,
                                                 const EntryRecord &e, Ns startNs)
{
    const IdleState &s = table[e.state];
    const Ns slept = std::max<Ns>(0, e.residencyNs - s.exitLatencyNs);
    Ns from = startNs + std::min(s.entryLatencyNs, slept);
    if (!out.empty())
        from = std::max(from, out.back().endNs);
    const Ns to = startNs + slept;
    if (to > from)
        out.push_back({from, to, e.state});
}

} // namespace idlescope
