// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/trace_machine_job.h"

#include "core/scenario/scenario_machine.h"
#include "core/source_governor/source_governor.h"
#include "core/targets/builtin_machines.h"
#include "core/trace/recorded_entries.h"
#include "core/trace/trace_machine.h"
#include "core/trace/trace_model.h"

#include <algorithm>

namespace idlescope {

QString traceMachineKey(const SimulationSnapshot &snap)
{
    if (!snap.trace)
        return {};
    // The import (one per file version), the table as replayed, the latency limit, the
    // governors with their settings.
    QString key = QStringLiteral("%1|%2|%3|%4|%5")
                      .arg(quintptr(snap.trace->trace.get()))
                      .arg(QString::fromStdString(snap.table.id))
                      .arg(snap.table.tickHz)
                      .arg(static_cast<int>(snap.spec.target.kind))
                      .arg(snap.spec.latencyLimitNs);
    for (const IdleState &s : snap.table.states)
        key +=
            QStringLiteral("|%1/%2/%3/%4").arg(s.exitLatencyNs).arg(s.targetResidencyNs).arg(s.polling).arg(s.disabled);
    for (const GovernorSpec &g : snap.spec.governors) {
        key += QStringLiteral("|") + QString::fromStdString(g.name()) + QStringLiteral("=")
               + QString::fromStdString(g.variant);
        for (const TunableSetting &t : g.settings)
            key += QStringLiteral(",%1=%2").arg(QString::fromStdString(t.first)).arg(t.second);
    }
    return key;
}

Machine traceReplayMachine(const SimulationSnapshot &snap, const PowerModel &tablePower)
{
    const trace::TraceImport &t = *snap.trace->trace;
    const int traceCpus = std::max<int>(t.declaredCpus, static_cast<int>(t.cpus.size()));
    return machineOfTable(snap.spec.target.kind == TargetKind::Builtin ? snap.spec.target.id.toStdString() : "",
                          snap.table, tablePower, traceCpus);
}

Result<MachineComparison> compareTraceMachine(const SimulationSnapshot &snap, const std::atomic<bool> *cancel)
{
    if (!snap.trace)
        return Error{"", 0, "workload", "every CPU is shown for a kernel trace only"};
    const trace::TraceImport &t = *snap.trace->trace;
    scenario::Scenario s;
    // A table file's power data is the snapshot's (readPower(): the same on every CPU of it).
    s.machine = traceReplayMachine(snap, snap.spec.target.kind == TargetKind::File ? snap.power
                                                                                   : PowerModel::empty(snap.table));
    s.workload.kind = scenario::WorkloadKind::Trace;
    s.workload.path = snap.spec.workload.path;
    s.latencyLimitNs = snap.spec.latencyLimitNs; // core/scenario puts it on every CPU
    bool withRecorded = false;
    for (const GovernorSpec &g : snap.spec.governors) {
        if (g.variant == trace::RECORDED_VARIANT) {
            withRecorded = true;
            continue;
        }
        if (isSourceGovernorId(g.variant)) // replays one CPU's stream only (its host process)
            continue;
        s.governors.push_back({g.variant, g.label, g.settings});
    }
    Result<MachineCompareOptions> traced =
        scenario::traceMachineComparison(s, t, withRecorded ? std::optional<std::string>("") : std::nullopt, true);
    if (!traced)
        return traced.error();
    MachineCompareOptions &o = *traced;
    trace::placeOnTraceClock(o.workload, t); // every lane on the trace's clock, as in the one-CPU views
    o.keepIntervals = true;
    o.cancel = cancel;
    Result<MachineComparison> r = runMachineComparison(o);
    if (!r)
        return r;
    // The governors' runs follow the recorded one; named as everywhere else in the window.
    const std::size_t first = r->runs.size() - s.governors.size();
    for (std::size_t k = 0; k < s.governors.size(); ++k)
        r->runs[first + k].name = s.governors[k].name();
    return r;
}

} // namespace idlescope

namespace idlescope {

std::vector<GovernorAgreement> traceMachineAgreement(const SimulationSnapshot &snap, const Machine &machine,
                                                     std::size_t keep)
{
    std::vector<GovernorAgreement> out;
    const bool withRecorded = std::any_of(snap.spec.governors.begin(), snap.spec.governors.end(),
                                          [](const GovernorSpec &g) { return g.variant == trace::RECORDED_VARIANT; });
    if (!snap.trace || snap.spec.latencyLimitNs >= 0 || !withRecorded)
        return out;
    for (const GovernorSpec &g : snap.spec.governors) {
        if (g.variant == trace::RECORDED_VARIANT || isSourceGovernorId(g.variant))
            continue;
        Result<trace::TraceAgreement> a =
            trace::traceAgreement(*snap.trace->trace, machine, g.variant, g.settings, keep);
        if (a)
            out.push_back({g.name(), std::move(*a)});
    }
    return out;
}

} // namespace idlescope
