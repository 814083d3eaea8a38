// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/trace_simulate.h"

#include "core/replay/governor_factory.h"
#include "core/source_governor/source_governor.h"

#include <algorithm>

namespace idlescope::scenario {

Result<trace::SimulatedTrace> simulateTrace(const MachineWorkload &cpus, const IdleStateTable &table,
                                            const std::string &variant)
{
    trace::SimulatedTrace out;
    out.governor = variant;
    out.tableId = table.id;
    out.total.stateCount = table.count();
    for (const CpuStream &c : cpus.cpus) {
        if (c.stream.empty())
            continue;
        std::unique_ptr<Governor> gov = createGovernor(variant);
        if (!gov)
            return Error{"", 0, "governor", "unknown variant '" + variant + "'"};
        if (Status st = prepareGovernor(*gov, table, c.stream); !st)
            return st.error();
        trace::SimulatedCpu s;
        s.cpu = c.cpu;
        s.summary = replayStream(table, c.stream, *gov);
        if (Status st = finishGovernor(*gov, &s.summary); !st)
            return st.error();
        out.total.spans += s.summary.spans;
        out.total.entries += s.summary.entries;
        out.total.endNowNs = std::max(out.total.endNowNs, s.summary.endNowNs);
        for (int i = 0; i < table.count(); ++i)
            out.total.states[static_cast<size_t>(i)] += s.summary.states[static_cast<size_t>(i)];
        out.cpus.push_back(s);
    }
    return out;
}

} // namespace idlescope::scenario
