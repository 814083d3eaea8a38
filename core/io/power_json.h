// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file power_json.h
 * The optional power fields of a table JSON file (table_json.h):
 *   per state  "power_mw"              power while in the state (mW)
 *              "entry_exit_energy_uj"  energy of one entry plus its exit (uJ)
 *   top level  "active_power_mw"       power while the CPU runs (mW)
 *              "power_source"          where the numbers come from (text)
 * Units are in the key: a key without one ("power", "energy", "active_power")
 * is refused, as are strings, negative numbers and non-finite values. Errors
 * name the file, the line of the key and the field. A file without any power
 * field, or a table of another format (cpupower text), gives an empty model
 * (no power data).
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"
#include "core/states/power_model.h"

#include <string>
#include <string_view>

namespace idlescope {

/// The power fields of @p json (already a valid table, @p table); @p label names it in errors.
Result<PowerModel> parseTablePower(std::string_view json, const IdleStateTable &table, const std::string &label);

/// The same for a file.
Result<PowerModel> readTablePower(const std::string &path, const IdleStateTable &table);

} // namespace idlescope
