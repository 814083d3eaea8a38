// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file idlestat_energy_model.h
 * idlestat's energy-model file (scheduler-tools/idlestat: the `energy_model`
 * and `energy_model_TC2` examples, read by its parse_energy_model()) as
 * power data. The text format, line by line ('#' lines and blank lines
 * ignored):
 *
 *     clusters N
 *     clusterA: P cap states C C states      (A, B, ... : cluster 0, 1, ...)
 *     P-states:
 *     SPEED  CLUSTER_POWER  CORE_POWER       P lines, speed in MHz
 *     C-states:
 *     NAME  CLUSTER_POWER  CORE_POWER        C lines, NAME as the cpuidle state's
 *     wakeup  CLUSTER_ENERGY  CORE_ENERGY
 *
 * idlestat gives its numbers no unit (it multiplies them by microseconds and
 * prints an "energy index"); idlescope reads the powers as mW, as it reads
 * LISA's energy model. Mapping onto a machine's cluster k (cluster letter
 * 'A' + k): each C-state's core power is the per-CPU power_mw of the table
 * state of that name and its cluster power the cluster view's idle power of
 * that state; the core power of the fastest P-state is the active power.
 * The wakeup line's numbers are on the scheduler's normalised wake-up scale
 * (idlestat rescales them by 47742 / (1024 * 1000)), not in uJ: they are read
 * and checked, and not used. Table states the file does not list keep their
 * power data (none: "no power data").
 */
#pragma once

#include "core/common/error.h"
#include "core/machine/machine.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope {

struct IdlestatPState {
    std::int64_t speedMhz = 0;
    double clusterPower = 0, corePower = 0;
};

struct IdlestatCState {
    std::string name;
    double clusterPower = 0, corePower = 0;
    std::int64_t line = 0; ///< where it is written (errors name it)
};

struct IdlestatCluster {
    std::vector<IdlestatPState> pStates;
    std::vector<IdlestatCState> cStates;
    double wakeupCluster = 0, wakeupCore = 0;
    std::int64_t line = 0; ///< the clusterX: line
};

struct IdlestatEnergyModel {
    std::string file;
    std::int64_t clustersLine = 0;
    std::vector<IdlestatCluster> clusters; ///< index 0 = clusterA
};

/// Parses @p text (@p file names it in errors). Errors name file, line and field ("clusters",
/// "clusterA", "P-states", "C-states", "wakeup", or the column: "speed", "cluster_power",
/// "core_power"): a missing or repeated header, a count that the lines do not match, a number
/// that is not a finite non-negative number (idlestat's template writes '?' for them), a
/// line outside any block.
Result<IdlestatEnergyModel> parseIdlestatEnergyModel(std::string_view text, const std::string &file);

/// The same for a file.
Result<IdlestatEnergyModel> readIdlestatEnergyModel(const std::string &path);

/// Cluster k of @p model onto @p clusters[k] (see the file comment). Errors (the file, the line
/// of the cause): another cluster count, a C-state named like no state of the cluster's table.
Status applyIdlestatEnergyModel(const IdlestatEnergyModel &model, std::span<Cluster> clusters);

} // namespace idlescope
