// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_simulate.h
 * The "simulated" side of recorded vs simulated: each CPU's exported spans
 * (core/trace's traceWorkload(), trace_machine.h) replayed through one governor
 * variant on one table in the reference replay. Meaningful side by side with
 * the recorded statistics when the table is the recording machine's. An
 * experiment, not an importer: core/trace makes the streams, this replays them.
 */
#pragma once

#include "core/common/error.h"
#include "core/machine/machine_workload.h"
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

/// Replays every CPU stream of @p cpus that is not empty (a trace's traceWorkload()).
/// Errors: unknown variant (field "governor"). A fresh governor instance runs per CPU.
Result<SimulatedTrace> simulateTrace(const MachineWorkload &cpus, const IdleStateTable &table,
                                     const std::string &variant);

} // namespace idlescope::trace
