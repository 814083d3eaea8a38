// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/governors/tunable_setting.h"

#include <charconv>

namespace idlescope {

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace

Result<TunableSettingText> parseTunableSetting(std::string_view text, std::string_view source)
{
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos)
        return Error{std::string(source), 0, quoteField(text), "expected NAME=VALUE or GOVERNOR:NAME=VALUE"};
    TunableSettingText s;
    std::string_view lhs = text.substr(0, eq);
    if (const size_t colon = lhs.find(':'); colon != std::string_view::npos) {
        s.governor = std::string(lhs.substr(0, colon));
        lhs = lhs.substr(colon + 1);
    }
    s.name = std::string(lhs);
    const std::string_view raw = text.substr(eq + 1);
    const std::string_view v = trimmed(raw);
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), s.value);
    if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
        return Error{std::string(source), 0, s.name, "value '" + quoteField(raw) + "' is not an integer"};
    return s;
}

Result<std::vector<TunableSettingText>> parseTunableSettings(const std::vector<std::string> &texts,
                                                             std::string_view source)
{
    std::vector<TunableSettingText> out;
    for (const std::string &t : texts) {
        Result<TunableSettingText> s = parseTunableSetting(t, source);
        if (!s)
            return s.error();
        for (const TunableSettingText &o : out)
            if (o.governor == s->governor && o.name == s->name)
                return Error{std::string(source), 0, s->governor.empty() ? s->name : s->governor + ":" + s->name,
                             "given twice (" + std::to_string(o.value) + " and " + std::to_string(s->value)
                                 + "); give it once"};
        out.push_back(std::move(*s));
    }
    return out;
}

} // namespace idlescope
