// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_trace.h
 * A kernel trace as a scenario's workload on one CPU: which CPU is replayed
 * when none is named ("the CPU with the most stream rows, lowest on a tie",
 * said here once for the CLI and the window), and that CPU's replay stream.
 */
#pragma once

#include "core/common/error.h"
#include "core/trace/trace_stream.h"

#include <cstdint>
#include <span>
#include <string>

namespace idlescope::trace {
struct TraceImport;
} // namespace idlescope::trace

namespace idlescope::scenario {

/// A CPU of a trace and the rows its replay stream has (one per idle span and in-idle wakeup).
struct CpuRows {
    int cpu = 0;
    std::int64_t rows = 0;
};

/// The CPU with the most rows, the lowest-numbered of those on a tie (in the order given,
/// which is the CPU order); -1 when no CPU has a row.
int cpuWithMostRows(std::span<const CpuRows> cpus);

/// One CPU of a trace, exported as its replay stream.
struct TraceCpuExport {
    int cpu = 0;
    trace::StreamExport exported;
};

/**
 * The replay stream of CPU @p cpu of @p t (TRACE_BEST_CPU: cpuWithMostRows() of every
 * CPU). Errors name @p path and field "cpu": a CPU the trace does not have, one with no
 * complete idle span (with its span account), or no CPU with one.
 */
Result<TraceCpuExport> exportTraceCpu(const trace::TraceImport &t, int cpu, const std::string &path);

} // namespace idlescope::scenario
