// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file table_header_json.h
 * The descriptive keys of a state-table JSON file that the engine does not
 * replay but the built-in target list shows ("label", "driver", "kind",
 * "source", "cpus", "tick_hz" and how many states). Read here, in core/io,
 * so that core/targets needs no Qt.
 */
#pragma once

#include "core/common/error.h"

#include <string>
#include <string_view>

namespace idlescope {

struct TableJsonHeader {
    std::string label;
    std::string driver;
    std::string kind;
    std::string source;
    std::string cpus;
    int stateCount = 0;
    int tickHz = 250; ///< the kernel default when the file gives none
};

/// The header keys of the table JSON @p json (missing text keys are empty);
/// @p label names it in errors. Error for text that is not a JSON object.
Result<TableJsonHeader> parseTableHeaderJson(std::string_view json, const std::string &label);

} // namespace idlescope
