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
