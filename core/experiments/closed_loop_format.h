// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file closed_loop_format.h
 * Closed-loop runs as a table, one row per governor: operations, duration_ms,
 * ops_per_s, added_latency_mean_us / _p99_us / _max_us, the summed sysfs
 * counters (entries, above, below, idle_miss_ratio) and energy (idle_energy_J,
 * energy_J, energy_per_op_uJ; "no power data" without it). The title says
 * which CPUs of the machine are summed and the window energy_J is priced over
 * (closedLoopScope()): a table of numbers that does not say over what is no
 * table to put on a slide. Asked for, the runs' CPUs follow as compare
 * --machine prints them (--cpus each, --per-state: machine_comparison_format.h),
 * each run's energy over its same window.
 */
#pragma once

#include "core/energy/energy.h"
#include "core/experiments/closed_loop.h"
#include "core/experiments/comparison.h"
#include "core/experiments/machine_comparison_format.h"

#include <string>
#include <vector>

namespace idlescope {

/// The cell of @p run in column @p column (one of the names above, e.g. "ops_per_s"), as
/// formatClosedLoop() prints it; "" for an unknown column. The window's table shows these.
std::string closedLoopCell(const Machine &machine, const ClosedLoopRun &run, const std::string &column);

/**
 * What @p runs' rows sum and price, in words: "CPUs 0, 1 of 6 summed; energy over the slowest
 * run's 2289.123 ms (a faster run idles the rest in its cheapest state)". The CPUs are those
 * of the runs' counters (the loop's), the window ClosedLoopRun::energyWindowNs. "" for no runs.
 */
std::string closedLoopScope(const Machine &machine, const std::vector<ClosedLoopRun> &runs);

/// The energy per operation of a run of @p operations priced @p energy, in uJ: energy_J's
/// cell / operations. NaN without power data or an active power (energy_J is then missing).
double energyPerOperationUJ(const RunEnergy &energy, std::int64_t operations);

std::string formatClosedLoop(const Machine &machine, const ClosedLoopSpec &spec, const std::vector<ClosedLoopRun> &runs,
                             experiments::CompareFormat format);

/**
 * The runs' table, then, when @p cpuRows asks for per-CPU rows (eachCpu) or per-state columns
 * (perState), the rows of every run's CPUs and their sum as compare --machine prints them:
 * markdown gives the second table below the first, JSON its object as "cpu_rows". CSV holds
 * one table: with such rows asked for it is the per-CPU rows only (the CLI refuses it).
 */
std::string formatClosedLoop(const Machine &machine, const ClosedLoopSpec &spec, const std::vector<ClosedLoopRun> &runs,
                             const MachineFormatOptions &cpuRows);

} // namespace idlescope
