// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/spec_workload.h"

#include "core/experiments/closed_loop.h"
#include "core/workloads/workload_spec.h"

namespace idlescope {

namespace {

/// The most spans a spec workload takes: idlescope-cli --spans' limit (and the window's spans field's).
constexpr qint64 MAX_SPANS = 10000000;

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

/// "closed loop: io:service_us=50,work_us=10".
QString describeClosedLoopWorkload(const WorkloadSpec &w)
{
    return QStringLiteral("closed loop: %1").arg(w.params.value(QStringLiteral("spec")).toString());
}

} // namespace

bool isClosedLoopWorkload(const WorkloadSpec &w)
{
    return w.kind == QLatin1String("spec")
           && w.params.value(QStringLiteral("loop")).toString() == QLatin1String("closed");
}

QString closedLoopRefusal(const QString &text)
{
    const Result<ClosedLoopSpec> spec = parseClosedLoopSpec(text.toStdString());
    return spec ? QString() : QString::fromStdString(spec.error().field + ": " + spec.error().message);
}

QVariantMap specWorkloadDefaults()
{
    return {{QStringLiteral("spec"), QStringLiteral("periodic:kind=ipi,interval_us=100 + poisson:mean_us=500")},
            {QStringLiteral("spans"), 200000},
            {QStringLiteral("seed"), 1}};
}

QString specWorkloadRefusal(const QString &text, bool closedLoop)
{
    if (closedLoop)
        return closedLoopRefusal(text);
    const Result<workloads::WorkloadSpec> spec = parseOnePoint(text);
    return spec ? QString() : QString::fromStdString(spec.error().message);
}

Result<IdleStream> specWorkloadStream(const WorkloadSpec &w)
{
    if (isClosedLoopWorkload(w)) // the runner runs its loops (closed_loop_workload.h)
        return Error{"", 0, "loop", "a closed loop makes its spans as it runs: it has no stream of its own"};
    Result<workloads::WorkloadSpec> spec = parseOnePoint(w.params.value(QStringLiteral("spec")).toString());
    if (!spec)
        return spec.error();
    bool ok = false;
    const qint64 spans = w.params.value(QStringLiteral("spans"), 200000).toLongLong(&ok);
    if (!ok || spans < 1 || spans > MAX_SPANS)
        return Error{"", 0, "spans", "must be 1.." + std::to_string(MAX_SPANS)};
    const qint64 seed = w.params.value(QStringLiteral("seed"), 1).toLongLong(&ok);
    if (!ok || seed < 0)
        return Error{"", 0, "seed", "must be a non-negative integer"};
    // As idlescope-cli replay --workload (app/cli/stream_args.cpp): point 0, iteration 0.
    return workloads::seededStream(*spec, 0, 0, static_cast<std::uint64_t>(seed), static_cast<std::size_t>(spans));
}

QString describeSpecWorkload(const WorkloadSpec &w)
{
    if (isClosedLoopWorkload(w))
        return describeClosedLoopWorkload(w);
    return QStringLiteral("spec: %1 \u00b7 %2 spans")
        .arg(w.params.value(QStringLiteral("spec")).toString())
        .arg(w.params.value(QStringLiteral("spans")).toLongLong());
}

} // namespace idlescope
