// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file recorded_entries.h
 * The kernel's own choices on one CPU of a trace as a GovernorRun named
 * "recorded", so that every view of the window (lanes, plots, table,
 * inspector) shows them beside the simulated governors without a second
 * code path.
 *
 * Only the entries inside the exported rows are kept (the rows the
 * simulated governors replay), each with its stream row in `span`: the
 * recorded run and a simulated one then cover the same rows (a row is a
 * stay up to one in-idle wakeup, trace_stream.h). Per entry:
 * startNs = the cpu_idle enter on the trace clock minus @p originNs,
 * residencyNs = exit - enter (the measured residency), predictedNs = -1 (no
 * tracepoint carries the governor's prediction), sleepLengthNs as recorded
 * (-1 unknown), and above/below from cpu_idle_miss when the trace has it,
 * otherwise with cpuidle_enter_state()'s rule against @p table, as
 * computeStats() counts them (trace_stats.h). Entries whose state the table
 * lacks are kept with state clamped to the deepest one the table has.
 */
#pragma once

#include "core/replay/governor_run.h"
#include "core/states/idle_state_table.h"
#include "core/trace/trace_model.h"
#include "core/trace/trace_stream.h"

#include <cstdint>
#include <vector>

namespace idlescope::trace {

using idlescope::RECORDED_VARIANT; // governor_run.h: core's metrics tell a recorded run by it

/// @p rows: the trace's side of each stream row (StreamExport::rows).
GovernorRun recordedEntries(const CpuTrace &cpu, const StreamRows &rows, const IdleStateTable &table,
                            bool hasMissEvents, Ns originNs);

} // namespace idlescope::trace
