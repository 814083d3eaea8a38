// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/text_fields.h"

#include <cstdint>

namespace idlescope::trace::text {

std::optional<std::uint64_t> parseDec(std::string_view s)
{
    std::uint64_t v = 0;
    size_t i = 0;
    // 19 digits always fit in a u64; a 20th could overflow, and no field here needs one
    // except a u64 printed in full, which the callers do not read as decimal.
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        if (i == 19)
            return std::nullopt;
        v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
    }
    if (i == 0)
        return std::nullopt;
    return v;
}

std::optional<std::int64_t> parseSignedDec(std::string_view s)
{
    const bool neg = !s.empty() && s[0] == '-';
    const auto v = parseDec(neg ? s.substr(1) : s);
    if (!v)
        return std::nullopt;
    // 19 digits can exceed INT64_MAX (9.22e18).
    if (*v > static_cast<std::uint64_t>(INT64_MAX))
        return std::nullopt;
    const auto sv = static_cast<std::int64_t>(*v);
    return neg ? -sv : sv;
}

std::optional<std::uint64_t> parseHex(std::string_view s)
{
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s.remove_prefix(2);
    std::uint64_t v = 0;
    size_t i = 0;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            break;
        if (i == 16)
            return std::nullopt;
        v = (v << 4) | static_cast<std::uint64_t>(d);
    }
    if (i == 0)
        return std::nullopt;
    return v;
}

std::optional<std::string_view> valueOf(std::string_view fields, std::string_view key)
{
    size_t pos = 0;
    while ((pos = fields.find(key, pos)) != std::string_view::npos) {
        if (pos == 0 || isBlank(fields[pos - 1])) {
            size_t end = pos + key.size();
            size_t stop = end;
            while (stop < fields.size() && !isBlank(fields[stop]))
                ++stop;
            return fields.substr(end, stop - end);
        }
        pos += key.size();
    }
    return std::nullopt;
}

std::optional<Ns> parseTimestamp(std::string_view s)
{
    // At most 10 second digits, and at most MAX_SEC (~292 years of uptime), so that
    // sec * 1e9 + fraction cannot overflow (fuzz_trace_text found "9692815584:").
    constexpr Ns MAX_SEC = (INT64_MAX - (NSEC_PER_SEC - 1)) / NSEC_PER_SEC;
    size_t i = 0;
    Ns sec = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        if (i == 10)
            return std::nullopt;
        sec = sec * 10 + (s[i] - '0');
    }
    if (i == 0 || sec > MAX_SEC)
        return std::nullopt;
    if (i == s.size())
        return sec * NSEC_PER_SEC;
    if (s[i] != '.')
        return std::nullopt;
    const std::string_view frac = s.substr(i + 1);
    if (frac.empty() || frac.size() > 9)
        return std::nullopt;
    Ns f = 0;
    for (char c : frac) {
        if (c < '0' || c > '9')
            return std::nullopt;
        f = f * 10 + (c - '0');
    }
    for (size_t k = frac.size(); k < 9; ++k)
        f *= 10;
    return sec * NSEC_PER_SEC + f;
}

bool parseCpuList(std::string_view s, CpuMask &mask)
{
    if (s.empty())
        return false;
    while (!s.empty()) {
        const size_t comma = s.find(',');
        const std::string_view item = s.substr(0, comma);
        const size_t dash = item.find('-');
        const auto lo = parseDec(item.substr(0, dash));
        const auto hi = dash == std::string_view::npos ? lo : parseDec(item.substr(dash + 1));
        if (!lo || !hi || *hi < *lo || *hi >= static_cast<std::uint64_t>(CpuMask::MAX_CPUS))
            return false;
        for (std::uint64_t c = *lo; c <= *hi; ++c)
            mask.set(static_cast<int>(c));
        if (comma == std::string_view::npos)
            break;
        s.remove_prefix(comma + 1);
    }
    return true;
}

bool parseHexMask(std::string_view s, CpuMask &mask)
{
    // Groups are most significant first; walk from the end.
    int bit = 0;
    while (!s.empty()) {
        const size_t comma = s.rfind(',');
        const std::string_view group = comma == std::string_view::npos ? s : s.substr(comma + 1);
        const auto v = parseHex(group);
        if (!v || group.size() > 8)
            return false;
        for (int b = 0; b < 32; ++b)
            if ((*v >> b) & 1)
                mask.set(bit + b);
        bit += 32;
        if (comma == std::string_view::npos)
            break;
        s = s.substr(0, comma);
    }
    return true;
}

} // namespace idlescope::trace::text
