// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/input_paths.h"

#include "core/formats/csv_fields.h"
#include "core/io/atomic_file.h"
#include "core/scenario/trace_simulate.h"
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_machine.h"

#include <algorithm>
#include <optional>

namespace idlescope::cli {

const char *const TRACE_STATS_HELP =
    "usage: idlescope-cli trace-stats TRACE [--table T] [--governor VARIANT]\n"
    "                                 [--cluster CPUS]... [--baseline TRACE2]\n"
    "                                 [--format md|csv|json] [--out FILE]\n\n"
    "The recorded idle statistics of a kernel trace (any format 'import' reads): per CPU\n"
    "and in total, per-state usage, residency time (total; min, avg and max per entry) and\n"
    "above/below; cluster idle (the time every CPU of a group was idle at once); wakeup\n"
    "causes (tick, hrtimer, irq, ipi, remote_wakeup, unknown) with the irq handler and\n"
    "hrtimer function names; an idle-duration histogram; with power:cpu_frequency events,\n"
    "the running time at each frequency (idle entries left out: idlestat's P-states);\n"
    "warnings.\n\n"
    "  --table T          a table (file or built-in id): names the states, and above/below\n"
    "                     are recomputed with the kernel's rule against it when the trace has\n"
    "                     no power:cpu_idle_miss events (labelled 'recomputed' in the output)\n"
    "  --cluster CPUS     a group of CPUs for cluster idle, e.g. 0-3 or 0,2,4; may be repeated\n"
    "                     (default: one group of every CPU with idle entries)\n"
    "  --baseline TRACE2  also the same statistics of a second trace, side by side (all CPUs)\n"
    "  --governor ID      with --table: also replay each CPU's spans through this variant\n"
    "                     and show recorded vs simulated per state\n"
    "  --format F         md (default), csv (cpu,metric,key,value) or json\n"
    "  --out FILE         write there (atomically) instead of stdout\n";

namespace {

/// "0-3", "0,2,4" or a mix ("0-1,4") -> CPU numbers; the error names --cluster.
Result<std::vector<int>> parseCpuList(const std::string &spec)
{
    std::vector<int> cpus;
    const Error bad{"", 0, "--cluster", "'" + spec + "' is not a CPU list such as 0-3 or 0,2,4"};
    size_t b = 0;
    while (b <= spec.size()) {
        const size_t c = std::min(spec.find(',', b), spec.size());
        const std::string item = spec.substr(b, c - b);
        const size_t dash = item.find('-');
        const std::int64_t lo = csv::parseInt(item.substr(0, dash)).value_or(-1);
        const std::int64_t hi = dash == std::string::npos ? lo : csv::parseInt(item.substr(dash + 1)).value_or(-1);
        if (lo < 0 || hi < lo || hi >= 4096)
            return bad;
        for (std::int64_t cpu = lo; cpu <= hi; ++cpu)
            cpus.push_back(static_cast<int>(cpu));
        b = c + 1;
    }
    return cpus;
}

} // namespace

int runTraceStats(int argc, char **argv, int first)
{
    Args args(argc, argv, first);
    if (!args.ok())
        return fail(args.error());
    if (std::string u = args.unknown({"table", "governor", "format", "out", "cluster", "baseline"}); !u.empty())
        return fail("unknown option " + u + " (see idlescope-cli help trace-stats)");
    if (args.positional().size() != 1)
        return fail("expected one TRACE file (see idlescope-cli help trace-stats)");
    const std::string format = args.value("format", "md");
    if (format != "md" && format != "csv" && format != "json")
        return fail(Error{"", 0, "--format", "expected md, csv or json, got '" + format + "'"});
    if (args.has("governor") && !args.has("table"))
        return fail("--governor needs --table (see idlescope-cli help trace-stats)");

    if (args.has("out")) {
        if (Status s = checkOutputPath(args.value("out")); !s)
            return fail(s.error());
        // Nor over any file it reads: the trace, --baseline, --table.
        if (Status s = checkDistinctPaths(inputPaths(args, {"out"}), {args.value("out")}); !s)
            return fail(s.error());
    }

    std::optional<IdleStateTable> table;
    if (args.has("table")) {
        Result<IdleStateTable> t = resolveTable(args.value("table"));
        if (!t)
            return fail(t.error());
        table = std::move(*t);
    }
    std::vector<std::vector<int>> clusters;
    for (const std::string &spec : args.all("cluster")) {
        Result<std::vector<int>> cpus = parseCpuList(spec);
        if (!cpus)
            return fail(cpus.error());
        clusters.push_back(std::move(*cpus));
    }
    Result<trace::TraceImport> imported = trace::importTrace(args.positional()[0]);
    if (!imported)
        return fail(imported.error());
    const trace::TraceStats stats = trace::computeStats(*imported, table ? &*table : nullptr, clusters);
    std::optional<trace::TraceImport> baselineTrace;
    std::optional<trace::TraceStats> baseline;
    if (args.has("baseline")) {
        Result<trace::TraceImport> b = trace::importTrace(args.value("baseline"));
        if (!b)
            return fail(b.error());
        baselineTrace = std::move(*b);
        baseline = trace::computeStats(*baselineTrace, table ? &*table : nullptr, clusters);
    }
    std::optional<trace::SimulatedTrace> sim;
    if (args.has("governor")) {
        Result<trace::SimulatedTrace> s =
            scenario::simulateTrace(trace::traceWorkload(*imported, ""), *table, args.value("governor"));
        if (!s)
            return fail(Error{"", 0, "--governor", s.error().message + " (idlescope-cli governors lists them)"});
        sim = std::move(*s);
    }
    const trace::StatsReport report{*imported,
                                    stats,
                                    sim ? &*sim : nullptr,
                                    table ? &*table : nullptr,
                                    baselineTrace ? &*baselineTrace : nullptr,
                                    baseline ? &*baseline : nullptr};
    const std::string text = format == "md"    ? trace::formatStatsMarkdown(report)
                             : format == "csv" ? trace::formatStatsCsv(report)
                                               : trace::formatStatsJson(report);
    return emitOutput(args, "out", text);
}

} // namespace idlescope::cli
