// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/spec_workload.h"

#include "core/experiments/closed_loop.h"
#include "core/workloads/workload_spec.h"
#include "widgets/runner/workload_seeding.h"

#include <QStringList>

namespace idlescope {

namespace {

/// The most spans a spec workload takes: idlescope-cli --spans' limit (and the window's spans field's).
constexpr qint64 MAX_SPEC_SPANS = 10000000;
/// The most spans a generator workload takes: the spans field's limit too. (It was 50,000,000
/// for sessions, but the field cut a session's count to 10,000,000 when it was read back.)
constexpr qint64 MAX_GENERATOR_SPANS = 10000000;

/// The parsed spec of @p text, or why it cannot be simulated (one point only).
Result<workloads::WorkloadSpec> parseOnePoint(const QString &text)
{
    Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(text.toStdString());
    if (!spec)
        return Error{"", 0, "spec", spec.error().message};
    if (spec->pointCount() != 1)
        return Error{"", 0, "spec",
                     "sweeps " + spec->sweep->param + " over " + std::to_string(spec->pointCount())
                         + " points; give it one value (the window simulates one workload)"};
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

WorkloadSpec defaultSpecWorkload()
{
    WorkloadSpec w;
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

qint64 maxWorkloadSpans(WorkloadKind kind)
{
    return kind == WorkloadKind::Generator ? MAX_GENERATOR_SPANS : MAX_SPEC_SPANS;
}

Result<IdleStream> specWorkloadStream(const WorkloadSpec &w)
{
    if (w.kind == WorkloadKind::ClosedLoop) // the runner runs its loops (closed_loop_workload.h)
        return Error{"", 0, "loop", "a closed loop makes its spans as it runs: it has no stream of its own"};
    Result<workloads::WorkloadSpec> spec = parseOnePoint(w.text);
    if (!spec)
        return spec.error();
    const qint64 maxSpans = w.kind == WorkloadKind::Generator ? MAX_GENERATOR_SPANS : MAX_SPEC_SPANS;
    if (w.spans < 1 || w.spans > maxSpans)
        return Error{"", 0, "spans", "must be 1.." + std::to_string(maxSpans)};
    if (w.seed < 0)
        return Error{"", 0, "seed", "must be a non-negative integer"};
    const auto seed = static_cast<std::uint64_t>(w.seed);
    const auto spans = static_cast<std::size_t>(w.spans);
    if (usesLegacySeeding(w))
        return workloads::legacyDirectSeedStream(spec->root, seed, spans);
    // As idlescope-cli replay --workload (app/cli/stream_args.cpp): point 0, iteration 0.
    return workloads::seededStream(*spec, 0, 0, seed, spans);
}

QString describeSpecWorkload(const WorkloadSpec &w)
{
    if (w.kind == WorkloadKind::ClosedLoop)
        return QStringLiteral("closed loop: %1").arg(w.text);
    return QStringLiteral("spec: %1 \u00b7 %2 spans").arg(w.text).arg(w.spans);
}

const workloads::GeneratorInfo *workloadGenerator(const WorkloadSpec &w)
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

WorkloadSpec generatorWorkload(const workloads::GeneratorInfo &g, qint64 spans, qint64 seed)
{
    WorkloadSpec w;
    w.kind = WorkloadKind::Generator;
    w.text = generatorText(g.defaults());
    w.spans = spans;
    w.seed = seed;
    return w;
}

} // namespace idlescope
