// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cluster_view.h
 * The cluster view of a machine run, as idlestat prints its cluster lines:
 * a cluster is idle while every one of its CPUs is in an idle entry, and its
 * state then is the shallowest state among them (a cluster cannot power down
 * deeper than its most awake CPU allows). Per cluster and state: the time
 * and the number of periods the cluster spent in it. Needs the run's entry
 * intervals (MachineReplayOptions::keepIntervals, or a recorded run's).
 */
#pragma once

#include "core/machine/machine.h"
#include "core/machine/machine_run.h"

#include <array>
#include <string>
#include <vector>

namespace idlescope {

struct ClusterIdle {
    std::string name;
    std::vector<int> cpus;
    int stateCount = 0;
    std::array<std::int64_t, CPUIDLE_STATE_MAX> usage{}; ///< periods in each cluster state
    std::array<Ns, CPUIDLE_STATE_MAX> timeNs{};          ///< time in each cluster state
    Ns idleNs = 0;                                       ///< time all CPUs were idle (sum of timeNs)
    bool complete = false; ///< every CPU of the cluster has results; otherwise the view is empty
};

/// One ClusterIdle per cluster of @p machine, from @p run's intervals.
std::vector<ClusterIdle> clusterView(const Machine &machine, const MachineRun &run);

/**
 * The same for one cluster over a run's whole time, for its energy (energy.h), from intervals
 * of the time each CPU was in its states (IntervalKind::InState): a CPU of @p cluster without
 * results sleeps throughout when @p run says its other CPUs had nothing to run
 * (MachineRun::othersIdle; it never keeps the cluster awake), and a CPU whose run ends before
 * @p untilNs idles from its end to it in @p restState (-1: not idle then), as the energy prices
 * the rest of its window. Incomplete when a CPU has no results otherwise, or none has any.
 */
ClusterIdle clusterIdleInState(const Cluster &cluster, const MachineRun &run, Ns untilNs, int restState);

} // namespace idlescope
