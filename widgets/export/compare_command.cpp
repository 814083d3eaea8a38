// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/compare_command.h"

#include "core/scenario/scenario_command.h"
#include "core/source_governor/source_governor.h"
#include "core/targets/builtin_machines.h"
#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/export/scenario_context.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/spec_workload.h"
#include "widgets/runner/trace_workload.h"

#include <QObject>
#include <QRegularExpression>

#include <algorithm>

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

/// The --table argument the command names: the edited table's file when saved, else where
/// the window's table came from.
QString tableArgument(const TargetSpec &t, const QString &tablePath)
{
    if (!tablePath.isEmpty())
        return tablePath;
    if (t.kind == TargetKind::Machine)
        return QStringLiteral("this-machine");
    return t.kind == TargetKind::File ? t.path : t.id;
}

} // namespace

QString workloadSpecText(const ScenarioSpec &spec, const QString &param, const QString &paramText)
{
    const WorkloadSourceSpec &w = spec.workload;
    if (w.kind != WorkloadKind::Generator)
        return {};
    // The workload's own text; a sweep's values written over its parameter's.
    QString text = QString::fromStdString(w.text);
    if (!param.isEmpty()) {
        const Result<workloads::ParamValues> values = generatorValues(w.text);
        if (!values)
            return {};
        text = QString::fromStdString(workloads::generatorText(*values, param.toStdString(), paramText.toStdString()));
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
    const TargetSpec &t = spec.target;
    c.tableEdited = tableWasEdited(t);
    if (c.tableEdited && tablePath.isEmpty())
        c.caveats << QObject::tr("The table was edited: the command names the unedited table; save the "
                                 "edited one as a table file to reproduce it.");
    if (t.kind == TargetKind::Machine)
        c.caveats << QObject::tr("--table this-machine reads cpu0's sysfs where the command runs.");

    // The window's scenario, spelt as the command line spells it (core/scenario/scenario_command.h).
    scenario::Scenario s = scenarioOf(spec);
    const std::optional<IdleStateTable> original = tablePath.isEmpty() ? originalTable(t) : std::nullopt;
    if (!original || original->tickHz != t.table.tickHz)
        s.tickHz = t.table.tickHz;
    scenario::WorkloadSource &w = s.workload;
    if (w.kind == WorkloadKind::Trace && w.cpu == TRACE_BEST_CPU) // the CPU the window replayed
        w.cpu = traceCpu;
    if (w.kind == WorkloadKind::Trace && w.cpu == TRACE_BEST_CPU)
        c.caveats << QObject::tr("No CPU of the trace was replayed yet: the command replays every CPU of it.");
    c.legacySeeding = w.kind == WorkloadKind::Generator && w.legacySeeding;
    if (c.legacySeeding)
        c.caveats << QObject::tr("This scenario (from a session saved by an older idlescope) uses the legacy "
                                 "seeding: the command generates other spans until the scenario is switched "
                                 "to the common seeding.");
    // The oracle is every compare row's oracle_* columns; "recorded" is the trace's own.
    const auto notAGovernorOption = [](const scenario::GovernorInstance &g) {
        return g.variant == "oracle" || g.variant == "recorded";
    };
    if (w.kind == WorkloadKind::Trace
        && std::any_of(s.governors.begin(), s.governors.end(), [](const auto &g) { return g.variant == "recorded"; }))
        c.caveats << QObject::tr("The recorded row is not in a one-CPU compare: compare --trace without --cpu "
                                 "(every CPU at once) or trace-stats shows the kernel's own choices.");
    std::erase_if(s.governors, notAGovernorOption);
    for (scenario::GovernorInstance &g : s.governors) // a named source governor by its file
        g.variant = sourceGovernorFileId(g.variant);

    // A closed loop on a board's built-in table ran on the board, its other CPUs running the
    // background (closed_loop_workload.h): compare --machine gives those numbers, --table not.
    std::vector<std::string> where{"--table", tableArgument(t, tablePath).toStdString()};
    if (w.kind == WorkloadKind::ClosedLoop && t.kind == TargetKind::Builtin && tablePath.isEmpty())
        if (const std::optional<Machine> board = builtinMachineOfTable(t.id.toStdString(), t.table))
            where = {"--machine", board->id};
    QStringList quoted{QStringLiteral("idlescope-cli")};
    for (const std::string &arg : compareArguments(s, where)) {
        c.args << QString::fromStdString(arg);
        quoted << shellQuoted(c.args.back());
    }
    c.text = quoted.join(QLatin1Char(' '));
    return c;
}

} // namespace idlescope
