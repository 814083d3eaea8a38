// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/frequency_stats.h"

#include <algorithm>
#include <limits>
#include <map>

namespace idlescope::trace {

namespace {

struct Interval {
    Ns from = 0;
    Ns to = 0;
};

// The CPU's running time as the gaps between its idle entries, up to @p end. A truncated
// entry has no exit: the next enter closed it, or the trace ended inside it, so the CPU is
// taken as idle until then.
std::vector<Interval> runningIntervals(const CpuTrace &cpu, Ns end)
{
    std::vector<Interval> running;
    Ns runningSince = std::numeric_limits<Ns>::min();
    for (size_t i = 0; i < cpu.entries.size(); ++i) {
        const IdleEntryRec &e = cpu.entries[i];
        if (e.enterNs > runningSince)
            running.push_back({runningSince, std::min(e.enterNs, end)});
        if (e.flags & ENTRY_TRUNCATED)
            runningSince = i + 1 < cpu.entries.size() ? cpu.entries[i + 1].enterNs : end;
        else
            runningSince = e.exitNs;
    }
    if (runningSince < end)
        running.push_back({runningSince, end});
    return running;
}

void addStretch(FrequencyResidency &f, Ns length)
{
    f.minNs = f.hits == 0 ? length : std::min(f.minNs, length);
    f.maxNs = std::max(f.maxNs, length);
    ++f.hits;
    f.timeNs += length;
}

} // namespace

std::vector<FrequencyResidency> frequencyResidency(const CpuTrace &cpu)
{
    if (cpu.frequencies.empty())
        return {};
    // Changes for one CPU may be logged by several CPUs (wherever cpufreq ran): sort by time.
    std::vector<FrequencyChange> changes = cpu.frequencies;
    std::stable_sort(changes.begin(), changes.end(),
                     [](const FrequencyChange &a, const FrequencyChange &b) { return a.tsNs < b.tsNs; });
    const Ns end = cpu.events > 0 ? cpu.lastNs : changes.back().tsNs;
    const std::vector<Interval> running = runningIntervals(cpu, end);

    std::map<std::int64_t, FrequencyResidency> byKhz;
    size_t r = 0;
    for (size_t k = 0; k < changes.size(); ++k) {
        const Ns from = std::min(changes[k].tsNs, end);
        const Ns to = k + 1 < changes.size() ? std::min(changes[k + 1].tsNs, end) : end;
        while (r < running.size() && running[r].to <= from)
            ++r;
        FrequencyResidency &f = byKhz[changes[k].khz];
        f.khz = changes[k].khz;
        for (size_t j = r; j < running.size() && running[j].from < to; ++j) {
            const Ns length = std::min(running[j].to, to) - std::max(running[j].from, from);
            if (length > 0)
                addStretch(f, length);
        }
    }
    std::vector<FrequencyResidency> out;
    for (const auto &[khz, f] : byKhz)
        out.push_back(f);
    return out;
}

void mergeFrequencies(std::vector<FrequencyResidency> &into, const std::vector<FrequencyResidency> &from)
{
    for (const FrequencyResidency &f : from) {
        auto at = std::lower_bound(into.begin(), into.end(), f.khz,
                                   [](const FrequencyResidency &x, std::int64_t khz) { return x.khz < khz; });
        if (at == into.end() || at->khz != f.khz) {
            into.insert(at, f);
            continue;
        }
        if (f.hits == 0)
            continue;
        at->minNs = at->hits == 0 ? f.minNs : std::min(at->minNs, f.minNs);
        at->maxNs = std::max(at->maxNs, f.maxNs);
        at->hits += f.hits;
        at->timeNs += f.timeNs;
    }
}

} // namespace idlescope::trace
