// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file memory_budget.h
 * Whether the runs of a snapshot fit in this machine's memory, asked before
 * they are made: on Linux an allocation that does not fit succeeds and the
 * kernel's OOM killer ends the window later (a 50-million-span stream under
 * four governors grew to 12.7 GB), so std::bad_alloc never comes to say it.
 */
#pragma once

#include <QString>

#include <cstdint>

namespace idlescope {

/// Bytes one idle entry of one run holds in the window: its columns (start, residency,
/// prediction, sleep length, span, state, flags, a wakeup's time into a tick-ended exit: 43
/// bytes) and its share of the summaries built with it (measured: 12.7 GB for 4 runs of 50 M
/// spans with the stream, at 39 bytes of columns; the last column's 4 bytes added to that).
inline constexpr std::int64_t WINDOW_BYTES_PER_ENTRY = 60;

/// MemAvailable of /proc/meminfo in bytes, or -1 when it cannot be read.
std::int64_t availableMemoryBytes();

/**
 * "" when @p runs runs of @p spans spans fit in 80 % of @p availableBytes (or that
 * is unknown: -1); else the message the window shows instead of making them: what
 * they would take, what the machine has, and what to change.
 */
QString runsMemoryRefusal(std::int64_t spans, std::int64_t runs, std::int64_t availableBytes);

} // namespace idlescope
