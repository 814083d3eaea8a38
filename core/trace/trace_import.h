// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_import.h
 * Entry points of the trace importers. The format is sniffed from the
 * content (after gunzip when the file is gzip-compressed), never from the
 * name: trace-cmd .dat (magic "\x17\x08\x44tracing", read with libtracecmd),
 * else text, whose header lines and event layout tell ftrace `trace` text,
 * `trace-cmd report` text and `perf script` text apart.
 *
 * Errors (idlescope::Error with file, line, field): unreadable file, unknown
 * format, binary data that is not a .dat, cancellation, and a trace with no
 * power:cpu_idle event at all. Everything else is a structured warning in
 * TraceImport::warnings, with file:line and the field.
 */
#pragma once

#include "core/common/error.h"
#include "core/trace/trace_model.h"

#include <string>
#include <string_view>

namespace idlescope::trace {

/// The format of the file at @p path, from its first bytes; Unknown for text until lines are read.
Result<TraceFormat> sniffTraceFile(const std::string &path);

/// Imports a trace file of any supported format, plain or gzip. @p progress gets
/// (bytes read, file size) — compressed bytes for gzip — and may cancel.
Result<TraceImport> importTrace(const std::string &path, const ImportConfig &config = {},
                                const ProgressFn &progress = {});

/// Imports trace text held in memory (tests, fuzzing); @p label stands for the file in warnings.
Result<TraceImport> importTraceText(std::string_view text, const std::string &label, const ImportConfig &config = {});

/// Imports a trace-cmd .dat file through libtracecmd / libtraceevent (v6 and v7 files).
/// @p progress gets (records read, -1).
Result<TraceImport> importTraceDat(const std::string &path, const ImportConfig &config = {},
                                   const ProgressFn &progress = {});

} // namespace idlescope::trace
