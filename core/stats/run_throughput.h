// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file run_throughput.h
 * What one replay on one CPU did for the work and cost in energy, the numbers
 * `idlescope-cli compare --throughput` and its power columns print and the
 * window's comparison table shows: the run's duration on its own clock (the
 * stream's gaps and idle times plus every wake delay paid), the wakeups no
 * timer announced per second of it (the open-loop replay's throughput), and
 * the energy of a one-CPU machine of the table with its power data
 * (energy.h). Nothing is guessed: without power data the energy is NaN and
 * `missing` says why.
 */
#pragma once

#include "core/replay/reference_replay.h"
#include "core/states/idle_state_table.h"
#include "core/states/power_model.h"
#include "core/states/wake_delay.h"
#include "core/stats/governor_totals.h"

#include <cstdint>
#include <string>

namespace idlescope {

struct Machine;
struct MachineRun;

struct RunThroughput {
    Ns durationNs = 0;                  ///< summary.endNowNs - REPLAY_START_NS
    std::int64_t wakeups = 0;           ///< entries that ended at a wakeup no timer announced
    double wakeupsPerSecond = 0.0;      ///< wakeups / duration (0 for an empty run)
    double idleEnergyJ = NO_POWER_DATA; ///< time in states x power + entries x entry/exit energy
    double energyJ = NO_POWER_DATA;     ///< plus busy time x active power (NaN without it)
    std::string missing;                ///< why idleEnergyJ is NaN, e.g. "no power data for ... state CEDE"
};

/// @p count events per second of @p durationNs (0 when the duration is not positive).
double perSecond(double count, Ns durationNs);

/// The clock a stream's rows are on: their own (a generated stream or a stream file, whose
/// every row starts after the previous row's exit, so a replay's exits move it) or a trace's,
/// whose rows count their gaps from the previous row's wakeup (IdleSpan::gapFromWake) and so
/// start where the trace says whatever the exits took.
enum class StreamClock { Own, Trace };

/// @p stream's clock: a pass over its rows, so that a caller pricing several runs of one
/// stream (the window's governors, every re-run) asks once and keeps the answer.
StreamClock clockOf(const IdleStream &stream);

/**
 * The duration of a replay on the real clock of a stream on @p clock, from @p replayElapsedNs (its
 * clock's end - REPLAY_START_NS) and @p wake, its entries' wake delays: the replay's clock
 * moves on by the table's exit latency after each entry where the CPU took the wake delay,
 * so a generated stream's run is wake.clockShiftNs longer (shorter when the wake delays are
 * shorter); a trace's rows (StreamClock::Trace) start where the trace says whatever the exits
 * took, so its duration is the replay's. The one rule of compare, compare --machine and the
 * window.
 */
Ns replayDurationNs(StreamClock clock, Ns replayElapsedNs, const WakeTotals &wake);

/**
 * The throughput and energy of one reference replay on @p table of a stream on @p clock: @p summary its
 * counters (replayStream()'s, on the REPLAY_START_NS clock), @p wakeups the
 * entries that paid their wake delay to a wakeup (entryPaysExitLatency(),
 * GovernorTotals::latencyCostEntries), @p power the table's power data, @p wake
 * its entries' wake delays (GovernorTotals::wake): the duration is replayDurationNs(), the
 * states' time leaves the exit latency to waking (energy.h).
 */
RunThroughput replayThroughput(const IdleStateTable &table, const PowerModel &power, StreamClock clock,
                               const ReplaySummary &summary, std::int64_t wakeups, const WakeTotals &wake);

/**
 * The same for a governor's run kept entry by entry (the window's runs): @p run replayed
 * a stream on @p clock on @p table, @p totals its governorTotals(). A trace's recorded run
 * (RECORDED_VARIANT) gets recordedThroughput(), a replay replayThroughput() with the totals'
 * wakeups and wake delays, so the window prices a run as compare does.
 */
RunThroughput governorRunThroughput(const IdleStateTable &table, const PowerModel &power, StreamClock clock,
                                    const GovernorRun &run, const GovernorTotals &totals);

/**
 * A trace's recorded run (the kernel's choices, not replayed): only its idle energy, priced by
 * the same rule as every run (time in each state x its power + entries x entry/exit energy, so
 * that it is the CPUs dock's number for that CPU); no duration, wakeups per second or busy
 * energy, for it has no run time of its own.
 */
RunThroughput recordedThroughput(const IdleStateTable &table, const PowerModel &power, const ReplaySummary &summary);

/**
 * The same for a run given as per-CPU counters on @p machine (machine_run.h; a closed
 * loop's, which keeps no entries): @p durationNs its duration, the wakeups its CPUs'
 * counted ones, the energy runEnergy()'s over @p energyWindowNs (a closed loop's
 * ClosedLoopRun::energyWindowNs; 0: the run's own time).
 */
RunThroughput machineRunThroughput(const Machine &machine, const MachineRun &run, Ns durationNs, Ns energyWindowNs = 0);

} // namespace idlescope
