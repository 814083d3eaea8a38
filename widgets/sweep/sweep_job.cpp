// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/sweep/sweep_job.h"

#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/export/compare_command.h"
#include "widgets/runner/spec_workload.h"

#include <algorithm>
#include <cmath>

namespace idlescope {

namespace {

/// The column of core's comparison named @p name (SWEEP_METRICS are always there).
const experiments::CompareColumn *findColumn(const std::vector<experiments::CompareColumn> &cols, const char *name)
{
    for (const experiments::CompareColumn &c : cols)
        if (c.name == name)
            return &c;
    return nullptr;
}

/// A tunable sweep: one single-point comparison per value, with that value set.
Result<experiments::CompareResult> sweepTunable(const SweepRequest &rq, experiments::CompareOptions o)
{
    const std::vector<std::string> base = o.settings;
    const std::string prefix = rq.axis.governor + ":" + rq.axis.param.toStdString() + "=";
    experiments::CompareResult all;
    for (const qint64 v : rq.values) {
        o.settings.clear();
        for (const std::string &s : base) // the swept tunable's own setting gives way
            if (s.rfind(prefix, 0) != 0)
                o.settings.push_back(s);
        o.settings.push_back(prefix + std::to_string(v));
        Result<experiments::CompareResult> one = experiments::runComparison(o);
        if (!one)
            return one.error();
        all.governors = one->governors;
        all.iterations = one->iterations;
        all.pointLabels.push_back(rq.axis.param.toStdString() + "=" + std::to_string(v));
        all.runs.insert(all.runs.end(), one->runs.begin(), one->runs.end());
    }
    return all;
}

} // namespace

double SweepResult::value(int metric, int governor, int point) const
{
    static const std::vector<experiments::CompareColumn> cols = experiments::compareColumns(IdleStateTable{});
    const experiments::CompareColumn *c = findColumn(cols, SWEEP_METRICS[metric]);
    return c ? c->value(compare.at(point, governor, 0), c->state) : 0.0;
}

std::vector<qint64> sweepValues(qint64 from, qint64 to, int points, bool logarithmic)
{
    std::vector<qint64> out;
    if (points < 1)
        return out;
    const bool log = logarithmic && from > 0 && to > 0;
    for (int i = 0; i < points; ++i) {
        const double t = points == 1 ? 0.0 : static_cast<double>(i) / (points - 1);
        const double x = log ? std::exp(std::log(double(from)) + t * (std::log(double(to)) - std::log(double(from))))
                             : double(from) + t * (double(to) - double(from));
        const qint64 v = std::llround(x);
        if (std::find(out.begin(), out.end(), v) == out.end())
            out.push_back(v);
    }
    return out;
}

experiments::CompareOptions scenarioCompareOptions(const ScenarioSpec &scenario, int threads)
{
    experiments::CompareOptions o;
    o.table = scenario.target.table;
    std::vector<std::string> names;
    for (const GovernorSpec &g : scenario.governors) {
        if (g.variant == "oracle" || g.variant == "recorded"
            || std::find(names.begin(), names.end(), g.name()) != names.end())
            continue;
        // A second instance as compare --governors LABEL=VARIANT, its tunables under its label.
        names.push_back(g.name());
        o.governors.push_back(g.label.empty() ? g.variant : g.label + "=" + g.variant);
        for (const auto &[name, value] : g.settings)
            o.settings.push_back(g.name() + ":" + name + "=" + std::to_string(value));
    }
    o.iterations = 1;
    o.seed = static_cast<std::uint64_t>(scenario.workload.seed);
    o.spans = static_cast<std::size_t>(scenario.workload.spans);
    o.threads = threads;
    return o;
}

SweepResult runSweep(const SweepRequest &rq, const std::atomic<bool> &cancel, std::atomic<int> &unitsDone, int threads)
{
    SweepResult r;
    r.request = rq;
    const workloads::GeneratorInfo *g = workloadGenerator(rq.scenario.workload);
    if (!g) {
        r.error = QStringLiteral("a sweep needs a generated workload (not a stream file or a trace)");
        return r;
    }
    if (rq.values.size() < 2) {
        r.error = QStringLiteral("a sweep needs at least 2 different values");
        return r;
    }
    experiments::CompareOptions o = scenarioCompareOptions(rq.scenario, threads);
    if (o.governors.empty()) {
        r.error = QStringLiteral("no governor to sweep (the oracle is every row's floor)");
        return r;
    }
    for (const GovernorSpec &gs : rq.scenario.governors)
        if (gs.variant != "oracle" && gs.variant != "recorded"
            && std::find(r.governors.begin(), r.governors.end(), gs.name()) == r.governors.end()) {
            r.governors.push_back(gs.name());
            r.governorColors.push_back(gs.color.name());
        }
    o.cancel = &cancel;
    o.unitsDone = &unitsDone;

    Result<experiments::CompareResult> out = Error{};
    if (rq.axis.kind == SweepAxisChoice::Kind::Workload) {
        const int pi = g->paramIndex(rq.axis.param.toStdString());
        if (pi < 0) {
            r.error = QStringLiteral("%1 has no parameter %2").arg(QString::fromUtf8(g->name), rq.axis.param);
            return r;
        }
        QStringList list;
        for (const qint64 v : rq.values)
            list << QString::fromStdString(workloads::formatParamValue(g->params[static_cast<std::size_t>(pi)], v));
        r.workloadText = workloadSpecText(rq.scenario, rq.axis.param, list.join(QLatin1Char('/')));
        Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(r.workloadText.toStdString());
        if (!spec) {
            r.error = QString::fromStdString(spec.error().toString());
            return r;
        }
        o.workload = std::move(*spec);
        out = experiments::runComparison(o);
    } else {
        r.workloadText = workloadSpecText(rq.scenario);
        Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(r.workloadText.toStdString());
        if (!spec) {
            r.error = QString::fromStdString(spec.error().toString());
            return r;
        }
        o.workload = std::move(*spec);
        out = sweepTunable(rq, o);
    }
    if (cancel.load()) {
        r.cancelled = true;
        return r;
    }
    if (!out) {
        r.error = QString::fromStdString(out.error().toString());
        return r;
    }
    r.compare = std::move(*out);
    return r;
}

} // namespace idlescope
