// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/governor_settings.h"

#include "core/governors/registry.h"

#include <algorithm>
#include <charconv>
#include <memory>

namespace idlescope {

namespace {

bool hasTunable(const Governor &g, const std::string &name)
{
    const auto ts = g.tunables();
    return std::any_of(ts.begin(), ts.end(), [&](const TunableInfo &t) { return name == t.name; });
}

} // namespace

Result<std::vector<std::vector<TunableSetting>>> settingsPerGovernor(const std::vector<std::string> &governors,
                                                                     const std::vector<std::string> &items,
                                                                     const std::vector<std::string> &labels)
{
    const std::vector<std::string> &names = labels.empty() ? governors : labels;
    std::vector<std::unique_ptr<Governor>> govs;
    for (const std::string &id : governors) {
        govs.push_back(createGovernor(id));
        if (!govs.back())
            return Error{"--governors", 0, id, "unknown governor variant (idlescope-cli governors lists them)"};
    }
    std::vector<std::vector<TunableSetting>> out(governors.size());
    for (const std::string &item : items) {
        const size_t eq = item.find('=');
        if (eq == std::string::npos)
            return Error{"--set", 0, item, "expected NAME=VALUE or GOVERNOR:NAME=VALUE"};
        std::string name = item.substr(0, eq);
        std::string only;
        if (const size_t colon = name.find(':'); colon != std::string::npos) {
            only = name.substr(0, colon);
            name = name.substr(colon + 1);
        }
        const std::string text = item.substr(eq + 1);
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
            return Error{"--set", 0, name, "value '" + text + "' is not an integer"};
        bool used = false;
        for (size_t g = 0; g < governors.size(); ++g)
            if (only.empty() ? hasTunable(*govs[g], name) : only == names[g]) {
                out[g].emplace_back(name, value);
                used = true;
            }
        if (!used)
            return Error{"--set", 0, name,
                         only.empty() ? "no listed governor has this tunable (idlescope-cli governors --tunables)"
                                      : "governor " + only + " is not in --governors"};
    }
    return out;
}

} // namespace idlescope
