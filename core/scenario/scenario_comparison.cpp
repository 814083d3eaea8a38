// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/scenario_comparison.h"

#include "core/formats/wult_csv.h"
#include "core/scenario/scenario_command.h"
#include "core/scenario/scenario_stream.h"
#include "core/stream/latency_limit.h"

namespace idlescope::scenario {

Result<experiments::CompareOptions> oneCpuComparison(const Scenario &s, std::optional<IdleStream> stream)
{
    if (s.machine)
        return Error{"", 0, "machine", "a machine runs every CPU: runMachineComparison(), not a one-CPU comparison"};
    const WorkloadSource &w = s.workload;
    if (w.kind == WorkloadKind::ClosedLoop)
        return Error{"", 0, "workload", "a closed loop makes its spans as it runs: runClosedLoop(), not a replay"};
    experiments::CompareOptions o;
    o.table = s.table;
    if (s.tickHz)
        if (Status st = o.table.setTickHz(*s.tickHz); !st)
            return st.error();
    if (Status st = applyWakeDelaysFile(o.table, s.wakeDelaysPath); !st)
        return st.error();
    if (w.kind == WorkloadKind::Csv || w.kind == WorkloadKind::Trace) {
        if (!stream) {
            Result<IdleStream> read = workloadStream(w);
            if (!read)
                return read.error();
            stream = std::move(*read);
        }
        o.fixedStream = std::move(*stream);
        applyLatencyLimit(o.fixedStream, s.latencyLimitNs);
        o.fixedStreamLabel = (w.kind == WorkloadKind::Trace ? "trace:" : "csv:") + w.path;
        o.iterations = 1; // the same spans every time
    } else {
        Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(w.text);
        if (!spec)
            return spec.error();
        o.workload = std::move(*spec);
    }
    o.latencyLimitNs = s.latencyLimitNs;
    o.governors = governorListItems(s.governors);
    o.settings = settingTexts(s.governors);
    o.seed = static_cast<std::uint64_t>(w.seed);
    o.spans = static_cast<std::size_t>(w.spans);
    return o;
}

} // namespace idlescope::scenario
