// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_machine.h"

#include "core/states/wake_delay.h"
#include "core/trace/recorded_entries.h"
#include "core/trace/trace_stats.h"
#include "core/trace/trace_stream.h"

#include <algorithm>
#include <limits>

namespace idlescope::trace {

namespace {

Ns traceOrigin(const TraceImport &trace)
{
    Ns t0 = std::numeric_limits<Ns>::max();
    for (const CpuTrace &c : trace.cpus)
        if (c.events > 0)
            t0 = std::min(t0, c.firstNs);
    return t0 == std::numeric_limits<Ns>::max() ? 0 : t0;
}

} // namespace

MachineWorkload traceWorkload(const TraceImport &trace, const std::string &label)
{
    MachineWorkload w;
    w.label = label;
    const Ns t0 = traceOrigin(trace);
    for (const CpuTrace &c : trace.cpus) {
        CpuStream cs;
        cs.cpu = c.cpu;
        if (c.events == 0) {
            cs.emptyReason = "no events";
        } else {
            StreamExport ex = toReplayStream(c);
            cs.stream = std::move(ex.stream);
            cs.offsetNs = c.firstNs - t0;
            if (cs.stream.empty())
                cs.emptyReason = "no complete idle span: "
                                 + spanAccountText(static_cast<std::int64_t>(c.spans.size()), 0, ex.dropped);
        }
        w.cpus.push_back(std::move(cs));
    }
    return w;
}

void placeOnTraceClock(MachineWorkload &workload, const TraceImport &trace)
{
    const Ns t0 = traceOrigin(trace);
    for (CpuStream &cs : workload.cpus) {
        cs.spanStartNs.clear();
        if (cs.stream.empty() || cs.cpu < 0 || static_cast<size_t>(cs.cpu) >= trace.cpus.size())
            continue;
        const CpuTrace &c = trace.cpus[static_cast<size_t>(cs.cpu)];
        const StreamExport ex = toReplayStream(c);
        cs.spanStartNs.reserve(ex.rows.size());
        for (const Ns start : ex.rows.startNs)
            cs.spanStartNs.push_back(start - t0);
    }
}

MachineRun recordedRun(const TraceImport &trace, const Machine &machine, const std::string &governor,
                       bool keepIntervals)
{
    MachineRun run;
    run.name = "recorded";
    run.label = governor.empty() ? "recorded" : "recorded (" + governor + ")";
    run.missSource = missSourceName(trace.hasMissEvents ? MissSource::Recorded : MissSource::Recomputed);
    const Ns t0 = traceOrigin(trace);
    // computeStats() takes one table: run it per cluster and keep that cluster's CPUs.
    for (const CpuTrace &c : trace.cpus) {
        if (c.events == 0) {
            run.skipped.push_back({c.cpu, "no events"});
            continue;
        }
        const int k = machine.clusterOf(c.cpu);
        if (k < 0) {
            run.skipped.push_back({c.cpu, "not a CPU of machine " + machine.id});
            continue;
        }
        const IdleStateTable &table = machine.clusters[static_cast<size_t>(k)].table;
        TraceImport one;
        one.hasMissEvents = trace.hasMissEvents;
        one.names = trace.names;
        one.cpus.push_back(c);
        const TraceStats stats = computeStats(one, &table);
        const CpuStats &s = stats.cpus.front();
        if (s.entries == 0) {
            run.skipped.push_back({c.cpu, "no complete idle entry"});
            continue;
        }
        CpuRun whole;
        whole.cpu = c.cpu;
        whole.stateCount =
            std::min<int>(CPUIDLE_STATE_MAX, std::max<int>(table.count(), static_cast<int>(s.states.size())));
        for (size_t i = 0; i < s.states.size() && i < CPUIDLE_STATE_MAX; ++i)
            whole.states[i] = s.states[i];
        whole.entries = s.entries;
        whole.spans = s.spans;
        whole.durationNs = s.observedNs;
        // Like with like: the entries of the rows the governors replay, over the time those
        // rows cover (their gaps and stays), as a simulated run counts them.
        const StreamExport ex = toReplayStream(c);
        const GovernorRun kept = recordedEntries(c, ex.rows, table, trace.hasMissEvents, t0);
        CpuRun r;
        r.cpu = c.cpu;
        r.stateCount = whole.stateCount;
        for (int i = 0; i < kept.summary.stateCount && i < CPUIDLE_STATE_MAX; ++i)
            r.states[static_cast<size_t>(i)] = kept.summary.states[static_cast<size_t>(i)];
        r.entries = kept.summary.entries;
        r.spans = static_cast<std::int64_t>(ex.stream.size());
        for (const IdleSpan &row : ex.stream)
            r.durationNs += row.gapNs + row.wakeNs;
        for (size_t i = 0; i < kept.flags.size(); ++i)
            if (entryPaysExitLatency((kept.flags[i] & ENTRY_WOKEN_BY_WAKEUP) != 0,
                                     (kept.flags[i] & ENTRY_TIMER_WAKE) != 0)) {
                ++r.wakeups;
                r.latencyCostNs += replayedWakeDelayNs(table, kept.state[i], kept.residencyNs[i]);
            }
        whole.wakeups = r.wakeups;
        whole.latencyCostNs = r.latencyCostNs;
        // The lane draws the entries its counters count (those of the replayed rows), so that
        // the recorded and simulated lanes cover the same time, as the CPUs table says; every
        // complete entry of the trace is the table's "whole trace" line, with no lane.
        if (keepIntervals) {
            r.intervalKind = IntervalKind::Entries;
            for (std::size_t i = 0; i < kept.size(); ++i)
                r.intervals.push_back({kept.startNs[i], kept.startNs[i] + kept.residencyNs[i], kept.state[i]});
        }
        run.wholeTrace.push_back(std::move(whole));
        run.cpus.push_back(std::move(r));
    }
    return run;
}

} // namespace idlescope::trace
