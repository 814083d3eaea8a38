// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_agreement.h"

#include "core/trace/recorded_entries.h"
#include "core/trace/trace_limits.h"
#include "core/trace/trace_stream.h"

#include <algorithm>
#include <limits>

namespace idlescope::trace {

void CpuAgreement::add(const CpuAgreement &o)
{
    stateCount = std::max(stateCount, o.stateCount);
    recordedEntries += o.recordedEntries;
    simulatedEntries += o.simulatedEntries;
    paired += o.paired;
    agreed += o.agreed;
    for (size_t r = 0; r < CPUIDLE_STATE_MAX; ++r)
        for (size_t s = 0; s < CPUIDLE_STATE_MAX; ++s)
            matrix[r][s] += o.matrix[r][s];
}

CpuAgreement compareEntries(const GovernorRun &recorded, const GovernorRun &simulated, int cpu, int stateCount,
                            Ns originNs, std::size_t keep, std::vector<Disagreement> *first)
{
    CpuAgreement a;
    a.cpu = cpu;
    a.stateCount = std::clamp(stateCount, 0, CPUIDLE_STATE_MAX);
    a.recordedEntries = static_cast<std::int64_t>(recorded.size());
    a.simulatedEntries = static_cast<std::int64_t>(simulated.size());
    constexpr std::int32_t NONE = std::numeric_limits<std::int32_t>::max();
    const std::size_t nr = recorded.size();
    const std::size_t ns = simulated.size();
    std::size_t kept = 0;
    std::size_t i = 0;
    std::size_t j = 0;
    // Both runs are in row order: take one row of each at a time, the k-th entry with the k-th.
    while (i < nr || j < ns) {
        const std::int32_t row = std::min(i < nr ? recorded.span[i] : NONE, j < ns ? simulated.span[j] : NONE);
        std::size_t i1 = i;
        while (i1 < nr && recorded.span[i1] == row)
            ++i1;
        std::size_t j1 = j;
        while (j1 < ns && simulated.span[j1] == row)
            ++j1;
        const std::size_t n = std::min(i1 - i, j1 - j);
        for (std::size_t k = 0; k < n; ++k) {
            const int r = std::clamp<int>(recorded.state[i + k], 0, CPUIDLE_STATE_MAX - 1);
            const int s = std::clamp<int>(simulated.state[j + k], 0, CPUIDLE_STATE_MAX - 1);
            ++a.paired;
            ++a.matrix[static_cast<size_t>(r)][static_cast<size_t>(s)];
            if (r == s) {
                ++a.agreed;
            } else if (first && kept < keep) {
                first->push_back({cpu, row, recorded.startNs[i + k] + originNs, recorded.residencyNs[i + k], r, s});
                ++kept;
            }
        }
        i = i1;
        j = j1;
    }
    return a;
}

Result<TraceAgreement> traceAgreement(const TraceImport &trace, const Machine &machine, const std::string &variant,
                                      const std::vector<TunableSetting> &settings, std::size_t keep)
{
    TraceAgreement out;
    out.variant = variant;
    out.total.cpu = -1;
    out.oracle.cpu = -1;
    const TraceLimits limits = traceLimits(trace);
    out.limits = traceLimitTexts(limits);
    if (limits.defaultIdleOnly)
        return Error{trace.file, 0, "trace",
                     "every idle entry is in state 1, which is what the kernel logs with no cpuidle driver: the "
                     "trace holds no governor's choices to agree with"};
    for (const CpuTrace &c : trace.cpus) {
        if (c.events == 0)
            continue;
        if (machine.clusterOf(c.cpu) < 0)
            return Error{trace.file, 0, "machine",
                         "the trace has events on CPU " + std::to_string(c.cpu) + ", machine " + machine.id
                             + " has CPUs 0.." + std::to_string(machine.cpuCount() - 1)};
        const StreamExport ex = toReplayStream(c);
        if (ex.stream.empty())
            continue;
        const IdleStateTable &table = machine.tableOf(c.cpu);
        // A state the table lacks: the kernel ran another table, and pairing states by index
        // would compare unlike states.
        for (const IdleEntryRec &e : c.entries)
            if (e.state >= table.count())
                return Error{trace.file, 0, "machine",
                             "CPU " + std::to_string(c.cpu) + " entered state " + std::to_string(e.state) + ", table "
                                 + table.id + " has states 0.." + std::to_string(table.count() - 1)
                                 + ": not the machine's own table"};
        if (out.stateNames.empty())
            for (const IdleState &s : table.states)
                out.stateNames.push_back(s.name);
        // On the trace clock itself (origin 0), so that disagreements carry the trace's timestamps.
        const GovernorRun recorded = recordedEntries(c, ex.rows, table, trace.hasMissEvents, 0);
        RunOptions options;
        options.settings = settings;
        Result<GovernorRun> simulated = runGovernor(table, ex.stream, variant, options);
        if (!simulated)
            return Error{"", 0, "governor", simulated.error().message};
        out.cpus.push_back(compareEntries(recorded, *simulated, c.cpu, table.count(), 0, keep, &out.first));
        out.total.add(out.cpus.back());
        Result<GovernorRun> oracle = runGovernor(table, ex.stream, "oracle");
        if (!oracle)
            return oracle.error();
        out.oracle.add(compareEntries(recorded, *oracle, c.cpu, table.count(), 0, 0, nullptr));
    }
    std::stable_sort(out.first.begin(), out.first.end(),
                     [](const Disagreement &a, const Disagreement &b) { return a.traceNs < b.traceNs; });
    if (out.first.size() > keep)
        out.first.resize(keep);
    return out;
}

} // namespace idlescope::trace
