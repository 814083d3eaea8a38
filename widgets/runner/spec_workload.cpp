// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/spec_workload.h"

#include "core/experiments/closed_loop.h"
#include "core/scenario/scenario_stream.h"
#include "core/workloads/workload_spec.h"
#include "widgets/runner/workload_seeding.h"

#include <QStringList>

#include <utility>

namespace idlescope {

namespace {

/// core/scenario's error in the window's terms: the text's field is "spec" there.
Error inWindowTerms(Error e)
{
    if (e.field == "workload")
        e.field = "spec";
    return e;
}

/// The parsed spec of @p text, or why it cannot be simulated (one point only: core/scenario).
Result<workloads::WorkloadSpec> parseOnePoint(const QString &text)
{
    Result<workloads::WorkloadSpec> spec = scenario::parseOnePoint(text.toStdString());
    if (!spec)
        return inWindowTerms(spec.error());
    return spec;
}

} // namespace

QString closedLoopRefusal(const QString &text)
{
    const Result<ClosedLoopSpec> spec = parseClosedLoopSpec(text.toStdString());
    return spec ? QString() : QString::fromStdString(spec.error().field + ": " + spec.error().message);
}

QString defaultSpecText()
{
    return QStringLiteral("periodic:kind=ipi,interval_us=100 + poisson:mean_us=500");
}

WorkloadSourceSpec defaultSpecWorkload()
{
    WorkloadSourceSpec w;
    w.kind = WorkloadKind::Spec;
    w.text = defaultSpecText();
    return w;
}

QString specWorkloadRefusal(const QString &text, bool closedLoop)
{
    if (closedLoop)
        return closedLoopRefusal(text);
    const Result<workloads::WorkloadSpec> spec = parseOnePoint(text);
    return spec ? QString() : QString::fromStdString(spec.error().message);
}

qint64 maxWorkloadSpans(WorkloadKind)
{
    return scenario::MAX_SPANS;
}

scenario::WorkloadSource coreWorkload(const WorkloadSourceSpec &w)
{
    scenario::WorkloadSource out;
    out.kind = w.kind;
    out.text = w.text.toStdString();
    out.path = w.path.toStdString();
    out.spans = w.spans;
    out.seed = w.seed;
    out.cpu = w.cpu;
    out.fileStamp = w.fileStamp.toStdString();
    out.legacySeeding = usesLegacySeeding(w);
    return out;
}

Result<IdleStream> specWorkloadStream(const WorkloadSourceSpec &w)
{
    // As idlescope-cli replay --workload (app/cli/stream_args.cpp): one function of core/scenario.
    Result<IdleStream> s = scenario::workloadStream(coreWorkload(w));
    if (!s)
        return inWindowTerms(s.error());
    return s;
}

QString describeSpecWorkload(const WorkloadSourceSpec &w)
{
    if (w.kind == WorkloadKind::ClosedLoop)
        return QStringLiteral("closed loop: %1").arg(w.text);
    return QStringLiteral("spec: %1 \u00b7 %2 spans").arg(w.text).arg(w.spans);
}

const workloads::GeneratorInfo *workloadGenerator(const WorkloadSourceSpec &w)
{
    if (w.kind != WorkloadKind::Generator)
        return nullptr;
    return workloads::findGenerator(w.text.section(QLatin1Char(':'), 0, 0).trimmed().toStdString());
}

Result<workloads::ParamValues> generatorValues(const QString &text)
{
    Result<workloads::WorkloadSpec> spec = parseOnePoint(text);
    if (!spec)
        return spec.error();
    if (spec->root.kind != workloads::WorkloadNode::Kind::Generator)
        return Error{"", 0, "spec", "'" + text.toStdString() + "' is not one generator"};
    return spec->root.params;
}

QString generatorText(const workloads::ParamValues &values, const QString &param, const QString &paramText)
{
    QStringList kv;
    for (const workloads::ParamInfo &p : values.info->params) {
        const QString name = QString::fromUtf8(p.name);
        kv << QStringLiteral("%1=%2").arg(name, name == param ? paramText
                                                              : QString::fromStdString(
                                                                  workloads::formatParamValue(p, values.get(p.name))));
    }
    const QString name = QString::fromUtf8(values.info->name);
    return kv.isEmpty() ? name : name + QLatin1Char(':') + kv.join(QLatin1Char(','));
}

WorkloadSourceSpec generatorWorkload(const workloads::GeneratorInfo &g, qint64 spans, qint64 seed)
{
    WorkloadSourceSpec w;
    w.kind = WorkloadKind::Generator;
    w.text = generatorText(g.defaults());
    w.spans = spans;
    w.seed = seed;
    return w;
}

} // namespace idlescope
