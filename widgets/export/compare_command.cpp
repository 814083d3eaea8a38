// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/compare_command.h"
#include "widgets/runner/workload_seeding.h"

#include "core/source_governor/source_governor.h"
#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/export/scenario_context.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/spec_workload.h"
#include "widgets/runner/trace_workload.h"

#include <QObject>
#include <QRegularExpression>

namespace idlescope {

namespace {

/// ",latency_req_us=50" (":latency_req_us=50" after a generator without parameters): the
/// window's limit holds for every span, as a generator's latency_req_us does.
QString latencyReqText(const QString &text, Ns latencyLimitNs)
{
    if (latencyLimitNs < 0)
        return {};
    static const workloads::ParamInfo us{"latency_req_us", workloads::ParamUnit::Us, 0, 0, 0, ""};
    return (text.contains(QLatin1Char(':')) ? QLatin1Char(',') : QLatin1Char(':')) + QStringLiteral("latency_req_us=")
           + QString::fromStdString(workloads::formatParamValue(us, latencyLimitNs));
}

bool tableWasEdited(const TargetSpec &target)
{
    if (target.kind == TargetKind::Machine)
        return false; // read again from sysfs by the CLI (a caveat says so)
    const std::optional<IdleStateTable> original = originalTable(target);
    if (!original)
        return true;
    return original->count() != target.table.count() || !tableEdits(*original, target.table).isEmpty();
}

} // namespace

QString workloadSpecText(const ScenarioSpec &spec, const QString &param, const QString &paramText)
{
    const WorkloadSourceSpec &w = spec.workload;
    if (w.kind != WorkloadKind::Generator)
        return {};
    // The workload's own text; a sweep's values written over its parameter's.
    QString text = w.text;
    if (!param.isEmpty()) {
        const Result<workloads::ParamValues> values = generatorValues(w.text);
        if (!values)
            return {};
        text = generatorText(*values, param, paramText);
    }
    return text + latencyReqText(text, spec.latencyLimitNs);
}

QString shellQuoted(const QString &arg)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:=,@%+-]+$"));
    if (!arg.isEmpty() && safe.match(arg).hasMatch())
        return arg;
    QString q = arg;
    q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

CompareCommand compareCommand(const ScenarioSpec &spec, const QString &tablePath, int traceCpu)
{
    CompareCommand c;
    QStringList &a = c.args;
    a << QStringLiteral("compare");

    const TargetSpec &t = spec.target;
    c.tableEdited = tableWasEdited(t);
    if (!tablePath.isEmpty())
        a << QStringLiteral("--table") << tablePath;
    else if (t.kind == TargetKind::Machine)
        a << QStringLiteral("--table") << QStringLiteral("this-machine");
    else if (t.kind == TargetKind::File)
        a << QStringLiteral("--table") << t.path;
    else
        a << QStringLiteral("--table") << t.id;
    if (c.tableEdited && tablePath.isEmpty())
        c.caveats << QObject::tr("The table was edited: the command names the unedited table; save the "
                                 "edited one as a table file to reproduce it.");
    if (t.kind == TargetKind::Machine)
        c.caveats << QObject::tr("--table this-machine reads cpu0's sysfs where the command runs.");
    const std::optional<IdleStateTable> original = tablePath.isEmpty() ? originalTable(t) : std::nullopt;
    if (!original || original->tickHz != t.table.tickHz)
        a << QStringLiteral("--hz") << QString::number(t.table.tickHz);

    const WorkloadSourceSpec &w = spec.workload;
    switch (w.kind) {
    case WorkloadKind::Csv: a << QStringLiteral("--workload") << QStringLiteral("csv:") + w.path; break;
    case WorkloadKind::Trace:
        a << QStringLiteral("--trace") << w.path << QStringLiteral("--cpu")
          << QString::number(w.cpu == TRACE_BEST_CPU ? traceCpu : w.cpu);
        break;
    case WorkloadKind::ClosedLoop:
        a << QStringLiteral("--closed-loop") << w.text << QStringLiteral("--seed") << QString::number(w.seed);
        break;
    case WorkloadKind::Spec:
        // The typed text as it is: the window and compare both generate point 0, iteration 0.
        a << QStringLiteral("--workload") << w.text << QStringLiteral("--seed") << QString::number(w.seed)
          << QStringLiteral("--spans") << QString::number(w.spans);
        break;
    case WorkloadKind::Generator:
        a << QStringLiteral("--workload") << workloadSpecText(spec) << QStringLiteral("--seed")
          << QString::number(w.seed) << QStringLiteral("--spans") << QString::number(w.spans);
        c.legacySeeding = usesLegacySeeding(w);
        if (c.legacySeeding)
            c.caveats << QObject::tr("This scenario (from a session saved by an older idlescope) uses the legacy "
                                     "seeding: the command generates other spans until the scenario is switched "
                                     "to the common seeding.");
        break;
    }
    if (spec.latencyLimitNs >= 0 && w.kind != WorkloadKind::Generator)
        c.caveats << QObject::tr("The latency limit applies to a stream or trace only in the window: compare "
                                 "replays the stream's own latency column.");
    // One stream, one replay per governor: the window's table is one iteration (a closed
    // loop runs once, and compare refuses --iterations for it).
    if (w.kind != WorkloadKind::ClosedLoop)
        a << QStringLiteral("--iterations") << QStringLiteral("1");

    QStringList governors;
    QStringList sets;
    for (const GovernorSpec &g : spec.governors) {
        // The oracle is every compare row's oracle_* columns; "recorded" is the trace's own.
        if (g.variant == "recorded" && w.kind == WorkloadKind::Trace)
            c.caveats << QObject::tr("The recorded row is not in a one-CPU compare: compare --trace without --cpu "
                                     "(every CPU at once) or trace-stats shows the kernel's own choices.");
        if (g.variant == "oracle" || g.variant == "recorded")
            continue;
        // A named source governor ("src:NAME") by its file: the command line has no names.
        const QString variant = QString::fromStdString(sourceGovernorFileId(g.variant));
        // A second instance is LABEL=VARIANT, its tunables LABEL:NAME=VALUE (compare's rows show the label).
        const QString name = g.label.empty() ? variant : QString::fromStdString(g.label);
        governors << (g.label.empty() ? variant : name + QLatin1Char('=') + variant);
        for (const auto &[tunable, value] : g.settings)
            sets << QStringLiteral("%1:%2=%3").arg(name, QString::fromStdString(tunable)).arg(value);
    }
    a << QStringLiteral("--governors") << governors.join(QLatin1Char(','));
    for (const QString &s : sets)
        a << QStringLiteral("--set") << s;

    QStringList quoted{QStringLiteral("idlescope-cli")};
    for (const QString &arg : a)
        quoted << shellQuoted(arg);
    c.text = quoted.join(QLatin1Char(' '));
    return c;
}

} // namespace idlescope
