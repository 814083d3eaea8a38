// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/machine/machine_run.h"

#include <algorithm>

namespace idlescope {

std::int64_t CpuRun::above() const
{
    std::int64_t n = 0;
    for (int i = 0; i < stateCount; ++i)
        n += states[static_cast<size_t>(i)].above;
    return n;
}

std::int64_t CpuRun::below() const
{
    std::int64_t n = 0;
    for (int i = 0; i < stateCount; ++i)
        n += states[static_cast<size_t>(i)].below;
    return n;
}

Ns CpuRun::idleNs() const
{
    Ns t = 0;
    for (int i = 0; i < stateCount; ++i)
        t += states[static_cast<size_t>(i)].timeNs;
    return t;
}

double CpuRun::missRatio() const
{
    return entries > 0 ? static_cast<double>(above() + below()) / static_cast<double>(entries) : 0.0;
}

void CpuRun::add(const CpuRun &o)
{
    stateCount = std::max(stateCount, o.stateCount);
    for (int i = 0; i < o.stateCount; ++i) {
        StateStats &s = states[static_cast<size_t>(i)];
        const StateStats &t = o.states[static_cast<size_t>(i)];
        s.usage += t.usage;
        s.timeNs += t.timeNs;
        s.above += t.above;
        s.below += t.below;
    }
    entries += o.entries;
    spans += o.spans;
    wakeups += o.wakeups;
    latencyCostNs += o.latencyCostNs;
    durationNs = std::max(durationNs, o.durationNs);
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
