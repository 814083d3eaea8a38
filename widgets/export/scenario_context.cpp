// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/scenario_context.h"

#include "core/io/table_json.h"
#include "core/states/wake_delay.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_snapshot.h"
#include "widgets/trace/trace_disclosure.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace idlescope {

namespace {

QString usText(Ns ns)
{
    return QStringLiteral("%1 \u00b5s").arg(static_cast<double>(ns) / 1000.0);
}

QString tableLine(const ScenarioSpec &spec)
{
    const TargetSpec &t = spec.target;
    QString line = QStringLiteral("Table: %1").arg(t.id.isEmpty() ? QString::fromStdString(t.table.id) : t.id);
    if (t.kind == TargetKind::File)
        line += QStringLiteral(" (file %1)").arg(QFileInfo(t.path).fileName());
    else if (t.kind == TargetKind::Machine)
        line += QStringLiteral(" (this machine's sysfs)");
    if (const std::optional<IdleStateTable> original = originalTable(t)) {
        const QStringList edits = tableEdits(*original, t.table);
        line += edits.isEmpty() ? QStringLiteral(", as published")
                                : QStringLiteral(", edited: ") + edits.join(QStringLiteral("; "));
    }
    return line;
}

} // namespace

std::optional<IdleStateTable> originalTable(const TargetSpec &target)
{
    if (target.kind == TargetKind::Builtin) {
        if (auto t = builtinTable(target.id))
            return std::move(*t);
    } else if (target.kind == TargetKind::File) {
        if (auto t = readTableJson(target.path.toStdString()))
            return std::move(*t);
    }
    return std::nullopt;
}

QStringList tableEdits(const IdleStateTable &original, const IdleStateTable &edited)
{
    QStringList out;
    if (original.count() != edited.count())
        return out;
    for (int i = 0; i < edited.count(); ++i) {
        const IdleState &a = original[i];
        const IdleState &b = edited[i];
        const QString name = QString::fromStdString(b.name);
        if (a.exitLatencyNs != b.exitLatencyNs)
            out << QStringLiteral("%1 exit latency %2 (table %3)")
                       .arg(name, usText(b.exitLatencyNs), usText(a.exitLatencyNs));
        if (a.targetResidencyNs != b.targetResidencyNs)
            out << QStringLiteral("%1 target residency %2 (table %3)")
                       .arg(name, usText(b.targetResidencyNs), usText(a.targetResidencyNs));
        // The wake-up the throughput and energy charge (core/states/wake_delay.h), not read by
        // governors; a state without its own follows its exit latency, said above.
        if (a.wakeDelayNs != b.wakeDelayNs)
            out << QStringLiteral("%1 wake delay %2 (table %3)")
                       .arg(name, usText(baseWakeDelayNs(b)), usText(baseWakeDelayNs(a)));
        if (a.entryLatencyNs != b.entryLatencyNs)
            out << QStringLiteral("%1 entry cost %2 (table %3)")
                       .arg(name, usText(b.entryLatencyNs), usText(a.entryLatencyNs));
        if (a.disabled != b.disabled)
            out << QStringLiteral("%1 %2").arg(name,
                                               b.disabled ? QStringLiteral("disabled") : QStringLiteral("enabled"));
    }
    return out;
}

QStringList scenarioContext(const ScenarioSpec &spec)
{
    QStringList lines;
    lines << tableLine(spec);
    const std::optional<IdleStateTable> original = originalTable(spec.target);
    const int tableHz = original ? original->tickHz : spec.target.table.tickHz;
    lines << (spec.target.table.tickHz == tableHz
                  ? QStringLiteral("HZ: %1").arg(spec.target.table.tickHz)
                  : QStringLiteral("HZ: %1 (table %2)").arg(spec.target.table.tickHz).arg(tableHz));
    lines << (spec.latencyLimitNs < 0 ? QStringLiteral("Latency limit: none (the stream's own)")
                                      : QStringLiteral("Latency limit: %1").arg(usText(spec.latencyLimitNs)));
    if (!spec.wakeDelaysPath.isEmpty()) // the table's own otherwise (its edits are in the Table line)
        lines << QStringLiteral("Wake delays: measured, %1").arg(spec.wakeDelaysPath);
    QString workload = QStringLiteral("Workload: %1").arg(describeWorkload(spec.workload));
    if (spec.workload.kind != WorkloadKind::Csv && spec.workload.kind != WorkloadKind::Trace)
        workload += QStringLiteral(" (seed %1)").arg(spec.workload.seed);
    lines << workload;
    for (const GovernorSpec &g : spec.governors) {
        if (g.settings.empty())
            continue;
        QStringList changed;
        for (const auto &[name, value] : g.settings)
            changed << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(g.name()), changed.join(QStringLiteral(", ")));
    }
    return lines;
}

QString producerLine()
{
    const QString version = QCoreApplication::applicationVersion();
    return version.isEmpty() ? QStringLiteral("Written by idlescope")
                             : QStringLiteral("Written by idlescope %1").arg(version);
}

QStringList resultContext(const SimulationSnapshot &snap)
{
    QStringList lines;
    if (!snap.spec.target.id.isEmpty())
        lines = scenarioContext(snap.spec);
    else // a snapshot made by hand, of no scenario
        lines << QStringLiteral("Table: %1, HZ %2").arg(QString::fromStdString(snap.table.id)).arg(snap.table.tickHz)
              << QStringLiteral("Workload: %1").arg(snap.workloadDescription);
    // What the trace cannot tell goes with the numbers, as under the table on screen.
    if (snap.trace)
        for (const QString &caveat : traceDisclosure(*snap.trace, snap.table))
            lines << QStringLiteral("Trace: %1").arg(caveat);
    if (snap.isClosedLoop())
        lines << QStringLiteral("Closed loop: each governor's wakeups delay its next operation, so every governor "
                                "runs spans of its own");
    return lines;
}

QString exportBaseName(const SimulationSnapshot &snap)
{
    const WorkloadSourceSpec &w = snap.spec.workload;
    QString base;
    if ((w.kind == WorkloadKind::Trace || w.kind == WorkloadKind::Csv) && !w.path.empty())
        base = QFileInfo(QString::fromStdString(w.path))
                   .baseName(); // "vm-amd-2cpu-idle.ftrace.txt.gz" -> "vm-amd-2cpu-idle"
    else if (!snap.spec.target.id.isEmpty()) {
        const QString kind = w.kind == WorkloadKind::ClosedLoop ? QStringLiteral("closed-loop") : workloadKindName(w);
        base = kind.isEmpty() ? snap.spec.target.id : snap.spec.target.id + QLatin1Char('-') + kind;
    }
    // A table id or a file name may hold what a file name should not (a '/' from a path-like id).
    for (QChar &c : base)
        if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_') && c != QLatin1Char('.'))
            c = QLatin1Char('-');
    return base.isEmpty() ? QStringLiteral("idlescope") : base;
}

} // namespace idlescope
