// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/builtin_scenario.h"

#include "core/governors/registry.h"
#include "core/scenario/scenario_stream.h"
#include "core/targets/builtin_targets.h"
#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/runner/spec_workload.h"
#include "widgets/runner/trace_workload.h"

#include <QFileInfo>

#include <algorithm>
#include <iterator>

namespace idlescope {

using workloads::GeneratorInfo;
using workloads::ParamInfo;
using workloads::ParamUnit;

QStringList builtinTargetIds()
{
    QStringList ids;
    for (const BuiltinTargetInfo &t : builtinTargets())
        ids << QString::fromStdString(t.id);
    return ids;
}

QString builtinTargetLabel(const QString &id)
{
    for (const BuiltinTargetInfo &t : builtinTargets())
        if (QString::fromStdString(t.id) == id)
            return QString::fromStdString(t.label);
    return {};
}

Result<IdleStateTable> builtinTable(const QString &id)
{
    return builtinTarget(id.toStdString());
}

namespace {

QString heldText(const ParamInfo &p, qint64 held)
{
    switch (p.unit) {
    case ParamUnit::Us: return QStringLiteral("%1 \u00b5s").arg(static_cast<double>(held) / 1000.0);
    case ParamUnit::Percent: return QStringLiteral("%1 %").arg(static_cast<double>(held) / 1000.0);
    case ParamUnit::Hz: return QStringLiteral("%1 Hz").arg(static_cast<double>(held) / 1000.0);
    case ParamUnit::Choice:
        return held >= 0 && static_cast<std::size_t>(held) < p.choices.size() ? QString::fromUtf8(p.choices[held])
                                                                              : QString::number(held);
    case ParamUnit::Count: break;
    }
    return QString::number(held);
}

QString shortName(const ParamInfo &p)
{
    QString n = QString::fromUtf8(p.name);
    for (const char *suffix : {"_us", "_pct"})
        if (n.endsWith(QLatin1String(suffix)))
            n.chop(static_cast<int>(qstrlen(suffix)));
    return n.replace(QLatin1Char('_'), QLatin1Char(' '));
}

/// The last part of the path @p path ("juno.dat").
QString fileName(const std::string &path)
{
    return QFileInfo(QString::fromStdString(path)).fileName();
}

} // namespace

QString describeWorkload(const WorkloadSourceSpec &w)
{
    switch (w.kind) {
    case WorkloadKind::Csv: return QStringLiteral("stream %1").arg(fileName(w.path));
    case WorkloadKind::Trace:
        return w.cpu == TRACE_BEST_CPU ? QStringLiteral("trace %1, CPU with the most idle spans").arg(fileName(w.path))
                                       : QStringLiteral("trace %1, CPU %2").arg(fileName(w.path)).arg(w.cpu);
    case WorkloadKind::Spec:
    case WorkloadKind::ClosedLoop: return describeSpecWorkload(w);
    case WorkloadKind::Generator: break;
    }
    const Result<workloads::ParamValues> values = generatorValues(w.text);
    if (!values)
        return QString::fromStdString(w.text);
    QStringList parts;
    bool first = true;
    for (const ParamInfo &p : values->info->params) {
        const qint64 v = values->get(p.name);
        // Choices and the first number always; the rest when changed.
        const bool show = p.unit == ParamUnit::Choice || first || v != p.def;
        if (p.unit != ParamUnit::Choice)
            first = false;
        if (show)
            parts << (p.unit == ParamUnit::Choice ? heldText(p, v) : shortName(p) + QLatin1Char(' ') + heldText(p, v));
    }
    return QStringLiteral("%1: %2 \u00b7 %3 spans")
        .arg(QString::fromUtf8(values->info->name), parts.join(QStringLiteral(", ")))
        .arg(w.spans);
}

Result<IdleStream> buildStream(const WorkloadSourceSpec &w)
{
    switch (w.kind) {
    case WorkloadKind::Csv: return scenario::workloadStream(w);
    case WorkloadKind::Trace:
        return traceWorkloadStream(QString::fromStdString(w.path), w.cpu); // through the window's import cache
    case WorkloadKind::Generator:
    case WorkloadKind::Spec:
    case WorkloadKind::ClosedLoop: break;
    }
    return specWorkloadStream(w);
}

QColor governorColor(int n, const std::string &variant)
{
    if (variant == "oracle")
        return QColor(0x55, 0x55, 0x55);
    if (variant == "recorded") // the kernel's own choices: ink, apart from every governor's hue
        return QColor(0x1b, 0x1b, 0x1b);
    // Tableau 10 without its grey: distinct hues that survive print and colour blindness well.
    static const QColor palette[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f),
                                     QColor(0xe1, 0x57, 0x59), QColor(0xb0, 0x7a, 0xa1), QColor(0x76, 0xb7, 0xb2),
                                     QColor(0xed, 0xc9, 0x48), QColor(0x9c, 0x75, 0x5f), QColor(0xff, 0x9d, 0xa7)};
    constexpr int size = static_cast<int>(std::size(palette));
    return palette[((n % size) + size) % size];
}

WorkloadSourceSpec periodicIpiWorkload(qint64 spans, qint64 intervalUs, qint64 jitterUs)
{
    const GeneratorInfo *g = workloads::findGenerator("periodic");
    workloads::ParamValues values = g->defaults();
    values.set("kind", 1); // ipi
    values.set("interval_us", intervalUs * 1000);
    values.set("jitter_us", jitterUs * 1000);
    WorkloadSourceSpec w = generatorWorkload(*g, spans);
    w.text = workloads::generatorText(values);
    w.description = describeWorkload(w);
    return w;
}

ScenarioSpec defaultScenario()
{
    ScenarioSpec s;
    s.target.kind = TargetKind::Builtin;
    s.target.id = QString::fromUtf8(POWER10_TARGET_ID);
    if (auto t = builtinTarget(POWER10_TARGET_ID))
        s.target.table = std::move(*t);
    s.workload = periodicIpiWorkload(200000);

    std::vector<std::string> ids;
    // menu v6.14 vs menu v6.19, which merged the residency-threshold patch (v4,
    // upstream 07d815701274: no physical state overrides polling unless its target
    // residency is below RESIDENCY_THRESHOLD_NS) vs teo: menu's "too deep" on POWER10.
    for (const char *id : {"menu-6.14", "menu-6.19", "teo-6.14"})
        if (findVariant(id))
            ids.emplace_back(id);
    // While a family is not registered yet, show what is rather than nothing.
    for (const VariantInfo *v : allVariants())
        if (ids.size() < 3 && std::string_view(v->family) != "oracle"
            && std::find(ids.begin(), ids.end(), v->id) == ids.end())
            ids.emplace_back(v->id);
    if (findVariant("oracle"))
        ids.emplace_back("oracle");
    int n = 0;
    for (const std::string &id : ids) {
        GovernorSpec g;
        g.variant = id;
        g.color = governorColor(id == "oracle" ? 0 : n++, id);
        s.governors.push_back(g);
    }
    return s;
}

} // namespace idlescope
