// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file energy.h
 * Energy of a machine run from its clusters' power data: per CPU,
 *   idle energy       = sum over states of time in it x power(W)          (T p)
 *   entry/exit energy = sum over states of usage x energy per entry       (U e)
 *   entering energy   = time spent entering states (CpuRun::enteringNs) x active power
 *   waking energy     = time spent waking up (CpuRun::wakingNs) x active power
 *   active energy     = (run duration - T 1 - entering - waking) x active power
 * where a replay's time in a state leaves out the table's exit latency its
 * accounting adds per entry (CpuRun::timeHasExitLatency) and the time spent
 * entering the state: the CPU spends both running its way in and out
 * (wake_delay.h), not in the state. With T and U the CPU x state matrices of
 * state_matrices.h and p, e each cluster's vectors.
 *
 * A cluster's shared logic (LISA's cluster node) is charged when the run says
 * when the cluster is idle: its CPUs kept the time they spent in each state on
 * the run's time axis (IntervalKind::InState: a closed loop's CPUs and its
 * background's), and its CPUs without results, if any, had nothing to run
 * (MachineRun::othersIdle). The cluster then draws its idle power of a state
 * while every CPU of it is idle, in the shallowest of their states (the
 * cluster view's rule, clusterIdleInState()), and its active power the rest of
 * the run. An open-loop replay's intervals are its entries on each stream's
 * clock, for the cluster view: its clusters are not charged (docs/machine.md).
 *
 * Over a window longer than a run (runEnergy()'s windowNs: the slowest run of
 * a comparison), each CPU idles the rest of it in its cheapest state, with its
 * cluster in the same state, so that a governor that finishes the same work
 * sooner is compared over the same time (docs/machine.md, "The same window").
 *
 * Nothing is guessed: a cluster without a power for every state makes the
 * run's energy unavailable, with the reason.
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
    double enteringJ = 0;  ///< time spent entering states x active power (0 without active power)
    double wakingJ = 0;    ///< time spent waking x active power (0 without active power)
    double activeJ = 0;    ///< busy time x active power (0 without active power)
    double afterRunJ = 0;  ///< the rest of the energy window in the cheapest state

    /// Idle + entry/exit energy (what the governor's choices decide).
    double idleTotalJ() const { return idleJ + entryExitJ; }
    /// Every term (with an active power).
    double totalJ() const { return idleJ + entryExitJ + enteringJ + wakingJ + activeJ + afterRunJ; }
};

/// A cluster's shared logic: idle in a state while every CPU of it is, running otherwise.
struct ClusterEnergy {
    std::string name;
    bool charged = false; ///< priced (else RunEnergy::clusterNote says why, when it has power data)
    double idleJ = 0;     ///< the cluster's idle time per state x Cluster::clusterIdlePowerMw
    double activeJ = 0;   ///< the rest of the run x Cluster::clusterActiveMw
    double afterRunJ = 0; ///< the rest of the energy window in the cheapest state's cluster power

    double totalJ() const { return idleJ + activeJ + afterRunJ; }
};

struct RunEnergy {
    bool available = false;      ///< every cluster with results has idle power for every state
    bool hasActive = false;      ///< and an active power: totalJ includes the busy time
    std::string missing;         ///< why not available, e.g. "no power data for arm-rk3399 state WFI"
    std::vector<CpuEnergy> cpus; ///< in MachineRun::cpus order
    double idleJ = 0;
    double entryExitJ = 0;
    double enteringJ = 0;
    double wakingJ = 0;
    double activeJ = 0;
    double afterRunJ = 0;                ///< the CPUs' part
    std::vector<ClusterEnergy> clusters; ///< per cluster of the machine with CPUs in the run
    double clusterJ = 0;                 ///< the charged clusters' totalJ()
    /// Why a cluster with cluster power data was not charged ("" when every such cluster was).
    std::string clusterNote;

    /// Idle + entry/exit energy of the CPUs (what the governor's choices decide).
    double idleTotalJ() const { return idleJ + entryExitJ; }
    /// Every CPU and cluster term (needs hasActive).
    double totalJ() const { return idleJ + entryExitJ + enteringJ + wakingJ + activeJ + afterRunJ + clusterJ; }
};

/**
 * The energy of @p run on @p machine. @p windowNs: the time every run of a comparison is
 * priced over (the slowest run's duration); a CPU whose own duration is shorter idles the
 * rest in its cheapest enabled state (the least power; the deeper of two alike), its charged
 * cluster in the same state. 0 (or a window no longer than the run): the run's own time.
 */
RunEnergy runEnergy(const Machine &machine, const MachineRun &run, Ns windowNs = 0);

/// Whether @p cluster has the power data of its shared logic: an idle power for each state of
/// its table and an active power (a closed loop then keeps its CPUs' intervals to charge it).
bool hasClusterPower(const Cluster &cluster);

/// The state @p power makes cheapest to idle in on @p table: the least power among the
/// enabled states, the deeper of two alike; -1 when every state is disabled.
int cheapestState(const IdleStateTable &table, const PowerModel &power);

/// Energy of a cluster's shared logic while all its CPUs are idle: the cluster view's
/// time per state x Cluster::clusterIdlePowerMw. NaN when the view is incomplete or a
/// power it needs is unknown.
double clusterIdleEnergyJ(const Cluster &cluster, const ClusterIdle &view);

} // namespace idlescope
