// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/energy/energy.h"

#include "core/machine/state_matrices.h"

#include <Eigen/Core>

#include <algorithm>

namespace idlescope {

RunEnergy runEnergy(const Machine &machine, const MachineRun &run)
{
    RunEnergy out;
    int width = 0;
    for (const Cluster &c : machine.clusters)
        width = std::max(width, c.table.count());
    const StateMatrices m = stateMatrices(run, width);
    out.cpus.resize(run.cpus.size());
    out.hasActive = true;
    for (const Cluster &cluster : machine.clusters) {
        std::vector<Eigen::Index> rows;
        for (int cpu : cluster.cpus)
            if (const int r = m.rowOf(cpu); r >= 0)
                rows.push_back(r);
        if (rows.empty())
            continue;
        if (!cluster.power.hasIdlePower()) {
            const StatePower *gap = nullptr;
            for (const StatePower &s : cluster.power.states)
                if (!gap && !(s.powerMw >= 0))
                    gap = &s;
            const int idx = gap ? static_cast<int>(gap - cluster.power.states.data()) : 0;
            out.missing = "no power data for " + cluster.table.id + " state " + cluster.table[idx].name;
            out.cpus.clear();
            return out;
        }
        out.hasActive = out.hasActive && cluster.power.hasActivePower();
        const int n = cluster.table.count();
        Eigen::VectorXd powerW(n), entryExitJ(n);
        for (int s = 0; s < n; ++s) {
            powerW(s) = cluster.power.states[static_cast<size_t>(s)].powerMw * 1e-3;
            entryExitJ(s) = cluster.power.states[static_cast<size_t>(s)].entryExitUj * 1e-6;
        }
        Eigen::MatrixXd timeS = m.timeNs(rows, Eigen::seqN(0, n)).cast<double>() * 1e-9;
        const Eigen::MatrixXd usage = m.usage(rows, Eigen::seqN(0, n)).cast<double>();
        // A replay's time in a state holds the table's exit latency of each entry: that
        // time was spent waking (CpuRun::wakingNs, priced as the CPU running), not in the state.
        Eigen::VectorXd exitS(n);
        for (int s = 0; s < n; ++s)
            exitS(s) = static_cast<double>(cluster.table[s].exitLatencyNs) * 1e-9;
        for (size_t k = 0; k < rows.size(); ++k)
            if (run.cpus[static_cast<size_t>(rows[k])].timeHasExitLatency) {
                const auto r = static_cast<Eigen::Index>(k);
                timeS.row(r) = (timeS.row(r) - usage.row(r).cwiseProduct(exitS.transpose())).cwiseMax(0.0);
            }
        const Eigen::VectorXd inStateS = timeS.rowwise().sum();
        const Eigen::VectorXd idle = timeS * powerW;
        const Eigen::VectorXd entryExit = usage * entryExitJ;
        for (size_t k = 0; k < rows.size(); ++k) {
            const auto r = static_cast<size_t>(rows[k]);
            const CpuRun &c = run.cpus[r];
            CpuEnergy &e = out.cpus[r];
            e.cpu = c.cpu;
            e.idleJ = idle(static_cast<Eigen::Index>(k));
            e.entryExitJ = entryExit(static_cast<Eigen::Index>(k));
            if (cluster.power.hasActivePower()) {
                // Running: the work between wakeups, and the wake-ups themselves.
                const double activeW = cluster.power.activeMw * 1e-3;
                const double wakingS = static_cast<double>(c.wakingNs) * 1e-9;
                const double busyS =
                    static_cast<double>(c.durationNs) * 1e-9 - inStateS(static_cast<Eigen::Index>(k)) - wakingS;
                e.wakingJ = wakingS * activeW;
                e.activeJ = std::max(0.0, busyS) * activeW;
            }
        }
    }
    out.available = true;
    for (const CpuEnergy &e : out.cpus) {
        out.idleJ += e.idleJ;
        out.entryExitJ += e.entryExitJ;
        out.activeJ += e.activeJ;
        out.wakingJ += e.wakingJ;
    }
    if (!out.hasActive) {
        out.activeJ = 0;
        out.wakingJ = 0;
    }
    return out;
}

double clusterIdleEnergyJ(const Cluster &c, const ClusterIdle &view)
{
    if (!view.complete || c.clusterIdlePowerMw.size() < static_cast<size_t>(view.stateCount))
        return NO_POWER_DATA;
    double j = 0;
    for (int s = 0; s < view.stateCount; ++s)
        j += static_cast<double>(view.timeNs[static_cast<size_t>(s)]) * 1e-9
             * c.clusterIdlePowerMw[static_cast<size_t>(s)] * 1e-3;
    return j;
}

} // namespace idlescope
