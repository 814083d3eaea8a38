// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"

#include "core/io/atomic_file.h"
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"

#include <iostream>
#include <optional>

namespace idlescope::cli {

const char *const TRACE_STATS_HELP =
    "usage: idlescope-cli trace-stats TRACE [--table T] [--governor VARIANT]\n"
    "                                 [--format md|csv|json] [--out FILE]\n\n"
    "The recorded idle statistics of a kernel trace (any format 'import' reads): per CPU\n"
    "and in total, per-state usage, residency time and above/below; wakeup causes (tick,\n"
    "hrtimer, irq, ipi, remote_wakeup, unknown); an idle-duration histogram; warnings.\n\n"
    "  --table T          a table JSON file: above/below are recomputed with the kernel's\n"
    "                     rule against it when the trace has no power:cpu_idle_miss events\n"
    "                     (labelled 'recomputed' in the output)\n"
    "  --governor ID      with --table: also replay each CPU's spans through this variant\n"
    "                     and show recorded vs simulated per state\n"
    "  --format F         md (default), csv (cpu,metric,key,value) or json\n"
    "  --out FILE         write there (atomically) instead of stdout\n";

int runTraceStats(int argc, char **argv, int first)
{
    Args args(argc, argv, first);
    if (!args.ok())
        return fail(args.error());
    if (std::string u = args.unknown({"table", "governor", "format", "out"}); !u.empty())
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
        if (Status s = checkDistinctPaths({args.positional()[0], args.value("table")}, {args.value("out")}); !s)
            return fail(s.error());
    }

    std::optional<IdleStateTable> table;
    if (args.has("table")) {
        Result<IdleStateTable> t = resolveTable(args.value("table"));
        if (!t)
            return fail(t.error());
        table = std::move(*t);
    }
    Result<trace::TraceImport> imported = trace::importTrace(args.positional()[0]);
    if (!imported)
        return fail(imported.error());
    const trace::TraceStats stats = trace::computeStats(*imported, table ? &*table : nullptr);
    std::optional<trace::SimulatedTrace> sim;
    if (args.has("governor")) {
        Result<trace::SimulatedTrace> s = trace::simulateTrace(*imported, *table, args.value("governor"));
        if (!s)
            return fail(Error{"", 0, "--governor", s.error().message + " (idlescope-cli governors lists them)"});
        sim = std::move(*s);
    }
    const trace::StatsReport report{*imported, stats, sim ? &*sim : nullptr};
    const std::string text = format == "md"    ? trace::formatStatsMarkdown(report)
                             : format == "csv" ? trace::formatStatsCsv(report)
                                               : trace::formatStatsJson(report);
    if (args.has("out")) {
        if (Status s = writeFileAtomically(args.value("out"), text); !s)
            return fail(s.error());
    } else {
        std::cout << text;
    }
    return 0;
}

} // namespace idlescope::cli
