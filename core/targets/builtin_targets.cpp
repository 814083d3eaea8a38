// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/targets/builtin_targets.h"

#include "core/io/table_json.h"
#include "core/targets/builtin_targets_data.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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
        return Error{std::string(id), 0, "--table",
                     "not a file and not a built-in target (built-in: " + ids + ")"};
    }
    return parseTableJson(json, "built-in:" + std::string(resolveTargetAlias(id)));
}

const std::vector<BuiltinTargetInfo> &builtinTargets()
{
    static const std::vector<BuiltinTargetInfo> all = [] {
        std::vector<BuiltinTargetInfo> out;
        for (int i = 0; i < detail::kEmbeddedTargetCount; ++i) {
            const detail::EmbeddedTarget &e = detail::kEmbeddedTargets[i];
            const QJsonObject o = QJsonDocument::fromJson(QByteArray(e.json)).object();
            BuiltinTargetInfo info;
            info.id = e.id;
            info.label = o.value(QLatin1String("label")).toString().toStdString();
            info.driver = o.value(QLatin1String("driver")).toString().toStdString();
            info.kind = o.value(QLatin1String("kind")).toString().toStdString();
            info.source = o.value(QLatin1String("source")).toString().toStdString();
            info.cpus = o.value(QLatin1String("cpus")).toString().toStdString();
            info.stateCount = static_cast<int>(o.value(QLatin1String("states")).toArray().size());
            info.tickHz = o.value(QLatin1String("tick_hz")).toInt(250);
            out.push_back(std::move(info));
        }
        return out;
    }();
    return all;
}

} // namespace idlescope
