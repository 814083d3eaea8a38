// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/governor_totals.h"

#include <array>

namespace idlescope {

namespace {

/// entryWakesTask() read back from a run's flags (a wakeup into the exit has ENTRY_WAKE_IN_EXIT).
bool paysExitLatency(EntryFlags flags)
{
    return entryPaysExitLatency((flags & (ENTRY_WOKEN_BY_WAKEUP | ENTRY_WAKE_IN_EXIT)) != 0,
                                (flags & ENTRY_TIMER_WAKE) != 0);
}

/// GovernorRun::wakeInExitNs of entry @p i: only entries with ENTRY_WAKE_IN_EXIT read it, so a
/// run built by hand (a trace's recorded run) needs no such column.
Ns wakeInExitNs(const GovernorRun &run, std::size_t i)
{
    return (run.flags[i] & ENTRY_WAKE_IN_EXIT) != 0 ? run.wakeInExitNs[i] : 0;
}

/// Entries, usage per state, above, below and their ratios from @p states.
GovernorTotals stateTotals(std::int64_t entries, const std::array<StateStats, CPUIDLE_STATE_MAX> &states,
                           int stateCount)
{
    GovernorTotals t;
    t.idles = entries;
    t.usage.reserve(static_cast<std::size_t>(stateCount));
    for (int i = 0; i < stateCount; ++i) {
        const StateStats &s = states[static_cast<std::size_t>(i)];
        t.usage.push_back(s.usage);
        t.aboves += s.above;
        t.belows += s.below;
    }
    t.idleMisses = t.aboves + t.belows;
    if (t.idles > 0) {
        const double n = static_cast<double>(t.idles);
        t.idleMissRatio = static_cast<double>(t.idleMisses) / n;
        t.abovePercent = 100.0 * static_cast<double>(t.aboves) / n;
        t.belowPercent = 100.0 * static_cast<double>(t.belows) / n;
    }
    return t;
}

} // namespace

Ns entryLatencyCostNs(const GovernorRun &run, const IdleStateTable &table, std::size_t i)
{
    if (!paysExitLatency(run.flags[i]))
        return 0;
    return wokenTaskWaitNs(replayedWakeDelayNs(table, run.state[i], run.residencyNs[i]), wakeInExitNs(run, i));
}

GovernorTotals counterTotals(const CpuRun &sum)
{
    GovernorTotals t = stateTotals(sum.entries, sum.states, sum.stateCount);
    t.latencyCostNs = sum.latencyCostNs;
    t.latencyCostEntries = sum.wakeups;
    return t;
}

GovernorTotals governorTotals(const GovernorRun &run, const IdleStateTable &table)
{
    const ReplaySummary &s = run.summary;
    GovernorTotals t = stateTotals(s.entries, s.states, s.stateCount);
    // From the state, flag and residency columns: a million entries cost a few milliseconds.
    for (std::size_t i = 0; i < run.size(); ++i) {
        const Ns delay = t.wake.add(table, run.state[i], run.residencyNs[i]);
        const bool paid = paysExitLatency(run.flags[i]);
        t.latencyCostEntries += paid;
        t.latencyCostNs += paid ? wokenTaskWaitNs(delay, wakeInExitNs(run, i)) : 0;
    }
    return t;
}

} // namespace idlescope
