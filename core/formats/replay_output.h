// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file replay_output.h
 * The conformance kit's output formats: the per-entry CSV
 * (span,entry,state,stop_tick,residency_ns,above,below,got_tick,poll_time_limit)
 * and the summary JSON, byte for byte as in shared/conformance/expected/.
 */
#pragma once

#include "core/replay/reference_replay.h"

#include <string>

namespace idlescope {

/// The entries CSV header line, without newline.
inline constexpr const char *ENTRIES_CSV_HEADER =
    "span,entry,state,stop_tick,residency_ns,above,below,got_tick,poll_time_limit";

/// Appends one entries CSV row (with newline) to @p out.
void appendEntryCsv(std::string &out, const EntryRecord &e);

/// The summary JSON text for @p variant on @p table.
std::string formatSummaryJson(const ReplaySummary &s, const IdleStateTable &table, const std::string &variant);

} // namespace idlescope
