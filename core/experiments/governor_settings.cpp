// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/governor_settings.h"

#include "core/governors/tunable_setting.h"
#include "core/replay/governor_factory.h"
#include "core/source_governor/source_governor.h"

#include <algorithm>
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
            return Error{"governors", 0, id,
                         isSourceGovernorId(id) ? sourceGovernorIdProblem(id) : "unknown governor variant"};
    }
    std::vector<std::vector<TunableSetting>> out(governors.size());
    Result<std::vector<TunableSettingText>> parsed = parseTunableSettings(items, "set");
    if (!parsed)
        return parsed.error();
    for (const TunableSettingText &item : *parsed) {
        const std::string &name = item.name;
        const std::string &only = item.governor;
        const std::int64_t value = item.value;
        bool used = false;
        for (size_t g = 0; g < governors.size(); ++g)
            if (only.empty() ? hasTunable(*govs[g], name) : only == names[g]) {
                out[g].emplace_back(name, value);
                used = true;
            }
        if (!used)
            return Error{"set", 0, name,
                         only.empty() ? "no listed governor has this tunable"
                                      : "governor " + only + " is not one of the governors"};
    }
    return out;
}

} // namespace idlescope
