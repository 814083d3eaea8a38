// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/machine/machine_run.h"

#include <algorithm>

namespace idlescope {

std::int64_t CpuRun::above() const
{
    return sumOverStates(states, stateCount, &StateStats::above);
}

std::int64_t CpuRun::below() const
{
    return sumOverStates(states, stateCount, &StateStats::below);
}

Ns CpuRun::idleNs() const
{
    return sumOverStates(states, stateCount, &StateStats::timeNs);
}

double CpuRun::missRatio() const
{
    return entries > 0 ? static_cast<double>(above() + below()) / static_cast<double>(entries) : 0.0;
}

void CpuRun::add(const CpuRun &o)
{
    stateCount = std::max(stateCount, o.stateCount);
    for (int i = 0; i < o.stateCount; ++i) {
        states[static_cast<size_t>(i)] += o.states[static_cast<size_t>(i)];
        enteringNs[static_cast<size_t>(i)] += o.enteringNs[static_cast<size_t>(i)];
    }
    entries += o.entries;
    spans += o.spans;
    wakeups += o.wakeups;
    if (o.ioOps >= 0) {
        ioOps = std::max<std::int64_t>(ioOps, 0) + o.ioOps;
        ioDurationNs = std::max(ioDurationNs, o.ioDurationNs);
    }
    latencyCostNs += o.latencyCostNs;
    wakingNs += o.wakingNs;
    timeHasExitLatency = timeHasExitLatency || o.timeHasExitLatency;
    durationNs = std::max(durationNs, o.durationNs);
}

double CpuRun::iops() const
{
    return ioDurationNs > 0
               ? static_cast<double>(std::max<std::int64_t>(ioOps, 0)) / (static_cast<double>(ioDurationNs) * 1e-9)
               : 0.0;
}

CpuRun MachineRun::total() const
{
    CpuRun t;
    for (const CpuRun &c : cpus)
        t.add(c);
    t.cpu = -1;
    return t;
}

const CpuRun *MachineRun::find(int cpu) const
{
    for (const CpuRun &c : cpus)
        if (c.cpu == cpu)
            return &c;
    return nullptr;
}

} // namespace idlescope
