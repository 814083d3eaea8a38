// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_names.h
 * Printable names of the trace enums (used in reports, JSON keys and warnings).
 */
#pragma once

#include "core/trace/trace_event.h"
#include "core/trace/trace_model.h"

#include <string>

namespace idlescope::trace {

/// "cpu_idle", "hrtimer_start", ..., "ipi_send" (all three IPI-send tracepoints).
const char *eventKindName(EventKind k);

/// "6 CPUs in the trace, 5 with events, 5 with idle entries": the CPU counts of an import,
/// each labelled (the first is TraceImport::cpus.size(), the header's count or the highest CPU + 1).
std::string cpuCountText(const TraceImport &t);

} // namespace idlescope::trace
