// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/machine_comparison.h"

#include "core/experiments/governor_settings.h"
#include "core/machine/machine_replay.h"

namespace idlescope {

Result<MachineComparison> runMachineComparison(const MachineCompareOptions &o)
{
    Result<std::vector<std::vector<TunableSetting>>> settings =
        o.tunables.empty() ? settingsPerGovernor(o.governors, o.settings)
                           : Result<std::vector<std::vector<TunableSetting>>>(o.tunables);
    if (!settings)
        return settings.error();
    MachineReplayOptions ro;
    ro.governors = o.governors;
    ro.settings = std::move(*settings);
    ro.threads = o.threads;
    ro.keepIntervals = o.clusterView || o.keepIntervals;
    ro.cancel = o.cancel;
    // The recorded run alone (the window with every governor hidden) replays nothing.
    Result<std::vector<MachineRun>> runs = o.governors.empty() && o.recorded
                                               ? Result<std::vector<MachineRun>>(std::vector<MachineRun>{})
                                               : replayMachine(o.machine, o.workload, ro);
    if (!runs)
        return runs.error();

    MachineComparison c;
    c.machine = o.machine;
    c.workloadLabel = o.workload.label;
    if (o.recorded) {
        c.runs.push_back(*o.recorded);
        c.runs.back().wholeTrace.clear();
        // The recorded run counts the replayed rows, like the governors; every complete
        // entry of the trace is a line of its own, right after it, never mistaken for it.
        if (!o.recorded->wholeTrace.empty()) {
            MachineRun whole;
            whole.name = WHOLE_TRACE_RUN;
            whole.label = (o.recorded->label.empty() ? o.recorded->name : o.recorded->label) + " whole trace";
            whole.missSource = o.recorded->missSource;
            whole.cpus = o.recorded->wholeTrace;
            whole.skipped = o.recorded->skipped;
            c.runs.push_back(std::move(whole));
        }
    }
    for (MachineRun &r : *runs)
        c.runs.push_back(std::move(r));
    for (MachineRun &r : c.runs) {
        c.energy.push_back(runEnergy(c.machine, r));
        if (o.clusterView) {
            c.clusters.push_back(clusterView(c.machine, r));
            std::vector<double> joules;
            for (size_t k = 0; k < c.machine.clusters.size(); ++k)
                joules.push_back(clusterIdleEnergyJ(c.machine.clusters[k], c.clusters.back()[k]));
            c.clusterIdleJ.push_back(std::move(joules));
            if (!o.keepIntervals)
                for (CpuRun &cpu : r.cpus)
                    std::vector<IdleInterval>().swap(cpu.intervals); // the view is made: free the entries
        } else {
            c.clusters.emplace_back();
            c.clusterIdleJ.emplace_back();
        }
    }
    return c;
}

} // namespace idlescope
