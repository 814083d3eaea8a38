// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_warnings.h
 * What an imported trace's reader warned about, on stderr: every command that
 * reads a trace says it, so a malformed line is never dropped without a word.
 */
#pragma once

#include "core/trace/trace_import.h"

namespace idlescope::cli {

/// The first few warnings in full (file:line and field), then a count per kind
/// (all of them are in the TraceImport).
void printTraceWarnings(const trace::TraceImport &t);

} // namespace idlescope::cli
