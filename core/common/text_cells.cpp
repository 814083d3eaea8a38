// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/text_cells.h"

#include <cstdio>

namespace idlescope {

std::string jsonString(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
            continue;
        }
        out += c;
    }
    return out + "\"";
}

std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string markdownCell(const std::string &s)
{
    std::string out;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '|' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7f) {
            char code[8];
            std::snprintf(code, sizeof code, "\\x%02x", u);
            out += code;
        } else {
            out += c;
        }
    }
    return out;
}

namespace {

/// The UTF-8 format character at @p s[i] that changes what a shown line seems to say without
/// being seen itself, as its code point, or 0; @p bytes is set to its length. Bidirectional
/// controls (E2 80 8E/8F, E2 80 AA..AE, E2 81 A6..A9, the Arabic letter mark D8 9C) turn the
/// text after them around; invisible ones (the soft hyphen C2 AD, the zero-width space,
/// non-joiner and joiner E2 80 8B..8D, the word joiner and invisible operators E2 81 A0..A4,
/// the byte order mark EF BB BF) make "me\u200bnu" look like "menu" beside it.
unsigned formatCharacterAt(std::string_view s, std::size_t i, std::size_t *bytes)
{
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    *bytes = 2;
    if (i + 1 < s.size() && at(0) == 0xd8 && at(1) == 0x9c)
        return 0x061cu;
    if (i + 1 < s.size() && at(0) == 0xc2 && at(1) == 0xad)
        return 0x00adu;
    *bytes = 3;
    if (i + 2 < s.size() && at(0) == 0xef && at(1) == 0xbb && at(2) == 0xbf)
        return 0xfeffu;
    if (i + 2 >= s.size() || at(0) != 0xe2)
        return 0;
    const unsigned b = at(1), d = at(2);
    const bool bidi =
        (b == 0x80 && (d == 0x8e || d == 0x8f || (d >= 0xaa && d <= 0xae))) || (b == 0x81 && d >= 0xa6 && d <= 0xa9);
    const bool invisible = (b == 0x80 && d >= 0x8b && d <= 0x8d) || (b == 0x81 && d >= 0xa0 && d <= 0xa4);
    return bidi || invisible ? 0x2000u + ((b & 0x3fu) << 6) + (d & 0x3fu) : 0;
}

/// The C1 control at @p s[i] (UTF-8 C2 80..C2 9F), as its code point, or 0.
unsigned c1ControlAt(std::string_view s, std::size_t i)
{
    if (i + 1 >= s.size() || static_cast<unsigned char>(s[i]) != 0xc2)
        return 0;
    const auto b = static_cast<unsigned char>(s[i + 1]);
    return b >= 0x80 && b <= 0x9f ? b : 0;
}

void appendCode(std::string &out, const char *fmt, unsigned code)
{
    char text[12];
    std::snprintf(text, sizeof text, fmt, code);
    out += text;
}

} // namespace

std::string printableText(std::string_view s, PrintableMode mode)
{
    const bool name = mode == PrintableMode::Name;
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        // Several bytes first, in both modes: what a terminal obeys (C1) and what turns a
        // shown line around or hides in it (bidi, zero-width). Each mode used to escape only
        // one of them.
        if (const unsigned code = c1ControlAt(s, i)) {
            appendCode(out, "\\u%04x", code);
            ++i;
            continue;
        }
        std::size_t bytes = 0;
        if (const unsigned code = formatCharacterAt(s, i, &bytes)) {
            appendCode(out, "\\u%04x", code);
            i += bytes - 1;
            continue;
        }
        if (name && (c == '\n' || c == '\r' || c == '\t' || c == '\\')) {
            out += '\\';
            out += c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : '\\';
        } else if ((c < 0x20 && (name || (c != '\n' && c != '\t'))) || c == 0x7f) {
            appendCode(out, "\\x%02x", c);
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string printableFileName(std::string_view path)
{
    return printableText(path, PrintableMode::Name);
}

bool holdsControlCharacter(std::string_view s)
{
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t bytes = 0;
        if (c < 0x20 || c == 0x7f || c1ControlAt(s, i) || formatCharacterAt(s, i, &bytes))
            return true;
    }
    return false;
}

std::string columnSafe(const std::string &s)
{
    std::string out;
    for (char c : s)
        out += (c == ' ' || c == ',' || c == '"' || c == '|' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '_'
                                                                                                                   : c;
    return out;
}

std::string formatNumber(const char *fmt, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

} // namespace idlescope
