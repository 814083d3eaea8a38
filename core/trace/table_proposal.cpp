// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/table_proposal.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace idlescope::trace {

TableProposal tableProposal(const std::string &tracePath, const TraceImport &trace)
{
    TableProposal p;
    // cmd_record.cpp writes it next to the trace under the trace's own name.
    const std::string sidecar = tracePath + ".table.json";
    std::error_code ec;
    if (std::filesystem::is_regular_file(sidecar, ec))
        p.sidecarPath = sidecar;
    for (const CpuTrace &c : trace.cpus)
        for (const IdleEntryRec &e : c.entries)
            p.statesSeen = std::max(p.statesSeen, e.state + 1);
    return p;
}

std::vector<std::string> tablesWithStates(const std::vector<std::pair<std::string, int>> &tables, int statesSeen)
{
    std::vector<std::string> ids;
    for (const auto &[id, count] : tables)
        if (count == statesSeen)
            ids.push_back(id);
    return ids;
}

} // namespace idlescope::trace
