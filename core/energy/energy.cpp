// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/energy/energy.h"

#include "core/machine/state_matrices.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace idlescope {

bool hasClusterPower(const Cluster &c)
{
    const auto states = static_cast<size_t>(c.table.count());
    if (!std::isfinite(c.clusterActiveMw) || c.clusterIdlePowerMw.size() < states)
        return false;
    return std::all_of(c.clusterIdlePowerMw.begin(), c.clusterIdlePowerMw.begin() + static_cast<std::ptrdiff_t>(states),
                       [](double mw) { return std::isfinite(mw); });
}

namespace {

/// Why @p cluster's own energy is not in a run's total (it has the power data for it): its CPUs
/// kept no time in their states (an open-loop replay keeps its entries, for the cluster view), or
/// one of them has no results while the others may have run.
std::string clusterNotCharged(const Cluster &cluster, bool inState)
{
    return cluster.name
           + (inState ? ": a CPU of it has no results, so when the cluster is idle is not known"
                      : ": a replay's cluster energy is the cluster view's (--cluster-view), beside energy_J");
}

} // namespace

int cheapestState(const IdleStateTable &table, const PowerModel &power)
{
    int best = -1;
    for (int s = 0; s < table.count() && s < static_cast<int>(power.states.size()); ++s)
        if (!table[s].disabled
            && (best < 0
                || power.states[static_cast<size_t>(s)].powerMw <= power.states[static_cast<size_t>(best)].powerMw))
            best = s;
    return best;
}

namespace {

/// "no power data for TABLE state NAME": the first state of @p cluster without an idle power.
std::string missingIdlePower(const Cluster &cluster)
{
    const StatePower *gap = nullptr;
    for (const StatePower &s : cluster.power.states)
        if (!gap && !(s.powerMw >= 0))
            gap = &s;
    const int idx = gap ? static_cast<int>(gap - cluster.power.states.data()) : 0;
    return "no power data for " + cluster.table.id + " state " + cluster.table[idx].name;
}

/// One cluster's CPUs of a run (rows of its state matrices), in seconds: the time in each
/// state, the entries, the time in any state and the time spent entering states.
struct ClusterTimes {
    Eigen::MatrixXd timeS, usage;
    Eigen::VectorXd inStateS, enteringS;
};

ClusterTimes clusterTimes(const Cluster &cluster, const MachineRun &run, const StateMatrices &m,
                          const std::vector<Eigen::Index> &rows)
{
    const int n = cluster.table.count();
    ClusterTimes t;
    t.timeS = m.timeNs(rows, Eigen::seqN(0, n)).cast<double>() * 1e-9;
    t.usage = m.usage(rows, Eigen::seqN(0, n)).cast<double>();
    // A replay's time in a state holds the table's exit latency of each entry, and the
    // entering of it: the CPU spent those running (waking, entering), not in the state.
    Eigen::VectorXd exitS(n);
    for (int s = 0; s < n; ++s)
        exitS(s) = static_cast<double>(cluster.table[s].exitLatencyNs) * 1e-9;
    t.enteringS = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rows.size()));
    for (size_t k = 0; k < rows.size(); ++k) {
        const CpuRun &c = run.cpus[static_cast<size_t>(rows[k])];
        const auto r = static_cast<Eigen::Index>(k);
        if (c.timeHasExitLatency)
            t.timeS.row(r) = (t.timeS.row(r) - t.usage.row(r).cwiseProduct(exitS.transpose())).cwiseMax(0.0);
        for (int s = 0; s < n; ++s) {
            const double entering = static_cast<double>(c.enteringNs[static_cast<size_t>(s)]) * 1e-9;
            t.timeS(r, s) = std::max(0.0, t.timeS(r, s) - entering);
            t.enteringS(r) += entering;
        }
    }
    t.inStateS = t.timeS.rowwise().sum();
    return t;
}

/// The energy of each of @p cluster's CPUs (@p rows of @p run) into @p out: idle in each
/// state, entries and exits, the rest of the window in the cheapest state and, with an
/// active power, the work, the entering and the wake-ups at it.
void chargeCpus(const Cluster &cluster, const MachineRun &run, const std::vector<Eigen::Index> &rows,
                const ClusterTimes &t, Ns windowNs, RunEnergy &out)
{
    const int n = cluster.table.count();
    Eigen::VectorXd powerW(n), entryExitJ(n);
    for (int s = 0; s < n; ++s) {
        powerW(s) = cluster.power.states[static_cast<size_t>(s)].powerMw * 1e-3;
        entryExitJ(s) = cluster.power.states[static_cast<size_t>(s)].entryExitUj * 1e-6;
    }
    const Eigen::VectorXd idle = t.timeS * powerW;
    const Eigen::VectorXd entryExit = t.usage * entryExitJ;
    // The rest of the window: idle where idling costs least (no entry of it is counted).
    const int cheapest = cheapestState(cluster.table, cluster.power);
    const double cheapestW = cheapest >= 0 ? powerW(cheapest) : 0.0;
    for (size_t k = 0; k < rows.size(); ++k) {
        const auto r = static_cast<size_t>(rows[k]);
        const auto kk = static_cast<Eigen::Index>(k);
        const CpuRun &c = run.cpus[r];
        CpuEnergy &e = out.cpus[r];
        e.cpu = c.cpu;
        e.idleJ = idle(kk);
        e.entryExitJ = entryExit(kk);
        e.afterRunJ = static_cast<double>(std::max<Ns>(0, windowNs - c.durationNs)) * 1e-9 * cheapestW;
        if (cluster.power.hasActivePower()) {
            // Running: the work between wakeups, the entries and the wake-ups themselves.
            const double activeW = cluster.power.activeMw * 1e-3;
            const double wakingS = static_cast<double>(c.wakingNs) * 1e-9;
            const double busyS = static_cast<double>(c.durationNs) * 1e-9 - t.inStateS(kk) - wakingS - t.enteringS(kk);
            e.enteringJ = t.enteringS(kk) * activeW;
            e.wakingJ = wakingS * activeW;
            e.activeJ = std::max(0.0, busyS) * activeW;
        }
    }
}

/**
 * @p cluster's own energy, charged when its CPUs in @p run (@p rows) kept the time they spent
 * in each state on the run's axis (IntervalKind::InState: a closed loop's and its background's)
 * and its other CPUs either have results too or had nothing to run (MachineRun::othersIdle).
 * The cluster is idle in the shallowest state of its CPUs while all of them are in one
 * (clusterIdleInState()), and runs the rest of the run: until the last of its CPUs' ends, each
 * CPU whose own run ended sooner idling in the cheapest state then, as chargeCpus() prices it;
 * after that the window's rest in the cheapest state. Else said in @p out's clusterNote.
 */
ClusterEnergy chargeCluster(const Cluster &cluster, const MachineRun &run, const std::vector<Eigen::Index> &rows,
                            Ns windowNs, RunEnergy &out)
{
    const int n = cluster.table.count();
    ClusterEnergy ce;
    ce.name = cluster.name;
    if (!hasClusterPower(cluster))
        return ce;
    Ns endNs = 0;
    bool inState = true;
    for (Eigen::Index r : rows) {
        const CpuRun &c = run.cpus[static_cast<size_t>(r)];
        endNs = std::max(endNs, c.durationNs);
        inState = inState && c.intervalKind == IntervalKind::InState;
    }
    const int cheapest = cheapestState(cluster.table, cluster.power);
    const ClusterIdle view = inState ? clusterIdleInState(cluster, run, endNs, cheapest) : ClusterIdle{};
    if (!view.complete) {
        out.clusterNote += (out.clusterNote.empty() ? "" : "; ") + clusterNotCharged(cluster, inState);
        return ce;
    }
    const auto seconds = [](Ns ns) { return static_cast<double>(ns) * 1e-9; };
    for (int s = 0; s < n; ++s)
        ce.idleJ +=
            seconds(view.timeNs[static_cast<size_t>(s)]) * cluster.clusterIdlePowerMw[static_cast<size_t>(s)] * 1e-3;
    ce.activeJ = seconds(std::max<Ns>(0, endNs - view.idleNs)) * cluster.clusterActiveMw * 1e-3;
    if (cheapest >= 0)
        ce.afterRunJ = seconds(std::max<Ns>(0, windowNs - endNs))
                       * cluster.clusterIdlePowerMw[static_cast<size_t>(cheapest)] * 1e-3;
    ce.charged = true;
    return ce;
}

/// The run's totals from its CPUs' and charged clusters' energies.
void sumEnergy(RunEnergy &out)
{
    for (const CpuEnergy &e : out.cpus) {
        out.idleJ += e.idleJ;
        out.entryExitJ += e.entryExitJ;
        out.enteringJ += e.enteringJ;
        out.activeJ += e.activeJ;
        out.wakingJ += e.wakingJ;
        out.afterRunJ += e.afterRunJ;
    }
    for (const ClusterEnergy &c : out.clusters)
        if (c.charged)
            out.clusterJ += c.totalJ();
    if (!out.hasActive) {
        out.activeJ = 0;
        out.wakingJ = 0;
        out.enteringJ = 0;
    }
}

} // namespace

RunEnergy runEnergy(const Machine &machine, const MachineRun &run, Ns windowNs)
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
            out.missing = missingIdlePower(cluster);
            out.cpus.clear();
            out.clusters.clear();
            return out;
        }
        out.hasActive = out.hasActive && cluster.power.hasActivePower();
        const ClusterTimes t = clusterTimes(cluster, run, m, rows);
        chargeCpus(cluster, run, rows, t, windowNs, out);
        out.clusters.push_back(chargeCluster(cluster, run, rows, windowNs, out));
    }
    out.available = true;
    sumEnergy(out);
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
