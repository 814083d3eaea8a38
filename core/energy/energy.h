// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file energy.h
 * Energy of a machine run from its clusters' power data: per CPU,
 *   idle energy       = sum over states of time(s) x power(W)        (T p)
 *   entry/exit energy = sum over states of usage x energy per entry  (U e)
 *   waking energy     = time spent waking up (CpuRun::wakingNs) x active power
 *   active energy     = (run duration - idle time - waking time) x active power
 * where a replay's time in a state leaves out the table's exit latency its
 * accounting adds per entry (CpuRun::timeHasExitLatency): the CPU spends the
 * state's wake delay (wake_delay.h) running its way out, not in the state.
 * with T and U the CPU x state matrices of state_matrices.h and p, e each
 * cluster's vectors. Nothing is guessed: a cluster without a power for every
 * state makes the run's energy unavailable, with the reason.
 */
#pragma once

#include "core/machine/cluster_view.h"
#include "core/machine/machine.h"
#include "core/machine/machine_run.h"

#include <string>
#include <vector>

namespace idlescope {

struct CpuEnergy {
    int cpu = 0;
    double idleJ = 0;      ///< time in states x their power
    double entryExitJ = 0; ///< entries x entry+exit energy
    double wakingJ = 0;    ///< time spent waking x active power (0 without active power)
    double activeJ = 0;    ///< busy time x active power (0 without active power)

    /// Idle + entry/exit energy (what the governor's choices decide).
    double idleTotalJ() const { return idleJ + entryExitJ; }
    /// Idle + entry/exit + waking + active energy (with an active power).
    double totalJ() const { return idleJ + entryExitJ + wakingJ + activeJ; }
};

struct RunEnergy {
    bool available = false;      ///< every cluster with results has idle power for every state
    bool hasActive = false;      ///< and an active power: totalJ includes the busy time
    std::string missing;         ///< why not available, e.g. "no power data for arm-rk3399 state WFI"
    std::vector<CpuEnergy> cpus; ///< in MachineRun::cpus order
    double idleJ = 0;
    double entryExitJ = 0;
    double wakingJ = 0;
    double activeJ = 0;

    /// Idle + entry/exit energy (what the governor's choices decide).
    double idleTotalJ() const { return idleJ + entryExitJ; }
    /// Idle + entry/exit + waking + active energy (needs hasActive).
    double totalJ() const { return idleJ + entryExitJ + wakingJ + activeJ; }
};

RunEnergy runEnergy(const Machine &machine, const MachineRun &run);

/// Energy of a cluster's shared logic while all its CPUs are idle: the cluster view's
/// time per state x Cluster::clusterIdlePowerMw. NaN when the view is incomplete or a
/// power it needs is unknown.
double clusterIdleEnergyJ(const Cluster &cluster, const ClusterIdle &view);

} // namespace idlescope
