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

StreamClock clockOf(const IdleStream &stream)
{
    const bool trace = std::any_of(stream.begin(), stream.end(), [](const IdleSpan &row) { return row.gapFromWake; });
    return trace ? StreamClock::Trace : StreamClock::Own;
}

Ns replayDurationNs(StreamClock clock, Ns replayElapsedNs, const WakeTotals &wake)
{
    return replayElapsedNs + (clock == StreamClock::Trace ? 0 : wake.clockShiftNs);
}

namespace {

/// @p summary's counters as CPU 0 of a one-CPU machine of @p table and @p power, with @p cpu's
/// duration, wakeups and waking time: so that one rule (energy.h) prices every run.
RunThroughput oneCpuThroughput(const IdleStateTable &table, const PowerModel &power, const ReplaySummary &summary,
                               CpuRun cpu)
{
    Machine machine = Machine::uniform(table, 1);
    machine.clusters.front().power = power;
    cpu.cpu = 0;
    cpu.stateCount = table.count();
    for (int i = 0; i < table.count(); ++i)
        cpu.states[static_cast<std::size_t>(i)] = summary.states[static_cast<std::size_t>(i)];
    MachineRun run;
    run.cpus.push_back(cpu);
    return machineRunThroughput(machine, run, cpu.durationNs);
}

} // namespace

RunThroughput replayThroughput(const IdleStateTable &table, const PowerModel &power, StreamClock clock,
                               const ReplaySummary &summary, std::int64_t wakeups, const WakeTotals &wake)
{
    CpuRun cpu;
    cpu.durationNs = replayDurationNs(clock, summary.endNowNs - REPLAY_START_NS, wake);
    cpu.wakeups = wakeups;
    cpu.wakingNs = wake.wakingNs;
    cpu.enteringNs = wake.enteringNs;
    cpu.timeHasExitLatency = true;
    return oneCpuThroughput(table, power, summary, cpu);
}

RunThroughput governorRunThroughput(const IdleStateTable &table, const PowerModel &power, StreamClock clock,
                                    const GovernorRun &run, const GovernorTotals &totals)
{
    if (run.variant == RECORDED_VARIANT)
        return recordedThroughput(table, power, run.summary);
    return replayThroughput(table, power, clock, run.summary, totals.latencyCostEntries, totals.wake);
}

RunThroughput recordedThroughput(const IdleStateTable &table, const PowerModel &power, const ReplaySummary &summary)
{
    // The kernel's own times: no replay's exit latency in them, no wake-ups of the model's.
    CpuRun cpu;
    cpu.durationNs = summary.endNowNs - REPLAY_START_NS;
    const RunThroughput priced = oneCpuThroughput(table, power, summary, cpu);
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
