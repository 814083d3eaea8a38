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

/// @p s as one CSV field (RFC 4180): in double quotes, its own doubled, when it holds a
/// comma, a quote or a line break; as it is otherwise. A src: governor's file name may hold any.
std::string csvField(const std::string &s);

/// @p s as one markdown table cell: '|' as "\|", a backslash doubled, control characters as
/// \n, \r, \t or \xNN (a '|' or a newline in a file name split the row's columns).
std::string markdownCell(const std::string &s);

/// @p s for a terminal: its lines and tabs kept, every other control character (an escape
/// sequence's ESC, a carriage return, DEL, the C1 controls U+0080..U+009F) shown as \xNN or
/// \u00NN. A governor's text reached the terminal raw: OSC 52 set the clipboard, a \r and
/// "\e[K" overwrote idlescope's own line.
std::string printableText(const std::string &s);

/// @p s with ' ', ',', '"', '|' and control characters (a newline would split a header) turned into '_'.
std::string columnSafe(const std::string &s);

} // namespace idlescope
