// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/run_throughput.h"

#include "core/energy/energy.h"
#include "core/machine/machine.h"
#include "core/machine/machine_run.h"

#include <algorithm>

namespace idlescope {

double perSecond(double count, Ns durationNs)
{
    return durationNs > 0 ? count / (static_cast<double>(durationNs) * 1e-9) : 0.0;
}

bool keepsTraceClock(const IdleStream &stream)
{
    return std::any_of(stream.begin(), stream.end(), [](const IdleSpan &row) { return row.gapFromWake; });
}

Ns replayDurationNs(const IdleStream &stream, Ns replayElapsedNs, const WakeTotals &wake)
{
    return replayElapsedNs + (keepsTraceClock(stream) ? 0 : wake.clockShiftNs);
}

RunThroughput replayThroughput(const IdleStateTable &table, const PowerModel &power, const IdleStream &stream,
                               const ReplaySummary &summary, std::int64_t wakeups, const WakeTotals &wake)
{
    const Ns durationNs = replayDurationNs(stream, summary.endNowNs - REPLAY_START_NS, wake);
    // The run as a one-CPU machine's, so that one rule (energy.h) prices every run.
    Machine machine = Machine::uniform(table, 1);
    machine.clusters.front().power = power;
    CpuRun cpu;
    cpu.cpu = 0;
    cpu.stateCount = table.count();
    for (int i = 0; i < table.count(); ++i)
        cpu.states[static_cast<std::size_t>(i)] = summary.states[static_cast<std::size_t>(i)];
    cpu.durationNs = durationNs;
    cpu.wakeups = wakeups;
    cpu.wakingNs = wake.wakingNs;
    cpu.enteringNs = wake.enteringNs;
    cpu.timeHasExitLatency = true;
    MachineRun run;
    run.cpus.push_back(cpu);
    return machineRunThroughput(machine, run, durationNs);
}

RunThroughput governorRunThroughput(const IdleStateTable &table, const PowerModel &power, const IdleStream &stream,
                                    const GovernorRun &run, const GovernorTotals &totals)
{
    if (run.variant == RECORDED_VARIANT)
        return recordedThroughput(table, power, run.summary);
    return replayThroughput(table, power, stream, run.summary, totals.latencyCostEntries, totals.wake);
}

RunThroughput recordedThroughput(const IdleStateTable &table, const PowerModel &power, const ReplaySummary &summary)
{
    // The kernel's own times: no replay's exit latency in them, no wake-ups of the model's.
    Machine machine = Machine::uniform(table, 1);
    machine.clusters.front().power = power;
    CpuRun cpu;
    cpu.cpu = 0;
    cpu.stateCount = table.count();
    for (int i = 0; i < table.count(); ++i)
        cpu.states[static_cast<std::size_t>(i)] = summary.states[static_cast<std::size_t>(i)];
    cpu.durationNs = summary.endNowNs - REPLAY_START_NS;
    MachineRun run;
    run.cpus.push_back(cpu);
    const RunThroughput priced = machineRunThroughput(machine, run, cpu.durationNs);
    RunThroughput t;
    t.idleEnergyJ = priced.idleEnergyJ;
    t.missing = priced.missing;
    return t;
}

RunThroughput machineRunThroughput(const Machine &machine, const MachineRun &run, Ns durationNs, Ns energyWindowNs)
{
    RunThroughput t;
    t.durationNs = durationNs;
    t.wakeups = run.total().wakeups;
    t.wakeupsPerSecond = perSecond(static_cast<double>(t.wakeups), t.durationNs);
    const RunEnergy e = runEnergy(machine, run, energyWindowNs);
    if (!e.available) {
        t.missing = e.missing;
        return t;
    }
    t.idleEnergyJ = e.idleTotalJ();
    if (e.hasActive)
        t.energyJ = e.totalJ();
    return t;
}

} // namespace idlescope
