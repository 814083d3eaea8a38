// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/machine/machine_replay.h"

#include "core/machine/in_state_interval.h"
#include "core/source_governor/source_governor.h"
#include "core/states/wake_delay.h"
#include "core/stats/run_throughput.h"
#include "core/stats/woken_tasks.h"

#include "core/workloads/parallel_for.h"

#include <algorithm>
#include <memory>
#include <numeric>

namespace idlescope {

CpuRun replayCpu(const IdleStateTable &table, const CpuStream &cs, Governor &gov, IntervalKind intervals,
                 const std::atomic<bool> *cancel)
{
    CpuRun out;
    out.cpu = cs.cpu;
    out.ioOps = cs.ioOps;
    out.stateCount = table.count();
    out.intervalKind = intervals;
    const IdleStream &stream = cs.stream;
    ReferenceReplay replay(table, gov);
    const bool keepIntervals = intervals == IntervalKind::Entries;
    const bool onSpanClock = keepIntervals && cs.spanStartNs.size() == stream.size();
    const bool inState = intervals == IntervalKind::InState;
    // A generated stream's real clock runs behind the replay's by the exits' shift; a trace's
    // rows start where the trace says (replayDurationNs()).
    const bool shifted = inState && clockOf(stream) == StreamClock::Own;
    Ns spanOwnStartNs = 0; // the replay's own time at the current span's start
    // Entries end a span when their idle time reaches the span's wakeup; a
    // wakeup that is not the span's own timer is one the governor could not
    // see coming, and the wake delay of the state left is what it cost
    // (the same rule as compare's latency_cost_us). Every entry's wake delay
    // is time spent waking, and moves the run's real clock (wake_delay.h).
    WakeTotals wake;
    auto sink = [&](const EntryRecord &e, const Governor &) {
        if (inState) [[unlikely]] // on the real clock: with the shift of the exits before this one
            addInStateInterval(out.intervals, table, e,
                               e.startNs - REPLAY_START_NS + cs.offsetNs + (shifted ? wake.clockShiftNs : 0));
        addWokenTask(table, e, wake, out.wakeups, out.latencyCostNs);
        if (onSpanClock) {
            // At its offset in its span; never past the next span's start (a run's own
            // exit latencies may make an entry longer than the recorded span).
            const auto row = static_cast<size_t>(e.span);
            if (e.entry == 0)
                spanOwnStartNs = e.startNs;
            const Ns start = cs.spanStartNs[row] + (e.startNs - spanOwnStartNs);
            Ns end = start + e.residencyNs;
            if (row + 1 < cs.spanStartNs.size())
                end = std::min(end, cs.spanStartNs[row + 1]);
            out.intervals.push_back({start, std::max(start, end), e.state});
        } else if (keepIntervals) {
            const Ns start = e.startNs - REPLAY_START_NS + cs.offsetNs;
            out.intervals.push_back({start, start + e.residencyNs, e.state});
        }
    };
    for (size_t i = 0; i < stream.size(); ++i) {
        if (cancel && (i & 4095) == 0 && cancel->load(std::memory_order_relaxed))
            break;
        replay.runSpans(stream, i, i + 1, sink);
    }
    const ReplaySummary &sum = replay.summary();
    out.entries = sum.entries;
    out.spans = sum.spans;
    out.durationNs = replayDurationNs(clockOf(stream), replay.now() - REPLAY_START_NS, wake);
    if (out.ioOps >= 0)
        out.ioDurationNs = out.durationNs;
    out.wakingNs = wake.wakingNs;
    out.enteringNs = wake.enteringNs;
    out.timeHasExitLatency = true;
    for (int i = 0; i < table.count(); ++i)
        out.states[static_cast<size_t>(i)] = sum.states[static_cast<size_t>(i)];
    return out;
}

Result<std::vector<MachineRun>> replayMachine(const Machine &machine, const MachineWorkload &workload,
                                              const MachineReplayOptions &o)
{
    if (Status v = machine.validate(); !v)
        return v.error();
    if (o.governors.empty())
        return Error{"", 0, "governors", "name at least one governor variant"};
    std::vector<int> seen(static_cast<size_t>(machine.cpuCount()), 0);
    for (const CpuStream &cs : workload.cpus) {
        if (cs.cpu < 0 || cs.cpu >= machine.cpuCount())
            return Error{workload.label, 0, "cpu",
                         "CPU " + std::to_string(cs.cpu) + " is not a CPU of machine " + machine.id + " (CPUs 0.."
                             + std::to_string(machine.cpuCount() - 1) + ")"};
        if (seen[static_cast<size_t>(cs.cpu)]++)
            return Error{workload.label, 0, "cpu", "CPU " + std::to_string(cs.cpu) + " has two streams"};
    }
    auto settingsOf = [&](size_t g) { return g < o.settings.size() ? o.settings[g] : std::vector<TunableSetting>{}; };
    for (size_t g = 0; g < o.governors.size(); ++g)
        if (isSourceGovernorId(o.governors[g]))
            return Error{"", 0, o.governors[g],
                         "a governor built from source replays one CPU's stream at a time, "
                         "not a whole machine"};
    for (size_t g = 0; g < o.governors.size(); ++g)
        if (Result<std::unique_ptr<Governor>> gov = makeConfiguredGovernor(o.governors[g], settingsOf(g)); !gov) {
            Error e = gov.error();
            e.message = o.governors[g] + ": " + e.message;
            return e;
        }

    // One job per (governor, CPU with spans), the longest streams first.
    struct Job {
        size_t governor;
        size_t stream;
    };
    std::vector<Job> jobs;
    for (size_t g = 0; g < o.governors.size(); ++g)
        for (size_t s = 0; s < workload.cpus.size(); ++s)
            if (!workload.cpus[s].stream.empty())
                jobs.push_back({g, s});
    std::stable_sort(jobs.begin(), jobs.end(), [&](const Job &a, const Job &b) {
        return workload.cpus[a.stream].stream.size() > workload.cpus[b.stream].stream.size();
    });
    std::vector<CpuRun> results(jobs.size());
    workloads::parallelFor(static_cast<int>(jobs.size()), o.threads, [&](int j) {
        const Job &job = jobs[static_cast<size_t>(j)];
        const CpuStream &cs = workload.cpus[job.stream];
        std::unique_ptr<Governor> gov =
            std::move(makeConfiguredGovernor(o.governors[job.governor], settingsOf(job.governor)).value());
        results[static_cast<size_t>(j)] =
            replayCpu(machine.tableOf(cs.cpu), cs, *gov, o.keepIntervals ? IntervalKind::Entries : IntervalKind::None,
                      o.cancel);
    });
    if (o.cancel && o.cancel->load())
        return Error::cancelled();

    std::vector<MachineRun> runs(o.governors.size());
    for (size_t g = 0; g < runs.size(); ++g) {
        runs[g].name = o.governors[g];
        for (const CpuStream &cs : workload.cpus)
            if (cs.stream.empty())
                runs[g].skipped.push_back({cs.cpu, cs.emptyReason.empty() ? "no idle spans" : cs.emptyReason});
    }
    for (size_t j = 0; j < jobs.size(); ++j)
        runs[jobs[j].governor].cpus.push_back(std::move(results[j]));
    for (MachineRun &r : runs) {
        std::sort(r.cpus.begin(), r.cpus.end(), [](const CpuRun &a, const CpuRun &b) { return a.cpu < b.cpu; });
        std::sort(r.skipped.begin(), r.skipped.end(),
                  [](const SkippedCpu &a, const SkippedCpu &b) { return a.cpu < b.cpu; });
    }
    return runs;
}

} // namespace idlescope
