// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file text_cells.h
 * Cells of the text tables the engine writes: a JSON string literal, and a
 * name made safe for a CSV or markdown column (no space, comma, quote or bar).
 */
#pragma once

#include <string>

namespace idlescope {

/// @p s as a JSON string literal, quotes and control characters escaped.
std::string jsonString(const std::string &s);

/// @p v printed with the printf format @p fmt (one double conversion: "%.1f", "%.6f", ...).
std::string formatNumber(const char *fmt, double v);

/// @p s with ' ', ',', '"', '|' and control characters (a newline would split a header) turned into '_'.
std::string columnSafe(const std::string &s);

} // namespace idlescope
