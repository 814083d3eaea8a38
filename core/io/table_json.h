// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file table_json.h
 * Idle-state tables as JSON, in the conformance kit's shape:
 * {"id", "tick_hz", "source", "states": [{"name", "desc", "exit_latency_ns",
 * "target_residency_ns", "polling", "disabled"}]}, plus idlescope's optional
 * "wake_delay_note" per table and "wake_delay_ns", "entry_latency_ns" per state
 * (wake_delay.h; never read by the governors). Extra keys are ignored.
 * Errors name the file, the line of the JSON syntax error, or the state and key
 * (also a key of the wrong JSON type: a name that is not a string, a polling
 * flag that is not true/false). A leading UTF-8 byte-order mark is skipped.
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"

#include <cstddef>
#include <string>

namespace idlescope {

/// Largest table file read (a table is a few KiB).
inline constexpr std::size_t MAX_TABLE_FILE_BYTES = 16u << 20;

/// Reads and validates a table file (a regular file of at most MAX_TABLE_FILE_BYTES).
Result<IdleStateTable> readTableJson(const std::string &path);

/// Parses and validates JSON text; @p label names it in errors.
Result<IdleStateTable> parseTableJson(std::string_view json, const std::string &label);

/// JSON text of a table (indented, stable key order).
std::string formatTableJson(const IdleStateTable &table);

} // namespace idlescope
