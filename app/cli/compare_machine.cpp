// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/compare_machine.h"
#include "app/cli/trace_warnings.h"

#include "core/energy/idlestat_energy_model.h"
#include "core/experiments/closed_loop.h"
#include "core/experiments/closed_loop_format.h"
#include "core/experiments/machine_comparison.h"
#include "core/experiments/machine_comparison_format.h"
#include "core/experiments/synthetic_machine.h"
#include "core/formats/csv_fields.h"
#include "core/formats/wult_csv.h"
#include "core/io/atomic_file.h"
#include "core/io/power_json.h"
#include "core/scenario/scenario_closed_loop.h"
#include "core/scenario/scenario_machine.h"
#include "core/stream/latency_limit.h"
#include "core/targets/builtin_machines.h"
#include "core/trace/recorded_governor.h"
#include "core/trace/trace_agreement.h"
#include "core/trace/trace_import.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <span>

namespace idlescope::cli {

namespace {

/// --energy-model FILE (idlestat's format) over @p clusters, if given.
Status applyEnergyModel(const Args &args, std::span<Cluster> clusters)
{
    if (!args.has("energy-model"))
        return Ok{};
    Result<IdlestatEnergyModel> model = readIdlestatEnergyModel(args.value("energy-model"));
    if (!model)
        return model.error();
    return applyIdlestatEnergyModel(*model, clusters);
}

/// --energy-model, then the --power items, over a machine's own power data, cluster by cluster.
Status applyPower(const Args &args, Machine &machine)
{
    if (Status s = applyEnergyModel(args, machine.clusters); !s)
        return s;
    for (const std::string &item : args.all("power"))
        for (Cluster &c : machine.clusters)
            if (Status s = applyPowerOption(c.power, c.table, item); !s)
                return inCliTerms(s.error());
    return Ok{};
}

/// --machine ID (built-in), --machine N (N CPUs of --table), or a trace's CPUs on --table.
Result<Machine> resolveMachine(const Args &args, int traceCpus)
{
    const std::string m = args.value("machine");
    const std::optional<std::int64_t> parsed = m.empty() ? std::optional<std::int64_t>{} : csv::parseInt(m);
    const std::int64_t n = parsed.value_or(0);
    if (!m.empty() && !parsed) {
        if (args.has("table"))
            return Error{m, 0, "--machine", "a built-in machine has its own tables: give --machine or --table"};
        return inCliTerms(builtinMachine(m), {"machine"});
    }
    if (!args.has("table"))
        return Error{"", 0, "--table", "missing (or give --machine with a built-in machine)"};
    if (parsed && (n < 1 || n > 4096))
        return Error{m, 0, "--machine", "a CPU count must be 1..4096"};
    Result<IdleStateTable> t = resolveTable(args.value("table"));
    if (!t)
        return t.error();
    Machine machine = Machine::uniform(*t, parsed ? static_cast<int>(n) : std::max(1, traceCpus));
    Result<PowerModel> p = tablePower(args, *t);
    if (!p)
        return p.error();
    machine.clusters.front().power = std::move(*p);
    // Again on the machine for the energy model's cluster idle powers (--power over it).
    if (args.has("energy-model"))
        if (Status s = applyPower(args, machine); !s)
            return s.error();
    return machine;
}

/// Point @p point of --workload on --workload-cpus (default: its cpus= or every CPU), --background
/// (default "idle") on the others.
Result<MachineWorkload> syntheticWorkload(const Args &args, const Machine &machine, const MachineCliOptions &o,
                                          int point)
{
    const std::string &text = o.scenario.workload.text;
    if (text.rfind("csv:", 0) == 0)
        return Error{text, 0, "--workload", "a stream file is one CPU: use it without --machine"};
    SyntheticMachineSpec spec;
    Result<workloads::WorkloadSpec> workload = workloads::parseWorkloadSpec(text);
    if (!workload)
        return inCliTerms(workload.error());
    spec.workload = std::move(*workload);
    Result<workloads::WorkloadSpec> background = workloads::parseWorkloadSpec(args.value("background", "idle"));
    if (!background) {
        // The spec parser names the option it knows; this text is --background's.
        Error e = background.error();
        if (e.field == "workload")
            e.field = "background";
        return inCliTerms(e);
    }
    spec.background = std::move(*background);
    if (args.has("workload-cpus")) {
        Result<std::vector<int>> cpus = parseWorkloadCpus(args.value("workload-cpus"));
        if (!cpus)
            return inCliTerms(cpus.error());
        spec.workloadCpus = std::move(*cpus);
    }
    spec.spans = static_cast<std::size_t>(o.scenario.workload.spans);
    spec.durationNs = o.scenario.workload.durationNs;
    spec.seed = static_cast<std::uint64_t>(o.scenario.workload.seed);
    spec.point = point;
    return inCliTerms(syntheticMachineWorkload(machine, spec), {"workload", "background", "workload-cpus"});
}

/// The governor that ran while @p tracePath was recorded: --recorded-governor NAME, or
/// @FILE for a saved current_governor, else the TRACE.governor idlescope-cli record wrote
/// beside the trace, else "" (no trace format carries it: core/trace/recorded_governor.h).
Result<std::string> recordedGovernor(const Args &args, const std::string &tracePath)
{
    if (!args.has("recorded-governor"))
        return trace::governorBesideTrace(tracePath);
    const std::string value = args.value("recorded-governor");
    if (value.rfind('@', 0) == 0)
        return trace::readSavedGovernor(value.substr(1));
    // A label of the recorded row: a field of the tables, held to the rules of compare's labels.
    if (std::string problem = experiments::governorLabelProblem(value); !problem.empty())
        return Error{"", 0, "--recorded-governor", problem};
    return value;
}

/// --hz, and --power over a built-in machine's own power data (a --table's has it already).
Status tuneMachine(const Args &args, const MachineCliOptions &o, Machine &machine)
{
    if (o.scenario.tickHz)
        if (Status s = machine.setTickHz(*o.scenario.tickHz); !s)
            return s;
    for (Cluster &c : machine.clusters)
        if (Status s = applyWakeDelaysFile(c.table, o.scenario.wakeDelaysPath); !s)
            return s;
    return args.has("table") ? Status(Ok{}) : applyPower(args, machine);
}

/// compare --trace T --agreement VARIANT: the kernel's choices against VARIANT's, entry by entry.
int runAgreement(const Args &args, const MachineCliOptions &o, const trace::TraceImport &imported,
                 const Machine &machine)
{
    const std::string path = args.value("trace");
    // A table and a matrix with their notes: text, or JSON for programs; a CSV or Markdown
    // asked for is refused, not answered with text under another name.
    if (args.has("format") && o.format != experiments::CompareFormat::Json)
        return fail(
            Error{"", 0, "--format",
                  "'" + args.value("format") + "': the agreement is written as text, or as JSON with --format json"});
    Result<std::string> governor = recordedGovernor(args, path);
    if (!governor)
        return fail(governor.error());
    if (governor->empty())
        return fail(Error{path, 0, "--agreement",
                          "the governor that ran is not known: give --recorded-governor NAME (or put it in "
                          "TRACE.governor beside the trace, as 'idlescope-cli record' does)"});
    const scenario::GovernorInstance &g = o.scenario.governors.front(); // --agreement VARIANT
    Result<trace::TraceAgreement> a = trace::traceAgreement(imported, machine, g.variant, g.settings, 10);
    if (!a)
        return fail(inCliTerms(a.error(), {"agreement"}));
    a->recordedGovernor = *governor;
    std::cerr << "compare: agreement on machine " << machine.id << " (the machine's own tables)\n";
    const std::string text =
        o.format == experiments::CompareFormat::Json ? trace::formatAgreementJson(*a) : trace::formatAgreementText(*a);
    return emitOutput(args, "output", text);
}

/// The trace on every CPU of @p machine: the scenario core/scenario resolves, as for the
/// window's CPUs dock, with the rows per CPU said on stderr.
Result<MachineCompareOptions> traceComparison(const Args &args, const MachineCliOptions &o,
                                              const trace::TraceImport &imported, const Machine &machine)
{
    const std::string path = args.value("trace");
    Result<std::string> governor = recordedGovernor(args, path);
    if (!governor)
        return governor.error();
    scenario::Scenario s = o.scenario;
    s.machine = machine;
    Result<MachineCompareOptions> mo =
        inCliTerms(scenario::traceMachineComparison(s, imported, *governor, args.has("cluster-view")), {"machine"});
    if (!mo)
        return mo;
    std::string list;
    for (const CpuStream &c : mo->workload.cpus)
        list += (list.empty() ? "" : ", ") + ("CPU " + std::to_string(c.cpu) + " " + std::to_string(c.stream.size()));
    std::cerr << "compare: trace " << path << ", stream rows per CPU (one per idle span and in-idle wakeup): " << list
              << '\n';
    for (const CpuStream &c : mo->workload.cpus)
        if (c.stream.empty())
            std::cerr << "compare: CPU " << c.cpu << " not replayed: " << c.emptyReason << '\n';
    return mo;
}

/// Point @p point of --workload on every CPU of @p machine (--workload-cpus, the others
/// --background), each governor with its settings and the latency limit on every CPU's spans.
Result<MachineCompareOptions> generatedComparison(const Args &args, const MachineCliOptions &o, const Machine &machine,
                                                  int point)
{
    Result<MachineWorkload> w = syntheticWorkload(args, machine, o, point);
    if (!w)
        return w.error();
    MachineCompareOptions mo;
    mo.machine = machine;
    for (const scenario::GovernorInstance &g : o.scenario.governors) {
        mo.governors.push_back(g.variant);
        mo.tunables.push_back(g.settings);
    }
    mo.workload = std::move(*w);
    for (CpuStream &c : mo.workload.cpus) // the limit on every CPU's spans, as on a trace's
        applyLatencyLimit(c.stream, o.scenario.latencyLimitNs);
    return mo;
}

} // namespace

Result<PowerModel> tablePower(const Args &args, const IdleStateTable &table)
{
    PowerModel power = PowerModel::empty(table);
    std::error_code ec;
    if (std::filesystem::is_regular_file(args.value("table"), ec)) {
        Result<PowerModel> p = readTablePower(args.value("table"), table);
        if (!p)
            return p.error();
        power = std::move(*p);
    }
    if (args.has("energy-model")) {
        Cluster one{"all", table, {0}, std::move(power), {}};
        if (Status s = applyEnergyModel(args, std::span<Cluster>(&one, 1)); !s)
            return s.error();
        power = std::move(one.power);
    }
    for (const std::string &item : args.all("power"))
        if (Status s = applyPowerOption(power, table, item); !s)
            return inCliTerms(s.error());
    return power;
}

bool wantsMachineCompare(const Args &args)
{
    return args.has("machine") || (args.has("trace") && !args.has("cpu"));
}

int runMachineCompare(const Args &args, const MachineCliOptions &o)
{
    const std::string cpus = args.value("cpus", "each");
    if (cpus != "each" && cpus != "sum")
        return fail(Error{"", 0, "--cpus", "'" + cpus + "' is not each or sum"});
    if (args.has("recorded-governor") && !args.has("trace"))
        return fail(Error{"", 0, "--recorded-governor", "only with --trace (it names the governor that ran)"});
    if (args.has("output"))
        if (Status s = checkOutputPath(args.value("output")); !s)
            return fail(s.error());

    std::optional<trace::TraceImport> imported;
    if (args.has("trace")) {
        Result<trace::TraceImport> t = trace::importTrace(args.value("trace"));
        if (!t)
            return fail(t.error());
        printTraceWarnings(*t);
        imported = std::move(*t);
    }
    const int traceCpus = imported ? std::max<int>(imported->declaredCpus, static_cast<int>(imported->cpus.size())) : 0;
    Result<Machine> machine = resolveMachine(args, traceCpus);
    if (!machine)
        return fail(machine.error());
    if (Status s = tuneMachine(args, o, *machine); !s)
        return fail(s.error());
    if (Status s = machine->validate(); !s)
        return fail(s.error());

    if (args.has("agreement"))
        return runAgreement(args, o, *imported, *machine);

    // A sweep of the workload (io:device=emmc/nvme/sata, numjobs=1..4:4) is a machine run per
    // point, each a block of rows labelled by its point. A syntax error is the run's to report.
    std::vector<std::string> pointLabels = {""};
    if (!imported)
        if (Result<workloads::WorkloadSpec> w = workloads::parseWorkloadSpec(o.scenario.workload.text);
            w && w->pointCount() > 1) {
            pointLabels.clear();
            for (int p = 0; p < w->pointCount(); ++p)
                pointLabels.push_back(w->pointLabel(p));
        }
    std::vector<MachineSweepPoint> points;
    for (size_t p = 0; p < pointLabels.size(); ++p) {
        Result<MachineCompareOptions> mo = imported ? traceComparison(args, o, *imported, *machine)
                                                    : generatedComparison(args, o, *machine, static_cast<int>(p));
        if (!mo)
            return fail(mo.error());
        mo->threads = o.threads;
        mo->clusterView = args.has("cluster-view");
        Result<MachineComparison> c = runMachineComparison(*mo);
        if (!c)
            return fail(inCliTerms(c.error()));
        points.push_back({pointLabels[p], std::move(*c)});
    }
    MachineFormatOptions fo;
    fo.format = o.format;
    fo.eachCpu = cpus == "each";
    fo.perState = args.has("per-state");
    const std::string text = points.size() == 1 ? formatMachineComparison(points.front().comparison, fo)
                                                : formatMachineSweep(o.scenario.workload.text, points, fo);
    return emitOutput(args, "output", text);
}

int runClosedLoopCompare(const Args &args, const MachineCliOptions &o)
{
    Result<ClosedLoopSpec> spec = scenario::closedLoopOf(o.scenario);
    if (!spec)
        return fail(inCliTerms(spec.error()));
    Result<Machine> machine = resolveMachine(args, spec->cpus());
    if (!machine)
        return fail(machine.error());
    if (Status s = tuneMachine(args, o, *machine); !s)
        return fail(s.error());
    if (args.has("output"))
        if (Status s = checkOutputPath(args.value("output")); !s)
            return fail(s.error());
    const std::string cpus = args.value("cpus", "sum");
    if (cpus != "each" && cpus != "sum")
        return fail(Error{"", 0, "--cpus", "'" + cpus + "' is not each or sum"});
    // The machine's other CPUs run --background (default idle, as compare --machine's); "none"
    // leaves them out, as a loop's machine was before it had a background.
    const std::string bgText = args.value("background", scenario::DEFAULT_CLOSED_LOOP_BACKGROUND);
    const bool others = machine->cpuCount() > spec->cpus();
    if (args.has("background") && !others && bgText != "none") // none asks for nothing: no CPU needed
        return fail(Error{"", 0, "--background",
                          "runs on the machine's CPUs outside the loop, and " + machine->id
                              + " has none (the loop runs on " + std::to_string(spec->cpus())
                              + "): give --machine with more CPUs"});
    std::optional<workloads::WorkloadSpec> background;
    if (others && bgText != "none") {
        Result<workloads::WorkloadSpec> b = workloads::parseWorkloadSpec(bgText);
        if (!b) {
            Error e = b.error();
            if (e.field == "workload")
                e.field = "background";
            return fail(inCliTerms(e));
        }
        if (b->pointCount() > 1)
            return fail(Error{bgText, 0, "--background", "a sweep is not a background: give one point"});
        background = std::move(*b);
        std::cerr << "compare: " << scenario::backgroundNote(*machine, *spec, bgText) << '\n';
    }
    Result<std::vector<ClosedLoopRun>> runs =
        scenario::runClosedLoopScenario(o.scenario, *spec, *machine, o.threads, nullptr,
                                        background ? &*background : nullptr);
    if (!runs)
        return fail(inCliTerms(runs.error(), {"machine"}));
    // The table of governors; --cpus each and --per-state add their CPUs' rows below it.
    MachineFormatOptions rows;
    rows.format = o.format;
    rows.eachCpu = cpus == "each";
    rows.perState = args.has("per-state");
    const std::string text = formatClosedLoop(*machine, *spec, *runs, rows);
    return emitOutput(args, "output", text);
}

} // namespace idlescope::cli
