// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/targets/builtin_targets.h"

#include "core/io/table_header_json.h"
#include "core/io/table_json.h"
#include "core/targets/builtin_targets_data.h"

namespace idlescope {

namespace {

struct Alias {
    std::string_view alias;
    std::string_view id;
};

// Names users already know from the conformance kit and the issue text.
constexpr Alias kAliases[] = {
    {"pseries-p10", "pseries-power10-lpar"},
    {"power10-lpar", "pseries-power10-lpar"},
    {"acpi-idle", "acpi-generic"},
};

const detail::EmbeddedTarget *findEmbedded(std::string_view id)
{
    for (int i = 0; i < detail::kEmbeddedTargetCount; ++i)
        if (id == detail::kEmbeddedTargets[i].id)
            return &detail::kEmbeddedTargets[i];
    return nullptr;
}

} // namespace

std::string_view resolveTargetAlias(std::string_view id)
{
    for (const Alias &a : kAliases)
        if (a.alias == id)
            return a.id;
    return id;
}

std::string_view builtinTargetJson(std::string_view id)
{
    const detail::EmbeddedTarget *t = findEmbedded(resolveTargetAlias(id));
    return t ? std::string_view(t->json) : std::string_view();
}

Result<IdleStateTable> builtinTarget(std::string_view id)
{
    const std::string_view json = builtinTargetJson(id);
    if (json.empty()) {
        std::string ids;
        for (const BuiltinTargetInfo &t : builtinTargets())
            ids += (ids.empty() ? "" : ", ") + t.id;
        return Error{std::string(id), 0, "table", "not a file and not a built-in target (built-in: " + ids + ")"};
    }
    return parseTableJson(json, "built-in:" + std::string(resolveTargetAlias(id)));
}

const std::vector<BuiltinTargetInfo> &builtinTargets()
{
    static const std::vector<BuiltinTargetInfo> all = [] {
        std::vector<BuiltinTargetInfo> out;
        for (int i = 0; i < detail::kEmbeddedTargetCount; ++i) {
            const detail::EmbeddedTarget &e = detail::kEmbeddedTargets[i];
            // tst_targets checks every embedded header against its table: one that did not
            // parse would be a defect of the build, shown as an empty label, not a crash.
            const Result<TableJsonHeader> h = parseTableHeaderJson(e.json, std::string("built-in:") + e.id);
            BuiltinTargetInfo info;
            info.id = e.id;
            if (h.ok()) {
                info.label = h->label;
                info.driver = h->driver;
                info.kind = h->kind;
                info.source = h->source;
                info.cpus = h->cpus;
                info.stateCount = h->stateCount;
                info.tickHz = h->tickHz;
            }
            out.push_back(std::move(info));
        }
        return out;
    }();
    return all;
}

} // namespace idlescope
