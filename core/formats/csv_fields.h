// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file csv_fields.h
 * Small helpers for the comma-separated formats of the conformance kit:
 * split a line into fields and parse strict decimal integers.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace idlescope::csv {

/// Splits @p line at commas into @p out (at most @p max fields); returns the field count,
/// or max + 1 when the line has more fields than that.
int split(std::string_view line, std::string_view *out, int max);

/// A whole-field decimal integer (optional leading '-', surrounding blanks allowed);
/// nullopt for anything else ("1.5", "12us", "", overflow).
std::optional<std::int64_t> parseInt(std::string_view field);

} // namespace idlescope::csv
