// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/scenario_trace.h"

#include "core/scenario/scenario.h"
#include "core/trace/trace_model.h"

#include <vector>

namespace idlescope::scenario {

int cpuWithMostRows(std::span<const CpuRows> cpus)
{
    int best = -1;
    std::int64_t bestRows = 0;
    for (const CpuRows &c : cpus)
        if (c.rows > bestRows) { // strictly more: the first (lowest) CPU keeps a tie
            best = c.cpu;
            bestRows = c.rows;
        }
    return best;
}

Result<TraceCpuExport> exportTraceCpu(const trace::TraceImport &t, int cpu, const std::string &path)
{
    if (cpu == TRACE_BEST_CPU) {
        // Every CPU's export is needed to count its rows; the picked one is exported again
        // below rather than kept, so that a trace of many CPUs holds one stream at a time.
        std::vector<CpuRows> rows;
        rows.reserve(t.cpus.size());
        for (const trace::CpuTrace &c : t.cpus)
            rows.push_back({c.cpu, c.spans.empty() ? 0 : static_cast<std::int64_t>(toReplayStream(c).stream.size())});
        cpu = cpuWithMostRows(rows);
        if (cpu < 0)
            return Error{path, 0, "cpu", "no CPU of the trace has a complete idle span"};
    }
    if (cpu < 0 || cpu >= static_cast<int>(t.cpus.size()))
        return Error{path, 0, "cpu",
                     "CPU " + std::to_string(cpu) + " is not in the trace"
                         + (t.cpus.empty() ? std::string()
                                           : " (it has CPUs 0.." + std::to_string(t.cpus.size() - 1) + ")")};
    const trace::CpuTrace &c = t.cpus[static_cast<std::size_t>(cpu)];
    trace::StreamExport e = toReplayStream(c);
    if (e.stream.empty()) // why, in the words of `idlescope-cli import`
        return Error{path, 0, "cpu",
                     "CPU " + std::to_string(cpu) + " has no complete idle span ("
                         + trace::spanAccountText(static_cast<std::int64_t>(c.spans.size()), 0, e.dropped) + ")"};
    return TraceCpuExport{cpu, std::move(e)};
}

} // namespace idlescope::scenario
