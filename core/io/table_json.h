// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file table_json.h
 * Idle-state tables as JSON, in the conformance kit's shape:
 * {"id", "tick_hz", "source", "states": [{"name", "desc", "exit_latency_ns",
 * "target_residency_ns", "polling", "disabled"}]}. Extra keys are ignored.
 * Errors name the file, the line of the JSON syntax error, or the state and key.
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"

#include <string>

namespace idlescope {

/// Reads and validates a table file.
Result<IdleStateTable> readTableJson(const std::string &path);

/// Parses and validates JSON text; @p label names it in errors.
Result<IdleStateTable> parseTableJson(std::string_view json, const std::string &label);

/// JSON text of a table (indented, stable key order).
std::string formatTableJson(const IdleStateTable &table);

} // namespace idlescope
