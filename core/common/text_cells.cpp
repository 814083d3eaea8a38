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

std::string printableText(const std::string &s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto u = static_cast<unsigned char>(s[i]);
        char code[12];
        if (u == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80
            && static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
            std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned char>(s[++i]));
            out += code;
        } else if ((u < 0x20 && s[i] != '\n' && s[i] != '\t') || u == 0x7f) {
            std::snprintf(code, sizeof code, "\\x%02x", u);
            out += code;
        } else {
            out += s[i];
        }
    }
    return out;
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
