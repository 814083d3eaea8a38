// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/formats/csv_fields.h"

#include <charconv>

namespace idlescope::csv {

int split(std::string_view line, std::string_view *out, int max)
{
    int n = 0;
    size_t start = 0;
    for (;;) {
        const size_t comma = line.find(',', start);
        if (n == max)
            return max + 1;
        out[n++] = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        if (comma == std::string_view::npos)
            return n;
        start = comma + 1;
    }
}

std::optional<std::int64_t> parseInt(std::string_view f)
{
    while (!f.empty() && (f.front() == ' ' || f.front() == '\t'))
        f.remove_prefix(1);
    while (!f.empty() && (f.back() == ' ' || f.back() == '\t'))
        f.remove_suffix(1);
    if (f.empty())
        return std::nullopt;
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (ec != std::errc() || p != f.data() + f.size())
        return std::nullopt;
    return v;
}

} // namespace idlescope::csv
