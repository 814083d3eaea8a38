// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/scenario_spec.h"

#include "core/io/scenario_json.h"
#include "widgets/runner/workload_seeding.h"

#include <QStringList>

namespace idlescope {

namespace {

/// "a, b or c": the names an unknown kind could have been.
template <typename Kind, std::size_t N>
std::string namesOf(const Kind (&kinds)[N], QString (*name)(Kind))
{
    QStringList names;
    for (const Kind k : kinds)
        names << name(k);
    return names.join(QStringLiteral(", ")).toStdString();
}

} // namespace

QString targetKindName(TargetKind kind)
{
    switch (kind) {
    case TargetKind::Builtin: return QStringLiteral("builtin");
    case TargetKind::File: return QStringLiteral("file");
    case TargetKind::Machine: return QStringLiteral("machine");
    }
    return {};
}

Result<TargetKind> targetKindFromName(const QString &name, const QString &file, const QString &field)
{
    for (const TargetKind k : TARGET_KINDS)
        if (targetKindName(k) == name)
            return k;
    return Error{file.toStdString(), 0, field.toStdString(),
                 "unknown target kind '" + name.toStdString() + "' (one of: " + namesOf(TARGET_KINDS, targetKindName)
                     + ")"};
}

QString workloadKindName(const WorkloadSourceSpec &w)
{
    return QString::fromStdString(idlescope::workloadKindName(static_cast<const scenario::WorkloadSource &>(w)));
}

Result<WorkloadKind> workloadKindFromName(const QString &name, const QString &loop, const QString &file,
                                          const QString &field)
{
    return idlescope::workloadKindFromName(name.toStdString(), loop.toStdString(), file.toStdString(),
                                           field.toStdString());
}

scenario::Scenario scenarioOf(const ScenarioSpec &spec)
{
    scenario::Scenario s;
    s.table = spec.target.table;
    s.workload = spec.workload; // core's part of it
    s.workload.legacySeeding = usesLegacySeeding(spec.workload);
    for (const GovernorSpec &g : spec.governors)
        s.governors.push_back(g); // core's part of each column
    s.latencyLimitNs = spec.workload.kind == WorkloadKind::ClosedLoop ? -1 : spec.latencyLimitNs;
    s.wakeDelaysPath = spec.wakeDelaysPath.toStdString();
    return s;
}

} // namespace idlescope
