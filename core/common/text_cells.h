// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file text_cells.h
 * Cells of the text tables the engine writes: a JSON string literal, and a
 * name made safe for a CSV or markdown column (no space, comma, quote or bar).
 */
#pragma once

#include <string>
#include <string_view>

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

/// How printableText() escapes: the control characters of text shown are never sent raw.
enum class PrintableMode {
    /// A governor's text for a terminal: its lines and tabs kept, backslashes as they are.
    /// A governor's text reached the terminal raw: OSC 52 set the clipboard, a \r and
    /// "\e[K" overwrote idlescope's own line.
    Terminal,
    /// A name on one line, as C writes it (a file name in a question or a message): a
    /// newline, carriage return and tab as \n, \r and \t, a backslash doubled, so that it
    /// cannot fake lines of what shows it.
    Name,
};
// In both modes every other control character is escaped: C0 and DEL as \xNN (an escape
// sequence's ESC, a carriage return), the C1 controls U+0080..U+009F as \u00NN, and the
// bidirectional controls U+061C, U+200E/F, U+202A..E, U+2066..9 (which turn a shown line around:
// "evil\u202ec.unem") and the invisible U+00AD, U+200B..D, U+2060..4, U+FEFF (which hide in it:
// "me\u200bnu") as \uNNNN.

/// @p s with its control characters escaped by @p mode's rules (one escaper for both, so
/// that what counts as a control character is decided once).
std::string printableText(std::string_view s, PrintableMode mode = PrintableMode::Terminal);

/// @p path as a message names a file: one line, its control, bidirectional and invisible
/// characters escaped as C writes them (a newline as \n, U+202E as \u202e, a backslash doubled;
/// printableText()'s Name mode). The one helper wherever the session and the command line
/// name a file: Error::toString() uses it for the file (and the field: a key of the file),
/// so does every message naming a file by itself.
std::string printableFileName(std::string_view path);

/// True when @p s holds a character printableText() escapes in both modes: a C0 control
/// (a newline, an escape), DEL, a C1 control, a bidirectional control (U+202E turns the
/// numbers shown after it around) or an invisible one (a zero-width space makes two labels
/// that differ look alike). The one test of what text shown in a view may not hold: a
/// governor's label (experiments::governorLabelProblem()), a session's description, a
/// state's name (IdleStateTable::validate()).
bool holdsControlCharacter(std::string_view s);

/// @p s with ' ', ',', '"', '|' and control characters (a newline would split a header) turned into '_'.
std::string columnSafe(const std::string &s);

} // namespace idlescope
