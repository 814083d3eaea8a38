// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_simulate.h
 * The "simulated" side of recorded vs simulated: each CPU's exported spans
 * (core/trace's traceWorkload(), trace_machine.h) replayed through one governor
 * variant on one table in the reference replay. Meaningful side by side with
 * the recorded statistics when the table is the recording machine's. Not an
 * importer: core/trace makes the streams and holds the result
 * (simulated_trace.h, which its formats show); this replays them, above both.
 */
#pragma once

#include "core/common/error.h"
#include "core/machine/machine_workload.h"
#include "core/replay/reference_replay.h"
#include "core/trace/simulated_trace.h"

#include <string>
#include <vector>

namespace idlescope::scenario {

/// Replays every CPU stream of @p cpus that is not empty (a trace's traceWorkload()).
/// Errors: unknown variant (field "governor"). A fresh governor instance runs per CPU.
Result<trace::SimulatedTrace> simulateTrace(const MachineWorkload &cpus, const IdleStateTable &table,
                                            const std::string &variant);

} // namespace idlescope::scenario
