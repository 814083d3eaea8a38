// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_stats.h"

#include "core/replay/cpuidle_core.h"

#include <algorithm>

namespace idlescope::trace {

Ns histogramLowerNs(int k)
{
    return k == 0 ? 0 : (Ns{1} << (k - 1)) * NSEC_PER_USEC;
}

int histogramBin(Ns durationNs)
{
    const Ns us = durationNs / NSEC_PER_USEC;
    if (us <= 0)
        return 0;
    const int bin = 64 - __builtin_clzll(static_cast<unsigned long long>(us)); // 1 us -> 1, 2..3 -> 2, ...
    return bin < HIST_BINS ? bin : HIST_BINS - 1;
}

const char *missSourceName(MissSource s)
{
    switch (s) {
    case MissSource::None: return "none";
    case MissSource::Recorded: return "recorded (cpu_idle_miss)";
    case MissSource::Recomputed: return "recomputed (cpuidle_enter_state rule against the table)";
    }
    return "?";
}

namespace {

void addEntry(CpuStats &s, const IdleEntryRec &e, const TraceImport &trace, const IdleStateTable *table,
              MissSource source)
{
    if (e.flags & ENTRY_TRUNCATED) {
        ++s.truncatedEntries;
        return;
    }
    const auto idx = static_cast<size_t>(e.state);
    if (s.states.size() <= idx)
        s.states.resize(idx + 1);
    StateStats &st = s.states[idx];
    const Ns res = e.residencyNs();
    if (s.residency.size() <= idx)
        s.residency.resize(idx + 1);
    ResidencyRange &range = s.residency[idx];
    range.minNs = st.usage == 0 ? res : std::min(range.minNs, res);
    range.maxNs = std::max(range.maxNs, res);
    ++s.entries;
    ++st.usage;
    st.timeNs += res;
    s.idleNs += res;
    ++s.histogram[static_cast<size_t>(histogramBin(res))];
    ++s.causes[static_cast<size_t>(e.cause)];
    if (e.causeName >= 0 && static_cast<size_t>(e.causeName) < trace.names.size()) {
        if (e.cause == WakeCause::Irq)
            ++s.irqNames[trace.names[static_cast<size_t>(e.causeName)]];
        else if (e.cause == WakeCause::HrTimer)
            ++s.timerNames[trace.names[static_cast<size_t>(e.causeName)]];
    }
    if (source == MissSource::Recorded) {
        st.above += (e.flags & ENTRY_MISS_ABOVE) ? 1 : 0;
        st.below += (e.flags & ENTRY_MISS_BELOW) ? 1 : 0;
    } else if (source == MissSource::Recomputed) {
        if (e.state >= table->count()) {
            ++s.statesBeyondTable;
            return;
        }
        const MissFlags m = classifyMiss(*table, e.state, res, (*table)[e.state].exitLatencyNs);
        st.above += m.above ? 1 : 0;
        st.below += m.below ? 1 : 0;
    }
}

void merge(CpuStats &into, const CpuStats &from)
{
    if (into.states.size() < from.states.size())
        into.states.resize(from.states.size());
    for (size_t i = 0; i < from.states.size(); ++i)
        into.states[i] += from.states[i];
    if (into.residency.size() < from.residency.size())
        into.residency.resize(from.residency.size());
    for (size_t i = 0; i < from.residency.size(); ++i) {
        if (from.states[i].usage == 0)
            continue;
        ResidencyRange &r = into.residency[i];
        // into's usage already includes from's (added above): from is its first when they are equal.
        const bool firstUse = into.states[i].usage == from.states[i].usage;
        r.minNs = firstUse ? from.residency[i].minNs : std::min(r.minNs, from.residency[i].minNs);
        r.maxNs = std::max(r.maxNs, from.residency[i].maxNs);
    }
    into.entries += from.entries;
    into.truncatedEntries += from.truncatedEntries;
    into.spans += from.spans;
    into.exportedSpans += from.exportedSpans;
    into.exportedRows += from.exportedRows;
    for (size_t i = 0; i < into.droppedSpans.size(); ++i)
        into.droppedSpans[i] += from.droppedSpans[i];
    into.exportedEntries += from.exportedEntries;
    into.idleNs += from.idleNs;
    into.observedNs = std::max(into.observedNs, from.observedNs);
    for (size_t i = 0; i < into.causes.size(); ++i)
        into.causes[i] += from.causes[i];
    for (size_t i = 0; i < into.histogram.size(); ++i)
        into.histogram[i] += from.histogram[i];
    for (const auto &[k, v] : from.irqNames)
        into.irqNames[k] += v;
    for (const auto &[k, v] : from.timerNames)
        into.timerNames[k] += v;
    into.statesBeyondTable += from.statesBeyondTable;
    mergeFrequencies(into.frequencies, from.frequencies);
}

} // namespace

ClusterStats clusterIdle(const TraceImport &trace, const std::vector<int> &cpus)
{
    ClusterStats out;
    // Each CPU's complete entries as +1 at enter and -1 at exit, swept in time
    // order (exits first at equal times: touching entries do not overlap).
    std::vector<std::pair<Ns, int>> edges;
    Ns from = 0, to = 0;
    for (const int cpu : cpus) {
        if (cpu < 0 || static_cast<size_t>(cpu) >= trace.cpus.size()
            || trace.cpus[static_cast<size_t>(cpu)].events == 0)
            continue;
        const CpuTrace &c = trace.cpus[static_cast<size_t>(cpu)];
        from = out.cpus.empty() ? c.firstNs : std::max(from, c.firstNs);
        to = out.cpus.empty() ? c.lastNs : std::min(to, c.lastNs);
        out.cpus.push_back(cpu);
        for (const IdleEntryRec &e : c.entries)
            if (!(e.flags & ENTRY_TRUNCATED) && e.exitNs > e.enterNs) {
                edges.emplace_back(e.enterNs, +1);
                edges.emplace_back(e.exitNs, -1);
            }
    }
    if (out.cpus.empty())
        return out;
    out.observedNs = std::max<Ns>(0, to - from);
    std::sort(edges.begin(), edges.end());
    const int n = static_cast<int>(out.cpus.size());
    int idle = 0;
    Ns since = 0;
    for (const auto &[t, d] : edges) {
        if (idle == n)
            out.allIdleNs += t - since;
        idle += d;
        since = t;
    }
    return out;
}

TraceStats computeStats(const TraceImport &trace, const IdleStateTable *table,
                        const std::vector<std::vector<int>> &clusters)
{
    TraceStats out;
    out.missSource = trace.hasMissEvents ? MissSource::Recorded : table ? MissSource::Recomputed : MissSource::None;
    if (out.missSource == MissSource::Recomputed)
        out.tableId = table->id;
    for (const CpuTrace &c : trace.cpus) {
        if (c.events == 0)
            continue;
        CpuStats s;
        s.cpu = c.cpu;
        s.observedNs = c.lastNs - c.firstNs;
        for (const IdleEntryRec &e : c.entries)
            addEntry(s, e, trace, table, out.missSource);
        s.frequencies = frequencyResidency(c);
        s.spans = static_cast<std::int64_t>(c.spans.size());
        const StreamExport ex = toReplayStream(c);
        s.exportedSpans = ex.spans;
        s.exportedRows = static_cast<std::int64_t>(ex.stream.size());
        s.droppedSpans = ex.dropped;
        s.exportedEntries = completeEntriesIn(c, ex.rows);
        merge(out.total, s);
        out.cpus.push_back(std::move(s));
    }
    if (clusters.empty()) {
        std::vector<int> all;
        for (const CpuTrace &c : trace.cpus)
            if (!c.entries.empty())
                all.push_back(c.cpu);
        if (!all.empty())
            out.clusters.push_back(clusterIdle(trace, all));
    }
    for (const std::vector<int> &group : clusters)
        out.clusters.push_back(clusterIdle(trace, group));
    return out;
}

} // namespace idlescope::trace
