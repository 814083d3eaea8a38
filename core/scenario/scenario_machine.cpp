// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/scenario_machine.h"

#include "core/scenario/scenario_stream.h"
#include "core/stream/latency_limit.h"
#include "core/trace/trace_machine.h"
#include "core/trace/trace_model.h"

#include <algorithm>

namespace idlescope::scenario {

Result<MachineWorkload> traceMachineWorkload(const Scenario &s, const trace::TraceImport &t)
{
    const std::string &path = s.workload.path;
    if (!s.machine)
        return Error{path, 0, "machine", "a trace on every CPU needs a machine"};
    const Machine &m = *s.machine;
    for (const trace::CpuTrace &c : t.cpus)
        if (c.events > 0 && c.cpu >= m.cpuCount())
            return Error{path, 0, "machine",
                         "the trace has events on CPU " + std::to_string(c.cpu) + ", machine " + m.id + " has CPUs 0.."
                             + std::to_string(m.cpuCount() - 1)};
    MachineWorkload w = trace::traceWorkload(t, "trace:" + path);
    w.cpus.erase(std::remove_if(w.cpus.begin(), w.cpus.end(),
                                [&](const CpuStream &c) { return c.cpu >= m.cpuCount(); }),
                 w.cpus.end());
    // The limit on every CPU, as the one-CPU replay applies it: a front end that forgot it
    // would show another machine than the one-CPU views (the CPUs dock once did).
    for (CpuStream &c : w.cpus)
        applyLatencyLimit(c.stream, s.latencyLimitNs);
    return w;
}

Result<MachineCompareOptions> traceMachineComparison(const Scenario &s, const trace::TraceImport &t,
                                                     const std::optional<std::string> &recordedGovernor,
                                                     bool keepRecordedIntervals)
{
    Result<MachineWorkload> w = traceMachineWorkload(s, t);
    if (!w)
        return w.error();
    MachineCompareOptions o;
    o.machine = *s.machine;
    o.workload = std::move(*w);
    for (const GovernorInstance &g : s.governors) {
        o.governors.push_back(g.variant);
        o.tunables.push_back(g.settings);
    }
    if (recordedGovernor)
        o.recorded = trace::recordedRun(t, o.machine, *recordedGovernor, keepRecordedIntervals);
    return o;
}

} // namespace idlescope::scenario
