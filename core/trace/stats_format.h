// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file stats_format.h
 * Text renderings of the recorded statistics (and, when given, the
 * simulated ones) for `idlescope-cli trace-stats`: Markdown for people, a
 * long-format CSV (cpu,metric,key,value) and JSON for programs. Times in the
 * CSV/JSON are integer ns; the Markdown shows ms and percentages.
 */
#pragma once

#include "core/trace/simulated_trace.h"
#include "core/trace/trace_model.h"
#include "core/trace/trace_stats.h"

#include <string>

namespace idlescope::trace {

struct StatsReport {
    const TraceImport &trace;
    const TraceStats &stats;
    const SimulatedTrace *simulated = nullptr; ///< may be null
    const IdleStateTable *table = nullptr;     ///< may be null: names the states
    /// A second trace's statistics to compare with (trace-stats A --baseline B); may be null.
    const TraceImport *baselineTrace = nullptr;
    const TraceStats *baseline = nullptr;
};

std::string formatStatsMarkdown(const StatsReport &r);
std::string formatStatsCsv(const StatsReport &r);
std::string formatStatsJson(const StatsReport &r);

} // namespace idlescope::trace
