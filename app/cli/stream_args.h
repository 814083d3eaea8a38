// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file stream_args.h
 * One CPU's idle spans from the options of replay and diff-governors:
 * --stream FILE, --workload SPEC (one point, --spans, --seed) or csv:FILE,
 * or (where allowed) --trace TRACE [--cpu N].
 */
#pragma once

#include "app/cli/cli_args.h"

#include "core/stream/idle_span.h"

#include <string_view>

namespace idlescope::cli {

/// The stream the options name; exactly one source must be given. --trace when
/// @p allowTrace, told on stderr as @p command's.
Result<IdleStream> oneStreamFromArgs(const Args &args, bool allowTrace, std::string_view command);

} // namespace idlescope::cli
