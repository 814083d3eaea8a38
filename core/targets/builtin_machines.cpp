// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The built-in machines and where every fact comes from.
 *
 * rk3399: arch/arm64/boot/dts/rockchip/rk3399-base.dtsi (torvalds/linux, 6.10+;
 * the same nodes earlier in rk3399.dtsi): cpu_l0..cpu_l3 (reg 0x0..0x3,
 * "arm,cortex-a53") and cpu_b0, cpu_b1 (reg 0x100, 0x101, "arm,cortex-a72"),
 * which Linux numbers CPU 0-3 and 4-5 in that order; every CPU lists
 * cpu-idle-states = <&CPU_SLEEP &CLUSTER_SLEEP>, so both clusters use the
 * built-in arm-rk3399 table. No public energy model: no power data.
 *
 * juno-r0: arch/arm64/boot/dts/arm/juno.dts (the built-in arm-juno-r0 table,
 * the same idle states for every CPU); the CPU numbering (Cortex-A53 = CPUs
 * 0, 3, 4, 5; Cortex-A57 = CPUs 1, 2) and the power numbers are LISA's
 * lisa/platforms/juno_r0_energy.py (ARM-software/lisa @04621a1e5418, Apache-2.0;
 * also its tests/assets/sched_load/plat_info.yml, shared/data/traces). LISA's
 * energy model states the numbers without a unit (the kernel's energy model
 * data of that era is "normalised to any reference point"); idlescope reads
 * them as mW. LISA gives no entry/exit energy (0 here).
 */
#include "core/targets/builtin_machines.h"

#include "core/targets/builtin_targets.h"

#include <algorithm>

namespace idlescope {

namespace {

constexpr const char *RK3399_SOURCE =
    "arch/arm64/boot/dts/rockchip/rk3399-base.dtsi (torvalds/linux, 6.10+): cpu_l0..3 Cortex-A53, cpu_b0..1 "
    "Cortex-A72, all with cpu-idle-states = <&CPU_SLEEP &CLUSTER_SLEEP>";
constexpr const char *JUNO_SOURCE =
    "arch/arm64/boot/dts/arm/juno.dts (idle states); CPU numbering and energy model: ARM-software/lisa "
    "lisa/platforms/juno_r0_energy.py @04621a1e5418 (values without unit, read as mW)";
constexpr const char *JUNO_POWER_SOURCE = "LISA lisa/platforms/juno_r0_energy.py @04621a1e5418";

/// Machine @p id (described by @p source) whose clusters @p addClusters(machine, table) adds,
/// all on the built-in table @p tableId.
template <typename AddClusters>
Result<Machine> machineOnTable(const char *tableId, const char *id, const char *source, AddClusters addClusters)
{
    Result<IdleStateTable> t = builtinTarget(tableId);
    if (!t)
        return t.error();
    Machine m;
    m.id = id;
    m.source = source;
    addClusters(m, *t);
    return m;
}

Result<Machine> rk3399()
{
    return machineOnTable("arm-rk3399", "rk3399", RK3399_SOURCE, [](Machine &m, const IdleStateTable &t) {
        m.clusters.push_back({"little (Cortex-A53)", t, {0, 1, 2, 3}, PowerModel::empty(t), {}});
        m.clusters.push_back({"big (Cortex-A72)", t, {4, 5}, PowerModel::empty(t), {}});
    });
}

/// A Juno cluster with LISA's per-CPU idle powers (WFI, cpu-sleep-0, cluster-sleep-0),
/// its cluster idle powers in the same order, and the per-CPU power at the highest OPP.
Cluster junoCluster(const IdleStateTable &t, const char *name, std::vector<int> cpus, std::vector<double> cpuIdleMw,
                    std::vector<double> clusterIdleMw, double activeMw, double clusterActiveMw)
{
    Cluster c{name, t, std::move(cpus), PowerModel::empty(t), std::move(clusterIdleMw)};
    for (size_t i = 0; i < c.power.states.size(); ++i)
        c.power.states[i].powerMw = cpuIdleMw[i];
    c.power.activeMw = activeMw;
    c.clusterActiveMw = clusterActiveMw;
    c.power.source = JUNO_POWER_SOURCE;
    return c;
}

Result<Machine> junoR0()
{
    return machineOnTable("arm-juno-r0", "juno-r0", JUNO_SOURCE, [](Machine &m, const IdleStateTable &t) {
        // a53_cpu_idle_states WFI 6, cpu-sleep-0 0, cluster-sleep-0 0; a53_cluster_idle_states
        // 56, 56, 17; a53_cpu_active_states at 850000 kHz: power 93; a53_cluster_active_states
        // at 850000 kHz: power 57.
        m.clusters.push_back(junoCluster(t, "little (Cortex-A53)", {0, 3, 4, 5}, {6, 0, 0}, {56, 56, 17}, 93, 57));
        // a57_cpu_idle_states WFI 15, 0, 0; a57_cluster_idle_states 65, 65, 24;
        // a57_cpu_active_states at 1100000 kHz: power 616; a57_cluster_active_states: 64.
        m.clusters.push_back(junoCluster(t, "big (Cortex-A57)", {1, 2}, {15, 0, 0}, {65, 65, 24}, 616, 64));
    });
}

} // namespace

const std::vector<BuiltinMachineInfo> &builtinMachines()
{
    static const std::vector<BuiltinMachineInfo> all = {
        {"juno-r0",
         "Arm Juno r0: CPUs 0,3,4,5 Cortex-A53 + CPUs 1,2 Cortex-A57, arm-juno-r0 table, LISA's energy model",
         JUNO_SOURCE},
        {"rk3399", "Rockchip RK3399: CPUs 0-3 Cortex-A53 + CPUs 4-5 Cortex-A72, arm-rk3399 table, no power data",
         RK3399_SOURCE},
    };
    return all;
}

Result<Machine> builtinMachine(const std::string &id)
{
    if (id == "rk3399")
        return rk3399();
    if (id == "juno-r0" || id == "juno")
        return junoR0();
    std::string ids;
    for (const BuiltinMachineInfo &m : builtinMachines())
        ids += (ids.empty() ? "" : ", ") + m.id;
    return Error{id, 0, "machine", "not a built-in machine (built-in: " + ids + ")"};
}

std::optional<Machine> builtinMachineOfTable(const std::string &tableId, const IdleStateTable &table)
{
    for (const BuiltinMachineInfo &info : builtinMachines()) {
        Result<Machine> m = builtinMachine(info.id);
        if (!m)
            continue;
        const bool ofTable = std::all_of(m->clusters.begin(), m->clusters.end(), [&](const Cluster &c) {
            return c.table.id == tableId && c.table.count() == table.count();
        });
        if (!ofTable)
            continue;
        for (Cluster &c : m->clusters)
            c.table = table;
        return std::move(*m);
    }
    return std::nullopt;
}

Machine machineOfTable(const std::string &tableId, const IdleStateTable &table, const PowerModel &power, int cpus)
{
    cpus = std::max(1, cpus);
    if (!tableId.empty())
        if (std::optional<Machine> board = builtinMachineOfTable(tableId, table); board && board->cpuCount() >= cpus)
            return std::move(*board);
    Machine m = Machine::uniform(table, cpus);
    // Power data sized for another table (a stale model) would price the wrong states.
    if (power.states.size() == static_cast<std::size_t>(table.count()))
        m.clusters.front().power = power;
    return m;
}

} // namespace idlescope
