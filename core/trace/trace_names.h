// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_names.h
 * Printable names of the trace enums (used in reports, JSON keys and warnings).
 */
#pragma once

#include "core/trace/trace_event.h"
#include "core/trace/trace_model.h"

namespace idlescope::trace {

/// "cpu_idle", "hrtimer_start", ..., "ipi_send" (all three IPI-send tracepoints).
const char *eventKindName(EventKind k);

} // namespace idlescope::trace
