// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/input_paths.h"

#include "app/cli/source_args.h"
#include "app/cli/stream_args.h"
#include "core/formats/replay_output.h"
#include "core/formats/stream_csv.h"
#include "core/governors/registry.h"
#include "core/io/atomic_file.h"
#include "core/replay/reference_replay.h"
#include "core/source_governor/source_governor.h"

#include <iostream>
#include <memory>

namespace idlescope::cli {

const char *const REPLAY_HELP =
    "usage: idlescope-cli replay --table T (--stream S.csv | --workload SPEC) --governor VARIANT\n"
    "                            [--set NAME=VALUE]... [--entries OUT.csv] [--summary OUT.json]\n"
    "       idlescope-cli replay --table T (--stream S.csv | --workload SPEC) --governor-source FILE.c [--name NAME]\n"
    "                            [--kernel VERSION] [--timeout SECONDS] [--entries ...] [--summary ...]\n\n"
    "Replays the wakeup stream S through one governor variant on the idle-state table T,\n"
    "in the reference replay of the conformance kit (one CPU, high-resolution next timer,\n"
    "periodic tick at multiples of TICK_NSEC, polling time limit, above/below counted as\n"
    "cpuidle_enter_state() does).\n\n"
    "  --table T          a table JSON file, or a built-in target id\n"
    "  --stream S.csv     gap_ns,timer_ns,wake_ns,latency_req_ns[,util][,need_resched] rows\n"
    "                     (plain or .gz); need_resched 0 marks an interrupt that wakes no task:\n"
    "                     the CPU stays in the idle loop and the next row goes on with the stay\n"
    "  --workload SPEC    instead of --stream: a workload spec of one point (see 'help compare'),\n"
    "                     generated with --spans N (default 10000) and --seed S (default 1:\n"
    "                     the stream of compare's first iteration)\n"
    "  --governor ID      a variant id from 'idlescope-cli governors'\n"
    "  --governor-source FILE.c  instead of --governor: a kernel governor source file (menu.c,\n"
    "                     teo.c, a patched copy), built with the system C compiler against\n"
    "                     idlescope's kernel shim (cached) and run in a process of its own\n"
    "                     (docs/testing-your-patch.md); same as --governor src:FILE.c\n"
    "  --name NAME        with --governor-source: the governor is src:NAME (default src:FILE.c)\n"
    "  --kernel VERSION   with --governor-source: the cpuidle core and idle loop of that kernel\n"
    "                     (5.10 ... 7.0; default 7.0)\n"
    "  --timeout SECONDS  with --governor-source: a governor that makes no progress for that\n"
    "                     long is stopped as hung (default 10)\n"
    "  --set NAME=VALUE   change a tunable (see 'idlescope-cli governors --tunables');\n"
    "                     may be repeated\n"
    "  --entries OUT.csv  one row per idle entry:\n"
    "                     span,entry,state,stop_tick,residency_ns,above,below,got_tick,poll_time_limit\n"
    "  --summary OUT.json per-state usage, time_ns, above, below; spans, entries, end_now_ns\n\n"
    "Without --entries or --summary the summary is printed on stdout. Outputs are written\n"
    "atomically: on any error no output file is created or changed.\n";

namespace {

/// The --governor variant, or the --governor-source file with its options.
Result<std::unique_ptr<Governor>> makeReplayGovernor(const Args &args)
{
    if (Status s = checkSourceOnlyOptions(args); !s)
        return s.error();
    return args.has("governor-source") ? sourceGovernorFromArgs(args) : governorFromId(args.value("governor"));
}

/// Which options go together, said before anything is read.
std::string replayOptionsProblem(const Args &args)
{
    if (std::string e = args.check({"table", "stream", "workload", "spans", "seed", "governor", "governor-source",
                                    "name", "kernel", "timeout", "set", "entries", "summary"},
                                   0, "replay");
        !e.empty())
        return e;
    if (args.has("governor") == args.has("governor-source"))
        return "give one of --governor and --governor-source (see idlescope-cli help replay)";
    if (!args.has("table"))
        return "missing --table (see idlescope-cli help replay)";
    if (!args.has("stream") && !args.has("workload"))
        return "missing --stream (or --workload; see idlescope-cli help replay)";
    return args.givenTwice(
        {"table", "stream", "workload", "spans", "seed", "governor", "governor-source", "name", "kernel", "timeout"});
}

/// --entries and --summary, refused before the replay when they cannot be written or would
/// write over a file it reads (the table, the stream, the governor's source and its headers).
Status checkReplayOutputs(const Args &args)
{
    std::vector<std::string> outputs;
    for (const char *option : {"entries", "summary"}) {
        if (!args.has(option) || args.value(option).empty())
            continue;
        if (Status s = checkOutputPath(args.value(option)); !s)
            return s;
        outputs.push_back(args.value(option));
    }
    return checkDistinctPaths(inputPaths(args, {"entries", "summary"}), outputs);
}

/// The summary and the entries file, both or neither as far as the file system allows: every
/// byte is written before the first rename. Without either, the summary goes to stdout.
Status writeReplayOutputs(const Args &args, AtomicWriter *entries, const std::string &summaryJson)
{
    std::unique_ptr<AtomicWriter> summaryFile;
    if (!args.value("summary").empty()) {
        summaryFile = std::make_unique<AtomicWriter>(args.value("summary"));
        summaryFile->append(summaryJson);
    }
    for (AtomicWriter *w : {entries, summaryFile.get()}) {
        if (!w)
            continue;
        w->flush();
        if (!w->ok())
            return w->error();
    }
    for (AtomicWriter *w : {entries, summaryFile.get()})
        if (w)
            if (Status s = w->commit(); !s)
                return s;
    if (!entries && !summaryFile)
        std::cout << summaryJson;
    return Ok{};
}

} // namespace

int runReplay(int argc, char **argv, int first)
{
    Args args(argc, argv, first);
    if (std::string e = replayOptionsProblem(args); !e.empty())
        return fail(e);
    Result<std::unique_ptr<Governor>> made = makeReplayGovernor(args);
    if (!made)
        return fail(made.error());
    std::unique_ptr<Governor> gov = std::move(*made);
    const std::string variant = gov->variant().id;
    if (Status s = applySettings(*gov, args.all("set")); !s)
        return fail(s.error());
    Result<IdleStateTable> table = resolveTable(args.value("table"));
    if (!table)
        return fail(table.error());
    Result<IdleStream> stream = oneStreamFromArgs(args, false, "replay");
    if (!stream)
        return fail(stream.error());
    if (Status s = checkReplayOutputs(args); !s)
        return fail(s.error());
    // The entries are written as they are made: one long span under a zero
    // latency limit makes gigabytes of them.
    std::unique_ptr<AtomicWriter> entries;
    if (!args.value("entries").empty()) {
        entries = std::make_unique<AtomicWriter>(args.value("entries"));
        entries->append(std::string(ENTRIES_CSV_HEADER) + "\n");
        if (!entries->ok())
            return fail(entries->error());
    }
    if (Status s = prepareSourceGovernor(*gov, *table, *stream); !s)
        return fail(s.error());
    std::string row;
    const ReplaySummary summary = replayStream(*table, *stream, *gov, [&](const EntryRecord &e, const Governor &) {
        if (entries) {
            row.clear();
            appendEntryCsv(row, e);
            entries->append(row);
        }
    });
    if (Status s = finishSourceGovernor(*gov, summary); !s)
        return fail(s.error());
    if (Status s = writeReplayOutputs(args, entries.get(), formatSummaryJson(summary, *table, variant)); !s)
        return fail(s.error());
    return 0;
}

} // namespace idlescope::cli
