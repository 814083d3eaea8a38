// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file machine_comparison_format.h
 * A machine comparison as the kernel threads' tables: one row per (run, CPU)
 * and a row per run summed over its CPUs ("all", the sysfs files summed), or
 * the summed rows only; columns as compare's (usage_<state>, above, below,
 * idle_misses, idle_miss_ratio, above_pct, below_pct, time_pct_<state>,
 * wakeups, latency_cost_us), then duration_ms, wakeups_per_s (throughput:
 * wakeups handled per second of the run), idle_energy_J, energy_J; with
 * per-state columns above_<state>, below_<state>, above_pct_<state> (of that
 * state's usage). Markdown adds the CPUs not replayed with their reason and
 * the cluster view; JSON has everything; CSV the rows only.
 */
#pragma once

#include "core/experiments/comparison.h"
#include "core/experiments/machine_comparison.h"

#include <string>

namespace idlescope {

struct MachineFormatOptions {
    experiments::CompareFormat format = experiments::CompareFormat::Markdown;
    bool eachCpu = true;   ///< --cpus each (per-CPU rows and the sum) or sum (the sum only)
    bool perState = false; ///< --per-state
};

std::string formatMachineComparison(const MachineComparison &c, const MachineFormatOptions &options);

/// One point of a workload sweep on a machine: its label ("device=emmc", as compare's `point`
/// column) and its comparison.
struct MachineSweepPoint {
    std::string label;
    MachineComparison comparison;
};

/**
 * A sweep on a machine, a block of rows per point: markdown and CSV are one table whose first
 * column, `point`, labels each row as a one-CPU sweep's table does (the title and the notes are
 * the first point's, and each point's own notes follow, named by the point); JSON is
 * {"workload": TEXT, "points": [{"point": LABEL, "comparison": formatMachineComparison()'s
 * object}, ...]}. The cluster view follows in markdown, a table per point.
 */
std::string formatMachineSweep(const std::string &workloadText, const std::vector<MachineSweepPoint> &points,
                               const MachineFormatOptions &options);

/// "recorded", "recomputed" or "simulated": the first word of MachineRun::missSource.
std::string missSourceWord(const MachineRun &run);

} // namespace idlescope
