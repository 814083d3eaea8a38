// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/governors/registry.h"

#include <string_view>

namespace idlescope {

namespace {

struct Family {
    std::span<const VariantInfo> (*variants)();
    std::unique_ptr<Governor> (*make)(const VariantInfo &);
};

constexpr Family kFamilies[] = {
    {menuVariants, makeMenuGovernor},         {teoLegacyVariants, makeTeoLegacyGovernor},
    {teoVariants, makeTeoGovernor},           {ladderVariants, makeLadderGovernor},
    {haltpollVariants, makeHaltpollGovernor}, {oracleVariants, makeOracleGovernor},
};

} // namespace

const std::vector<const VariantInfo *> &allVariants()
{
    static const std::vector<const VariantInfo *> all = [] {
        std::vector<const VariantInfo *> out;
        for (const Family &f : kFamilies)
            for (const VariantInfo &v : f.variants())
                out.push_back(&v);
        return out;
    }();
    return all;
}

const VariantInfo *findVariant(std::string_view id)
{
    for (const VariantInfo *v : allVariants())
        if (id == v->id)
            return v;
    return nullptr;
}

std::unique_ptr<Governor> createBuiltinGovernor(std::string_view id)
{
    for (const Family &f : kFamilies)
        for (const VariantInfo &v : f.variants())
            if (id == v.id)
                return f.make(v);
    return nullptr;
}

} // namespace idlescope
