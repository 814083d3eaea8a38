// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/input_paths.h"
#include "app/cli/trace_warnings.h"

#include "core/formats/csv_fields.h"
#include "core/formats/stream_csv.h"
#include "core/io/atomic_file.h"
#include "core/trace/idle_reconstructor.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_names.h"
#include "core/trace/trace_stream.h"

#include <filesystem>
#include <iostream>
#include <utility>

namespace idlescope::cli {

const char *const IMPORT_HELP =
    "usage: idlescope-cli import TRACE [--cpu N|all] --stream OUT.csv\n"
    "                            [--spans SPANS.csv] [--entries ENTRIES.csv] [--quiet]\n\n"
    "Reads a kernel trace (ftrace text, trace-cmd report text, perf script text or a\n"
    "trace-cmd .dat; any of them gzip'd; the format is sniffed from the content), rebuilds\n"
    "each CPU's idle entries and idle spans, and writes the spans as a stream\n"
    "(gap_ns,timer_ns,wake_ns,latency_req_ns,util[,need_resched],gap_from_wake) that\n"
    "'replay' runs through any governor: one row per span, and one more per in-idle wakeup\n"
    "(an entry ended by anything but the periodic tick; need_resched = 0 on all rows of a\n"
    "span but its last). gap_from_wake = 1: gaps count from the previous row's wakeup, so\n"
    "that the replay keeps the trace's clock and tick phase (docs/traces.md).\n\n"
    "  --cpu N            export CPU N to OUT.csv exactly\n"
    "  --cpu all          (default) one stream per CPU with spans: OUT.cpuN.csv\n"
    "                     (\".cpuN\" goes before a trailing .csv, else at the end)\n"
    "  --stream OUT.csv   the stream file(s)\n"
    "  --spans F.csv      every reconstructed span of the chosen CPU(s):\n"
    "                     cpu,span,start_ns,end_ns,wake_ns,timer_ns,entries,cause,flags\n"
    "  --entries F.csv    every idle entry: cpu,enter_ns,exit_ns,state,residency_ns,cause,\n"
    "                     cause_name,sleep_length_ns,span,miss,truncated\n"
    "  --quiet            no summary on stderr\n\n"
    "Spans cut by the start or end of the trace, or whose sched_switch (or, without\n"
    "sched_switch, cpu_idle exit) is missing, are not exported; the summary adds them up\n"
    "per CPU: spans = exported + each reason. Where the trace has no hrtimer events (or\n"
    "no timer is armed), timer_ns = wake_ns; the summary counts these fallbacks\n"
    "(docs/traces.md). Warnings (file:line, field) are summarised on stderr.\n";

namespace {

std::string perCpuPath(const std::string &path, int cpu)
{
    const std::string tag = ".cpu" + std::to_string(cpu);
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0)
        return path.substr(0, path.size() - 4) + tag + ".csv";
    return path + tag;
}

const char *missText(std::uint8_t flags)
{
    if (flags & trace::ENTRY_MISS_ABOVE)
        return "above";
    if (flags & trace::ENTRY_MISS_BELOW)
        return "below";
    return "";
}

std::string spanFlags(std::uint8_t f)
{
    static constexpr std::pair<std::uint8_t, const char *> names[] = {{trace::SPAN_TRUNCATED_START, "truncated_start"},
                                                                      {trace::SPAN_TRUNCATED_END, "truncated_end"},
                                                                      {trace::SPAN_FROM_ENTRY, "from_entry"},
                                                                      {trace::SPAN_TIMER_WAKE, "timer_wake"},
                                                                      {trace::SPAN_MISSING_SWITCH, "missing_switch"},
                                                                      {trace::SPAN_MISSING_EXIT, "missing_exit"}};
    std::string s;
    for (const auto &[flag, name] : names)
        if (f & flag)
            s += s.empty() ? name : std::string(";") + name;
    return s;
}

void appendSpans(std::string &out, const trace::CpuTrace &c)
{
    for (size_t i = 0; i < c.spans.size(); ++i) {
        const trace::IdleSpanRec &sp = c.spans[i];
        out += std::to_string(c.cpu) + "," + std::to_string(i) + "," + std::to_string(sp.startNs) + ","
               + std::to_string(sp.endNs) + "," + std::to_string(sp.wakeNs) + "," + std::to_string(sp.timerNs) + ","
               + std::to_string(sp.entryCount) + "," + trace::wakeCauseName(sp.cause) + "," + spanFlags(sp.flags)
               + "\n";
    }
}

void appendEntries(std::string &out, const trace::CpuTrace &c, const std::vector<std::string> &names)
{
    for (const trace::IdleEntryRec &e : c.entries) {
        const std::string name = e.causeName >= 0 ? names[static_cast<size_t>(e.causeName)] : std::string();
        out += std::to_string(c.cpu) + "," + std::to_string(e.enterNs) + "," + std::to_string(e.exitNs) + ","
               + std::to_string(e.state) + "," + std::to_string(e.residencyNs()) + "," + trace::wakeCauseName(e.cause)
               + "," + (name.find(',') == std::string::npos ? name : "\"" + name + "\"") + ","
               + std::to_string(e.sleepLengthNs) + "," + std::to_string(e.span) + "," + missText(e.flags) + ","
               + ((e.flags & trace::ENTRY_TRUNCATED) ? "1" : "0") + "\n";
    }
}

void printSummary(const trace::TraceImport &t)
{
    std::cerr << t.file << ": " << trace::traceFormatName(t.format) << ", " << t.events << " events used, "
              << t.totalEntries() << " idle entries; " << trace::cpuCountText(t) << "\n";
    // Where every span went, over all CPUs (the per-CPU lines follow with --stream).
    std::int64_t exported = 0;
    trace::SpanDrops dropped{};
    for (const trace::CpuTrace &c : t.cpus) {
        const trace::StreamExport ex = trace::toReplayStream(c);
        exported += ex.spans;
        for (size_t k = 0; k < dropped.size(); ++k)
            dropped[k] += ex.dropped[k];
    }
    std::cerr << "all CPUs: " << trace::spanAccountText(t.totalSpans(), exported, dropped) << "\n";
    printTraceWarnings(t);
}

/// The options of import: one TRACE, at least one output, each a file name (an empty
/// name or a folder wrote hidden files named for it: ".cpu0", "DIR/.cpu0").
Status checkImportArgs(const Args &args)
{
    if (!args.ok())
        return Error{"", 0, "", args.error()};
    if (std::string u = args.unknown({"cpu", "stream", "spans", "entries", "quiet"}); !u.empty())
        return Error{"", 0, "", "unknown option " + u + " (see idlescope-cli help import)"};
    if (args.positional().size() != 1)
        return Error{"", 0, "", "expected one TRACE file (see idlescope-cli help import)"};
    if (!args.has("stream") && !args.has("spans") && !args.has("entries"))
        return Error{"", 0, "", "missing --stream OUT.csv (see idlescope-cli help import)"};
    for (const char *option : {"stream", "spans", "entries"}) {
        if (!args.has(option))
            continue;
        const std::string path = args.value(option);
        std::error_code ec;
        if (path.empty() || path.back() == '/' || std::filesystem::is_directory(path, ec))
            return Error{"", 0, std::string("--") + option,
                         "'" + path + "' is " + (path.empty() ? "no file name" : "a folder")
                             + ": give the file to write (OUT.csv)"};
    }
    return Ok{};
}

/// --cpu: a CPU number, or -1 for 'all'.
Result<int> onlyCpuOf(const std::string &cpuArg)
{
    if (cpuArg == "all")
        return -1;
    const auto v = csv::parseInt(cpuArg);
    if (!v || *v < 0 || *v >= trace::MAX_TRACE_CPUS)
        return Error{"", 0, "--cpu", "expected a CPU number or 'all', got '" + cpuArg + "'"};
    return static_cast<int>(*v);
}

/// How a CPU's spans became the stream's rows, and what the rows' timers are.
void printStreamAccount(const trace::CpuTrace &c, const trace::StreamExport &ex)
{
    std::cerr << "cpu " << c.cpu << ": "
              << trace::spanAccountText(static_cast<std::int64_t>(c.spans.size()), ex.spans, ex.dropped) << "; "
              << ex.stream.size() << " rows (one more per in-idle wakeup); of the rows: timer fallback "
              << ex.timerFallback << ", timer clamped " << ex.timerClamped << ", timer wakes " << ex.timerWakes << "\n";
}

/// The files to write (path, content) for the CPUs chosen (@p onlyCpu, -1: all): a stream
/// per CPU with a complete idle span, and the spans and entries tables, as asked.
Result<std::vector<std::pair<std::string, std::string>>> importOutputs(const Args &args, const trace::TraceImport &t,
                                                                       int onlyCpu)
{
    std::vector<std::pair<std::string, std::string>> files;
    std::string spans = "cpu,span,start_ns,end_ns,wake_ns,timer_ns,entries,cause,flags\n";
    std::string entries =
        "cpu,enter_ns,exit_ns,state,residency_ns,cause,cause_name,sleep_length_ns,span,miss,truncated\n";
    for (const trace::CpuTrace &c : t.cpus) {
        if (onlyCpu >= 0 && c.cpu != onlyCpu)
            continue;
        if (args.has("spans"))
            appendSpans(spans, c);
        if (args.has("entries"))
            appendEntries(entries, c, t.names);
        if (!args.has("stream"))
            continue;
        const trace::StreamExport ex = trace::toReplayStream(c);
        if (!args.has("quiet") && !c.spans.empty())
            printStreamAccount(c, ex);
        if (ex.stream.empty()) {
            if (onlyCpu >= 0)
                return Error{t.file, 0, "--cpu",
                             "CPU " + args.value("cpu", "all") + " has no complete idle span to export"};
            continue;
        }
        const std::string path = onlyCpu >= 0 ? args.value("stream") : perCpuPath(args.value("stream"), c.cpu);
        files.emplace_back(path, formatStreamCsv(ex.stream));
    }
    if (args.has("stream") && files.empty())
        return Error{t.file, 0, "", "no CPU has a complete idle span to export"};
    if (args.has("spans"))
        files.emplace_back(args.value("spans"), spans);
    if (args.has("entries"))
        files.emplace_back(args.value("entries"), entries);
    return files;
}

/// All outputs or none; never over the trace itself.
Status writeImportOutputs(const Args &args, const std::vector<std::pair<std::string, std::string>> &files)
{
    std::vector<std::string> outputs;
    std::vector<std::pair<std::string, std::string_view>> views;
    for (const auto &[path, content] : files) {
        outputs.push_back(path);
        views.emplace_back(path, content);
    }
    if (Status s = checkDistinctPaths(inputPaths(args, {"stream", "spans", "entries"}), outputs); !s)
        return s;
    if (Status s = writeFilesAtomically(views); !s)
        return s;
    if (!args.has("quiet"))
        for (const std::string &path : outputs)
            std::cerr << "wrote " << path << "\n";
    return Ok{};
}

} // namespace

int runImport(int argc, char **argv, int first)
{
    Args args(argc, argv, first, {"quiet"});
    if (Status s = checkImportArgs(args); !s)
        return fail(s.error());
    const std::string cpuArg = args.value("cpu", "all");
    const Result<int> onlyCpu = onlyCpuOf(cpuArg);
    if (!onlyCpu)
        return fail(onlyCpu.error());

    Result<trace::TraceImport> imported = trace::importTrace(args.positional()[0]);
    if (!imported)
        return fail(imported.error());
    const trace::TraceImport &t = *imported;
    if (!args.has("quiet"))
        printSummary(t);
    if (*onlyCpu >= static_cast<int>(t.cpus.size())
        || (*onlyCpu >= 0 && t.cpus[static_cast<size_t>(*onlyCpu)].events == 0))
        return fail(Error{t.file, 0, "--cpu", "CPU " + cpuArg + " has no events in this trace"});
    Result<std::vector<std::pair<std::string, std::string>>> files = importOutputs(args, t, *onlyCpu);
    if (!files)
        return fail(files.error());
    if (Status s = writeImportOutputs(args, *files); !s)
        return fail(s.error());
    return 0;
}

} // namespace idlescope::cli
