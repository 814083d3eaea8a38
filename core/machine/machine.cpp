// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/machine/machine.h"

#include <algorithm>

namespace idlescope {

int Machine::cpuCount() const
{
    int n = 0;
    for (const Cluster &c : clusters)
        for (int cpu : c.cpus)
            n = std::max(n, cpu + 1);
    return n;
}

int Machine::clusterOf(int cpu) const
{
    for (size_t k = 0; k < clusters.size(); ++k)
        if (std::find(clusters[k].cpus.begin(), clusters[k].cpus.end(), cpu) != clusters[k].cpus.end())
            return static_cast<int>(k);
    return -1;
}

Status Machine::validate() const
{
    if (clusters.empty())
        return Error{id, 0, "clusters", "a machine needs at least one cluster"};
    const int n = cpuCount();
    if (n > 4096)
        return Error{id, 0, "cpus", "more than 4096 CPUs"};
    std::vector<int> owner(static_cast<size_t>(n), -1);
    for (size_t k = 0; k < clusters.size(); ++k) {
        const Cluster &c = clusters[k];
        const std::string where = "cluster " + (c.name.empty() ? std::to_string(k) : c.name);
        if (c.cpus.empty())
            return Error{id, 0, "cpus", where + ": no CPUs"};
        for (int cpu : c.cpus) {
            if (cpu < 0)
                return Error{id, 0, "cpus", where + ": CPU " + std::to_string(cpu) + " is negative"};
            if (owner[static_cast<size_t>(cpu)] >= 0)
                return Error{id, 0, "cpus",
                             where + ": CPU " + std::to_string(cpu) + " is already in cluster "
                                 + clusters[static_cast<size_t>(owner[static_cast<size_t>(cpu)])].name};
            owner[static_cast<size_t>(cpu)] = static_cast<int>(k);
        }
        if (Status v = c.table.validate(); !v) {
            Error e = v.error();
            e.message = where + ": " + e.message;
            return e;
        }
        if (c.table.tickHz != clusters.front().table.tickHz)
            return Error{id, 0, "tick_hz", where + ": every cluster must have the machine's tick rate"};
        if (!c.power.states.empty() && c.power.states.size() != static_cast<size_t>(c.table.count()))
            return Error{id, 0, "power",
                         where + ": power data for " + std::to_string(c.power.states.size()) + " states, the table has "
                             + std::to_string(c.table.count())};
    }
    for (int cpu = 0; cpu < n; ++cpu)
        if (owner[static_cast<size_t>(cpu)] < 0)
            return Error{id, 0, "cpus", "CPU " + std::to_string(cpu) + " has no table (no cluster lists it)"};
    return Ok{};
}

Status Machine::setTickHz(int hz)
{
    for (Cluster &c : clusters)
        if (Status s = c.table.setTickHz(hz); !s)
            return s;
    return Ok{};
}

Machine Machine::uniform(const IdleStateTable &table, int cpus)
{
    Machine m;
    m.id = table.id + " x" + std::to_string(cpus);
    Cluster c;
    c.name = "all";
    c.table = table;
    for (int i = 0; i < cpus; ++i)
        c.cpus.push_back(i);
    m.clusters.push_back(std::move(c));
    return m;
}

} // namespace idlescope
