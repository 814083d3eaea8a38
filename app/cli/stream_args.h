// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file stream_args.h
 * One CPU's idle spans from the options of replay, diff-governors and compare:
 * --stream FILE, --workload SPEC (one point, --spans, --seed) or csv:FILE, or
 * (where allowed) --trace TRACE [--cpu N]. The options become a scenario's
 * workload source (core/scenario/scenario.h) and core/scenario resolves it, as
 * it does the window's; this file only reads options and says errors in their
 * terms.
 */
#pragma once

#include "app/cli/cli_args.h"

#include "core/scenario/scenario.h"
#include "core/stream/idle_span.h"

#include <string_view>

namespace idlescope::cli {

/// The stream the options name; exactly one source must be given. --trace when
/// @p allowTrace, told on stderr as @p command's.
Result<IdleStream> oneStreamFromArgs(const Args &args, bool allowTrace, std::string_view command);

/// The trace source of --trace @p path [--cpu @p cpuArg] ("" for the CPU with the most
/// spans); an Error for a --cpu that is no CPU number.
Result<scenario::WorkloadSource> traceSource(const std::string &path, const std::string &cpuArg);

/// The stream of @p w (core/scenario), its errors in the options' terms. A trace is imported
/// with its warnings printed, and which CPU and how many rows are said on stderr as
/// "@p command: trace ...".
Result<IdleStream> streamOfSource(const scenario::WorkloadSource &w, std::string_view command);

} // namespace idlescope::cli
