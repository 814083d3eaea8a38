// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file simulated_trace.h
 * The "simulated" side of recorded vs simulated, as `trace-stats` shows it:
 * each CPU's exported spans replayed through one governor variant on one
 * table, summed per CPU and over the CPUs. Only the result lives here, beside
 * the statistics it is shown with (stats_format.h); the replay that fills it
 * is core/scenario/trace_simulate.h, above the importers, so that core/trace
 * stays a maker of streams that knows no governor.
 */
#pragma once

#include "core/replay/reference_replay.h"

#include <string>
#include <vector>

namespace idlescope::trace {

struct SimulatedCpu {
    int cpu = 0;
    ReplaySummary summary;
};

struct SimulatedTrace {
    std::string governor;
    std::string tableId;
    std::vector<SimulatedCpu> cpus; ///< CPUs with at least one exported span
    ReplaySummary total;            ///< sums over cpus (endNowNs: the largest)
};

} // namespace idlescope::trace
