// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file stream_csv.h
 * The conformance stream format: a header naming the columns gap_ns,
 * timer_ns, wake_ns, latency_req_ns, util, need_resched (any order; util
 * optional, 0 when absent; need_resched optional, 1 when absent), then one
 * integer row per idle span (or, with need_resched 0, per in-idle wakeup).
 * Plain or gzip.
 *
 * Errors name file, line and field: a missing or unknown column, a field
 * that is not an integer count of ns (e.g. "1.5" or "3us"), a negative gap or
 * wake, a column named twice, wake_ns > timer_ns, latency_req_ns < -1, util
 * outside 0..1024, need_resched other than 0 or 1, an empty stream, a gap or
 * wake above MAX_SPAN_NS, a total above MAX_STREAM_NS.
 */
#pragma once

#include "core/common/error.h"
#include "core/stream/idle_span.h"

#include <string>

namespace idlescope {

// MAX_SPAN_NS and MAX_STREAM_NS: core/stream/idle_span.h.

/// Reads a stream file.
Result<IdleStream> readStreamCsv(const std::string &path);

/// Parses stream text already in memory; @p label names it in errors.
Result<IdleStream> parseStreamCsv(std::string_view text, const std::string &label);

/// The CSV text of a stream (header + rows), as the conformance kit writes it.
std::string formatStreamCsv(const IdleStream &stream);

/// Checks one span; @p line is used in the error.
Status validateSpan(const IdleSpan &s, const std::string &label, std::int64_t line);

} // namespace idlescope
