// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/stream_args.h"

#include "app/cli/commands.h"
#include "app/cli/trace_warnings.h"

#include "core/formats/csv_fields.h"
#include "core/scenario/scenario_stream.h"
#include "core/scenario/scenario_trace.h"
#include "core/trace/trace_import.h"

#include <climits>
#include <iostream>

namespace idlescope::cli {

namespace {

/// core/scenario's fields as the options that give them.
Error inStreamTerms(Error e)
{
    if (e.field == "seed")
        e.field = "--seed";
    else if (e.field == "cpu")
        e.field = "--cpu";
    return inCliTerms(std::move(e));
}

/// A recorded trace as a fixed workload: the idle spans of its CPU, as `import` would
/// export them (compare without --cpu replays every CPU: compare_machine.cpp).
Result<IdleStream> traceCpuStream(const scenario::WorkloadSource &w, std::string_view command)
{
    Result<trace::TraceImport> t = trace::importTrace(w.path);
    if (!t)
        return t.error();
    printTraceWarnings(*t);
    Result<scenario::TraceCpuExport> e = scenario::exportTraceCpu(*t, w.cpu, w.path);
    if (!e)
        return inStreamTerms(e.error());
    std::cerr << command << ": trace " << w.path << ", CPU " << e->cpu << ", " << e->exported.stream.size()
              << " rows (idle spans, one row more per in-idle wakeup)\n";
    return std::move(e->exported.stream);
}

} // namespace

Result<scenario::WorkloadSource> traceSource(const std::string &path, const std::string &cpuArg)
{
    scenario::WorkloadSource w;
    w.kind = scenario::WorkloadKind::Trace;
    w.path = path;
    if (!cpuArg.empty()) {
        const auto n = csv::parseInt(cpuArg);
        if (!n || *n < 0 || *n > INT_MAX)
            return Error{path, 0, "--cpu", "'" + cpuArg + "' is not a CPU number"};
        w.cpu = static_cast<int>(*n);
    }
    return w;
}

Result<IdleStream> streamOfSource(const scenario::WorkloadSource &w, std::string_view command)
{
    if (w.kind == scenario::WorkloadKind::Trace)
        return traceCpuStream(w, command);
    Result<IdleStream> s = scenario::workloadStream(w);
    if (!s)
        return inStreamTerms(s.error());
    return s;
}

Result<IdleStream> oneStreamFromArgs(const Args &args, bool allowTrace, std::string_view command)
{
    const int sources = int(args.has("workload")) + int(args.has("stream")) + int(allowTrace && args.has("trace"));
    if (sources != 1)
        return Error{"", 0, "",
                     allowTrace ? "give one of --workload, --stream and --trace"
                                : "give one of --stream and --workload"};
    if (args.has("cpu") && !(allowTrace && args.has("trace")))
        return Error{"", 0, "--cpu", "only applies with --trace"};
    if (!args.has("workload"))
        for (const char *workloadOnly : {"spans", "seed"})
            if (args.has(workloadOnly))
                return Error{"", 0, std::string("--") + workloadOnly, "only applies with --workload"};
    if (allowTrace && args.has("trace")) {
        Result<scenario::WorkloadSource> w = traceSource(args.value("trace"), args.value("cpu"));
        if (!w)
            return w.error();
        return streamOfSource(*w, command);
    }
    scenario::WorkloadSource w;
    const std::string text = args.value("workload");
    if (args.has("stream") || text.rfind("csv:", 0) == 0) {
        w.kind = scenario::WorkloadKind::Csv;
        w.path = args.has("stream") ? args.value("stream") : text.substr(4);
    } else {
        w.kind = scenario::WorkloadKind::Spec;
        w.text = text;
        // A value that is no number is out of range too: core/scenario says so, after the spec.
        w.spans = csv::parseInt(args.value("spans", std::to_string(scenario::DEFAULT_SPANS))).value_or(-1);
        w.seed = csv::parseInt(args.value("seed", "1")).value_or(-1);
    }
    return streamOfSource(w, command);
}

} // namespace idlescope::cli
