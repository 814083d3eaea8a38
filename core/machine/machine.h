// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file machine.h
 * A machine of CPUs: its clusters (CPUs that share an idle-state table and a
 * power domain, e.g. the 4 Cortex-A53 and the 2 Cortex-A72 of an RK3399),
 * which CPUs each cluster holds, and the tick rate. Each CPU replays with its
 * cluster's table and a governor instance of its own (the kernel's per-CPU
 * cpuidle_device and governor data). A one-CPU machine is the reference replay.
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"
#include "core/states/power_model.h"

#include <string>
#include <vector>

namespace idlescope {

/// CPUs with one idle-state table (one cpuidle driver instance in the kernel's view).
struct Cluster {
    std::string name; ///< e.g. "little" (A53), "big" (A72)
    IdleStateTable table;
    std::vector<int> cpus; ///< CPU numbers, 0-based
    PowerModel power;      ///< per-CPU power data of this cluster's states (may be empty)
    /// Power of the cluster's shared logic while every CPU of it is idle, per table
    /// state (the cluster view's state); NaN entries when unknown.
    std::vector<double> clusterIdlePowerMw;
    /// Power of the cluster's shared logic while any CPU of it runs (LISA's cluster active
    /// state at the CPUs' OPP); NaN when unknown.
    double clusterActiveMw = NO_POWER_DATA;
};

struct Machine {
    std::string id;
    std::string source; ///< where the CPU layout comes from
    std::vector<Cluster> clusters;

    /// Highest CPU number + 1.
    int cpuCount() const;
    /// Index into clusters of @p cpu, -1 when no cluster holds it.
    int clusterOf(int cpu) const;
    const IdleStateTable &tableOf(int cpu) const { return clusters[static_cast<size_t>(clusterOf(cpu))].table; }

    /// Errors (file = id): no cluster, a cluster without CPUs, a CPU in two clusters,
    /// a CPU number missing below cpuCount() ("a table missing for a CPU"), an invalid
    /// table, clusters with different tick rates, power data not sized for its table.
    Status validate() const;
    /// Sets CONFIG_HZ of every cluster's table.
    Status setTickHz(int hz);

    /// @p cpus CPUs, all with @p table, in one cluster named "all".
    static Machine uniform(const IdleStateTable &table, int cpus);
};

} // namespace idlescope
