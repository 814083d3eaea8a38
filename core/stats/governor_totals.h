// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_totals.h
 * One governor's totals as the kernel threads report them (linux-pm test
 * reports: idles, idle_misses, idle_miss_ratio, belows, aboves, per-state
 * usage) plus what a woken task paid: the latency cost, the wake delay
 * (wake_delay.h) of each entry entryPaysExitLatency() counts (reference_replay.h). The GUI's comparison table,
 * its exports and `idlescope-cli compare` all count it with that one rule.
 * Integer ns.
 */
#pragma once

#include "core/machine/machine_run.h"
#include "core/replay/governor_run.h"
#include "core/states/idle_state_table.h"
#include "core/states/wake_delay.h"
#include "core/stream/idle_span.h"

#include <cstdint>
#include <vector>

namespace idlescope {

struct GovernorTotals {
    std::int64_t idles = 0;          ///< entries (select calls)
    std::vector<std::int64_t> usage; ///< per state, table order
    std::int64_t aboves = 0;
    std::int64_t belows = 0;
    std::int64_t idleMisses = 0;         ///< aboves + belows
    double idleMissRatio = 0.0;          ///< idleMisses / idles (0 when no entries)
    double abovePercent = 0.0;           ///< 100 * aboves / idles
    double belowPercent = 0.0;           ///< 100 * belows / idles
    Ns latencyCostNs = 0;                ///< see the file comment
    std::int64_t latencyCostEntries = 0; ///< entries counted in latencyCostNs
    WakeTotals wake;                     ///< every entry's wake delay (governorTotals() only)
};

/// Totals of @p run replayed on @p table; usage/above/below come from
/// run.summary, the latency cost from the per-entry flags
/// (ENTRY_WOKEN_BY_WAKEUP and ENTRY_TIMER_WAKE, set by entryPaysExitLatency()'s rule).
GovernorTotals governorTotals(const GovernorRun &run, const IdleStateTable &table);

/// Totals of @p sum, a run's sysfs counters summed over its CPUs (machine_run.h: a closed
/// loop's, which keeps no entries): usage/above/below from its states, the latency cost
/// from its wakeups and latencyCostNs (counted with the same rule as they happened).
GovernorTotals counterTotals(const CpuRun &sum);

/// The latency cost of one entry @p i of @p run (0 when it does not count).
Ns entryLatencyCostNs(const GovernorRun &run, const IdleStateTable &table, std::size_t i);

} // namespace idlescope
