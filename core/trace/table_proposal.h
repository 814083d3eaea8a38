// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file table_proposal.h
 * Which idle-state table a trace was recorded with, as far as the trace and
 * its directory tell: the table `idlescope-cli record` saves beside the trace
 * (TRACE.table.json, read from the machine's sysfs when it recorded), and the
 * number of states its power:cpu_idle events enter. The window proposes a
 * table from this when a trace is opened, instead of replaying it silently
 * with whatever table was chosen before.
 */
#pragma once

#include "core/trace/trace_model.h"

#include <string>
#include <utility>
#include <vector>

namespace idlescope::trace {

struct TableProposal {
    std::string sidecarPath; ///< "<trace>.table.json" when that file exists, else ""
    int statesSeen = 0;      ///< deepest cpu_idle state entered + 1 (0: no entry)
};

/// The proposal for the trace read from @p tracePath.
TableProposal tableProposal(const std::string &tracePath, const TraceImport &trace);

/// The ids of @p tables (id, state count) with exactly @p statesSeen states, in the order given.
std::vector<std::string> tablesWithStates(const std::vector<std::pair<std::string, int>> &tables, int statesSeen);

} // namespace idlescope::trace
