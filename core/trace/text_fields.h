// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file text_fields.h
 * Scanning helpers for the "key=value" and plugin layouts of trace text:
 * strict unsigned decimal and hex numbers (overflow is a failure, not a
 * wrap), "key=" lookup at a word boundary, CPU lists ("0-3,6") and hex
 * bitmasks ("00000000,00000003") as printed by the kernel's %*pbl / %*pb.
 */
#pragma once

#include "core/trace/trace_event.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace idlescope::trace::text {

/// Leading decimal digits of @p s (at least one, at most 19); nullopt otherwise.
std::optional<std::uint64_t> parseDec(std::string_view s);
/// Like parseDec with an optional leading '-'.
std::optional<std::int64_t> parseSignedDec(std::string_view s);
/// Leading hex digits, with or without "0x"; nullopt when none or more than 16.
std::optional<std::uint64_t> parseHex(std::string_view s);

/// The value after "key=" (key given with its '='), up to the next blank; nullopt when absent.
/// The key must start the text or follow a blank.
std::optional<std::string_view> valueOf(std::string_view fields, std::string_view key);

/// "SECONDS.FRACTION" (1..9 fraction digits, or none) to ns; nullopt when not a timestamp.
std::optional<Ns> parseTimestamp(std::string_view s);

/// "0-3,6" into @p mask; false on a malformed list.
bool parseCpuList(std::string_view s, CpuMask &mask);
/// "00000000,00000003" (32-bit hex groups, most significant first) into @p mask.
bool parseHexMask(std::string_view s, CpuMask &mask);

/// Blank = space or tab.
inline bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}
inline std::string_view trimLeft(std::string_view s)
{
    size_t i = 0;
    while (i < s.size() && isBlank(s[i]))
        ++i;
    return s.substr(i);
}

} // namespace idlescope::trace::text
