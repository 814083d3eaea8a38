// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/scenario_closed_loop.h"

#include <cstdint>
#include <string>

namespace idlescope::scenario {

Result<ClosedLoopSpec> closedLoopOf(const Scenario &s)
{
    if (s.workload.kind != WorkloadKind::ClosedLoop)
        return Error{"", 0, "workload", "not a closed loop"};
    if (s.workload.seed < 0)
        return Error{"", 0, "seed", "must be a non-negative integer"};
    return parseClosedLoopSpec(s.workload.text);
}

std::string backgroundNote(const Machine &machine, const ClosedLoopSpec &loop, const std::string &background)
{
    if (machine.cpuCount() <= loop.cpus() || background == "none")
        return {};
    return "CPUs " + std::to_string(loop.cpus()) + ".." + std::to_string(machine.cpuCount() - 1)
           + " run the background '" + background + "'";
}

Result<std::vector<ClosedLoopRun>> runClosedLoopScenario(const Scenario &s, const ClosedLoopSpec &loop,
                                                         const Machine &machine, int threads,
                                                         const ClosedLoopWatch *watch,
                                                         const workloads::WorkloadSpec *background)
{
    std::vector<std::string> variants;
    std::vector<std::vector<TunableSetting>> settings;
    for (const GovernorInstance &g : s.governors) {
        variants.push_back(g.variant);
        settings.push_back(g.settings);
    }
    Result<std::vector<ClosedLoopRun>> runs =
        runClosedLoop(machine, loop, variants, settings, static_cast<std::uint64_t>(s.workload.seed), threads, watch,
                      background);
    if (runs)
        for (std::size_t g = 0; g < runs->size(); ++g)
            (*runs)[g].governor = s.governors[g].name(); // the rows name the instance, as compare's do
    return runs;
}

} // namespace idlescope::scenario
