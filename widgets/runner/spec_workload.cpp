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
Result<workloads::WorkloadSpec> parseOnePoint(const std::string &text)
{
    Result<workloads::WorkloadSpec> spec = scenario::parseOnePoint(text);
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
    w.text = defaultSpecText().toStdString();
    return w;
}

QString specWorkloadRefusal(const QString &text, bool closedLoop)
{
    if (closedLoop)
        return closedLoopRefusal(text);
    const Result<workloads::WorkloadSpec> spec = parseOnePoint(text.toStdString());
    return spec ? QString() : QString::fromStdString(spec.error().message);
}

qint64 maxWorkloadSpans(WorkloadKind)
{
    return scenario::MAX_SPANS;
}

Result<IdleStream> specWorkloadStream(const WorkloadSourceSpec &w)
{
    // As idlescope-cli replay --workload (app/cli/stream_args.cpp): one function of core/scenario.
    Result<IdleStream> s = scenario::workloadStream(w);
    if (!s)
        return inWindowTerms(s.error());
    return s;
}

QString describeSpecWorkload(const WorkloadSourceSpec &w)
{
    if (w.kind == WorkloadKind::ClosedLoop)
        return QStringLiteral("closed loop: %1").arg(QString::fromStdString(w.text));
    return QStringLiteral("spec: %1 \u00b7 %2 spans").arg(QString::fromStdString(w.text)).arg(w.spans);
}

const workloads::GeneratorInfo *workloadGenerator(const WorkloadSourceSpec &w)
{
    if (w.kind != WorkloadKind::Generator)
        return nullptr;
    return workloads::findGenerator(workloadKindName(w).toStdString()); // its text's name
}

Result<workloads::ParamValues> generatorValues(const std::string &text)
{
    Result<workloads::WorkloadSpec> spec = parseOnePoint(text);
    if (!spec)
        return spec.error();
    if (spec->root.kind != workloads::WorkloadNode::Kind::Generator)
        return Error{"", 0, "spec", "'" + text + "' is not one generator"};
    return spec->root.params;
}

WorkloadSourceSpec generatorWorkload(const workloads::GeneratorInfo &g, qint64 spans, qint64 seed)
{
    WorkloadSourceSpec w;
    w.kind = WorkloadKind::Generator;
    w.text = workloads::generatorText(g.defaults());
    w.spans = spans;
    w.seed = seed;
    return w;
}

} // namespace idlescope
