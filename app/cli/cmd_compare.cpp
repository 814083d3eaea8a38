// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli compare: a target's table, a workload, several governors, and
 * the kernel threads' table of usage / above / below / idle misses, per
 * (workload point, governor, iteration) with mean/min/max over iterations.
 * The work is core/experiments/comparison.h; this file reads options and
 * writes the result.
 */
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/compare_machine.h"
#include "app/cli/input_paths.h"
#include "app/cli/source_args.h"
#include "app/cli/stream_args.h"

#include "core/experiments/comparison.h"
#include "core/formats/csv_fields.h"
#include "core/formats/stream_csv.h"
#include "core/io/atomic_file.h"
#include "core/io/comparison_shard.h"
#include "core/targets/builtin_targets.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace idlescope::cli {

const char *const COMPARE_HELP =
    "usage: idlescope-cli compare --table ID|FILE --workload SPEC --governors A,B,...\n"
    "                             [--iterations N] [--seed S] [--spans N] [--duration S] [--hz HZ]\n"
    "                             [--set [GOVERNOR:]NAME=VALUE]... [--format md|csv|json]\n"
    "                             [--aggregates-only] [--threads N] [--output FILE]\n"
    "                             [--export-streams DIR] [--shard K/N] [--timeout SECONDS]\n"
    "       idlescope-cli compare --list-targets | --list-workloads\n\n"
    "Generates the workload's idle spans (seeded: the same seed gives the same spans), replays\n"
    "them through each governor and through the oracle in the reference replay, and prints one\n"
    "row per (workload point, governor, iteration), then mean, min and max over iterations.\n\n"
    "  --table T          a built-in target id (--list-targets), a table JSON file, a file of\n"
    "                     pasted 'cpupower idle-info' output, this-machine (sysfs of cpu0), or\n"
    "                     sysfs:ROOT[:CPU] for a copied /sys/devices/system/cpu tree\n"
    "  --workload SPEC    a workload spec (below), or csv:FILE to replay a stream file\n"
    "  --trace TRACE      instead of --workload: the idle spans of a recorded trace (ftrace,\n"
    "                     trace-cmd report or .dat, perf script; see 'help import')\n"
    "  --cpu N            with --trace: that CPU only, on one CPU's table as with --workload\n"
    "                     (without --cpu every CPU of the trace replays at once: below)\n"
    "  --governors LIST   comma-separated variant ids (idlescope-cli governors); LABEL=VARIANT\n"
    "                     names an instance of its own, to compare a variant with itself at\n"
    "                     other tunables: --governors menu-6.19,i16=menu-6.19 --set i16:INTERVALS=16\n"
    "                     (rows show the label; one CPU or a closed loop)\n"
    "                     src:FILE.c[@VERSION] is a kernel governor source file, built and run\n"
    "                     as replay's --governor-source (docs/testing-your-patch.md)\n"
    "  --iterations N     seeded repetitions per point (default 3)\n"
    "  --seed S           base seed (default 1); run seeds derive from (S, point, iteration)\n"
    "  --spans N          idle spans per run (default 10000); on a machine, those of the\n"
    "                     busiest workload CPU, whose time every CPU then covers\n"
    "  --duration S       with --machine and --workload: the run covers S seconds (up to 3\n"
    "                     decimals) of wall-clock time; every CPU generates idle spans until\n"
    "                     its busy + idle time reaches it (instead of --spans, whose N spans on\n"
    "                     the busiest workload CPU set the duration the others cover)\n"
    "  --hz HZ            override the table's tick rate (CONFIG_HZ)\n"
    "  --wake-delays FILE a wult datapoints.csv of measured wakeups: each ReqCState's mean\n"
    "                     WakeLatency becomes that state's wake delay (the time a woken task\n"
    "                     waits, which throughput and energy use; governors still read the\n"
    "                     table's exit latency). A table JSON may give wake_delay_ns per state\n"
    "  --set NAME=VALUE   a tunable for every listed governor that has it; GOVERNOR:NAME=VALUE\n"
    "                     for one (GOVERNOR: its label; an instance listed without one is\n"
    "                     named by its variant id); repeated for more, each NAME once\n"
    "  --format F         md (default), csv or json\n"
    "  --aggregates-only  print only the mean/min/max rows\n"
    "  --threads N        worker threads (default 2)\n"
    "  --timeout SECONDS  with a src: governor: a governor that makes no progress for that\n"
    "                     long is stopped as hung (default 10)\n"
    "  --output FILE      write there (atomically) instead of stdout\n"
    "  --export-streams DIR  also write each generated stream as DIR/p<point>-i<iteration>.csv\n"
    "                     (the conformance stream format; replay them with --workload csv:FILE)\n"
    "  --shard K/N        run only part K of N of the work (every N-th (point, iteration) unit)\n"
    "                     and write a shard file (JSON) instead of the table; 'idlescope-cli merge'\n"
    "                     of the N shard files prints exactly the unsharded table (docs/sweeps.md)\n\n"
    "A whole machine (--trace without --cpu, or --machine): every CPU replays with its cluster's\n"
    "table and a governor instance of its own, in parallel; rows per (run, CPU) and summed over\n"
    "the CPUs as the sysfs files would be (cpu 'all'). For a trace the kernel's own choices are\n"
    "the first run, 'recorded' (above/below from cpu_idle_miss, else recomputed against the table).\n"
    "  --machine M        a built-in machine (rk3399: CPUs 0-3 Cortex-A53 + 4-5 Cortex-A72;\n"
    "                     juno-r0: CPUs 0,3,4,5 Cortex-A53 + 1,2 Cortex-A57, with LISA's power\n"
    "                     numbers), or a CPU count N of --table; with --workload every CPU gets the\n"
    "                     workload with a seed of its own (one point, no sweep)\n"
    "  --workload-cpus L  with --machine: the CPUs running --workload (default: 0..N-1 for its\n"
    "                     cpus=N, else all); the others run --background SPEC (default 'idle':\n"
    "  --background SPEC  an idle system's housekeeping timers and rare device interrupts under\n"
    "                     nohz, with in-idle wakeups) over the same duration (--duration)\n"
    "  --cpus each|sum    per-CPU rows and the sum (default), or the sum only\n"
    "  --per-state        also above_<state>, below_<state>, above_pct_<state> (of its usage);\n"
    "                     also on one CPU, like --power and --throughput (duration_ms, wakeups_per_s)\n"
    "  --power ITEM       power data: STATE=NUMBERmW (while in STATE), STATE=NUMBERuJ (one entry\n"
    "                     plus exit), active=NUMBERmW; repeatable; a table JSON file may carry\n"
    "                     power_mw / entry_exit_energy_uj per state and active_power_mw\n"
    "  --energy-model FILE  power data from idlestat's energy-model file: cluster A on the first\n"
    "                     cluster (or the one CPU), B on the second...: C-state core power as the\n"
    "                     state's mW, cluster power as the cluster view's, the fastest P-state's\n"
    "                     core power as active; --power items apply over it\n"
    "  --recorded-governor NAME|@FILE  the governor that ran when the trace was recorded (a\n"
    "                     label), or @FILE: a saved current_governor (the sysfs file's word, or a\n"
    "                     'current_governor: NAME' line); default: TRACE.governor, which\n"
    "                     'idlescope-cli record' saves beside the trace (no trace format has it)\n"
    "  --agreement VARIANT  with --trace (every CPU), in place of --governors: how often VARIANT,\n"
    "                     replayed on the machine's own tables, enters the state the kernel entered:\n"
    "                     the share per CPU and summed, the confusion matrix (recorded state x\n"
    "                     simulated state) and the first disagreements with their trace timestamps\n"
    "                     as text, or JSON with --format json (other formats are refused); needs\n"
    "                     the recorded governor (above)\n"
    "  --cluster-view     also the time every CPU of a cluster was idle, per cluster state (the\n"
    "                     shallowest state of its CPUs), as idlestat prints it\n"
    "  --closed-loop SPEC instead of --workload: a closed loop whose next event waits for the CPU's\n"
    "                     real wakeup, so duration, ops/s and added latency follow the governor:\n"
    "                     io:service_us=S,work_us=W[,iodepth=N][,jitter_us=J][,ops=N] (one CPU)\n"
    "                     pingpong:work_us=W[,peer_work_us=P][,ops=N] (CPUs 0 and 1)\n"
    "Machine columns add duration_ms, wakeups_per_s, idle_energy_J (time x state power + entries x\n"
    "entry/exit energy) and energy_J (+ busy time x active power), or 'no power data'.\n\n"
    "Columns (kernel-thread names): entries (idle entries = select calls), spans, usage_<state>,\n"
    "above, below, idle_misses (above + below), idle_miss_ratio (misses / entries), above_pct and\n"
    "below_pct (of entries), time_pct_<state> (share of idle time), oracle_above, oracle_below,\n"
    "oracle_misses (the oracle governor on the same spans: the floor), wakeups (spans ended by a\n"
    "non-timer event) and latency_cost_us (wake delay paid on those wakeups).\n\n"
    "Workload spec grammar (see docs/workloads.md):\n"
    "  spec      := term { '+' term }            overlay: the terms' wakeups on one CPU\n"
    "  term      := generator | mix(member { | member } [;block=N])\n"
    "  member    := [WEIGHT*] spec               chosen with probability WEIGHT/sum, N spans a draw\n"
    "  generator := NAME[:KEY=VALUE{,KEY=VALUE}]\n"
    "  VALUE     := NUMBER | WORD | FROM..TO:POINTS (linear sweep) | V1/V2/... (list sweep,\n"
    "               numbers or words: io:device=emmc/nvme/sata)\n"
    "At most one parameter may be swept; each value is a workload point. Durations are in us\n"
    "(up to 3 decimals), shares in %. Every generator also takes latency_req_us, util and cpus\n"
    "(the CPUs of a --machine that run it; the others run --background).\n"
    "Generators: periodic, sweep, duty, poisson, bimodal, tick, idle, io, pingpong, video,\n"
    "server, pgbench, net (parameters, defaults and ranges: idlescope-cli compare --list-workloads).\n\n"
    "Examples:\n"
    "  idlescope-cli compare --table pseries-power10-lpar --governors menu-6.14,teo-6.14 \\\n"
    "      --workload 'periodic:kind=ipi,interval_us=30..100:8,jitter_us=1'\n"
    "  idlescope-cli compare --table intel-skx --governors menu-6.14,teo-6.14,menu-latest \\\n"
    "      --workload 'sweep:kind=pipe' --spans 100000 --format csv\n"
    "  idlescope-cli compare --table sm8250-gold --governors teo-latest \\\n"
    "      --workload 'video:fps=60 + io:device=emmc'\n";

namespace {

std::vector<std::string> splitList(const std::string &s)
{
    std::vector<std::string> out;
    size_t b = 0;
    while (b <= s.size()) {
        const size_t c = s.find(',', b);
        std::string item = s.substr(b, c == std::string::npos ? std::string::npos : c - b);
        if (!item.empty())
            out.push_back(item);
        if (c == std::string::npos)
            break;
        b = c + 1;
    }
    return out;
}

Result<std::int64_t> intOption(const Args &args, const std::string &name, std::int64_t def, std::int64_t lo,
                               std::int64_t hi)
{
    if (!args.has(name))
        return def;
    const std::string v = args.value(name);
    const auto n = csv::parseInt(v);
    if (!n || *n < lo || *n > hi)
        return Error{"--" + name, 0, "",
                     "'" + v + "' is not a whole number in " + std::to_string(lo) + ".." + std::to_string(hi)};
    return *n;
}

void listTargets()
{
    for (const BuiltinTargetInfo &t : builtinTargets())
        std::cout << t.id << std::string(t.id.size() < 22 ? 22 - t.id.size() : 1, ' ') << t.stateCount << " states, "
                  << t.tickHz << " Hz  " << t.label << "\n"
                  << std::string(22, ' ') << "source: " << t.source << '\n';
    std::cout << "\nAliases: pseries-p10 = power10-lpar = pseries-power10-lpar, acpi-idle = acpi-generic.\n"
                 "Also: this-machine, sysfs:ROOT[:CPU], a table JSON file, a cpupower idle-info text file.\n";
}

} // namespace

std::optional<experiments::CompareFormat> compareFormat(const std::string &name)
{
    if (name == "md")
        return experiments::CompareFormat::Markdown;
    if (name == "csv")
        return experiments::CompareFormat::Csv;
    if (name == "json")
        return experiments::CompareFormat::Json;
    return std::nullopt;
}

/// --duration S: seconds with up to 3 decimals (ms), 0.001..86400, as ns; 0 when not given.
Result<Ns> durationOption(const Args &args)
{
    if (!args.has("duration"))
        return Ns(0);
    const std::string text = args.value("duration");
    const size_t dot = text.find('.');
    const std::string whole = text.substr(0, dot);
    const std::string frac = dot == std::string::npos ? std::string() : text.substr(dot + 1);
    const auto digits = [](const std::string &s) {
        return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const bool shaped = !whole.empty() && whole.size() <= 5 && digits(whole) && frac.size() <= 3 && digits(frac)
                        && (dot == std::string::npos || !frac.empty());
    const Ns ms = shaped ? std::stoll(whole) * 1000 + std::stoll(frac + std::string(3 - frac.size(), '0')) : 0;
    if (!shaped || ms < 1 || ms > 86400 * 1000)
        return Error{"", 0, "--duration", "'" + text + "' is not seconds (up to 3 decimals) in 0.001..86400"};
    return ms * 1000 * NSEC_PER_USEC;
}

int runCompare(int argc, char **argv, int first)
{
    Args args(argc, argv, first,
              {"aggregates-only", "list-targets", "list-workloads", "per-state", "cluster-view", "throughput"});
    if (std::string e =
            args.check({"table",        "workload",        "governors",   "iterations",    "seed",
                        "spans",        "duration",        "hz",          "wake-delays",   "set",
                        "format",       "aggregates-only", "threads",     "output",        "export-streams",
                        "list-targets", "list-workloads",  "trace",       "cpu",           "machine",
                        "cpus",         "per-state",       "power",       "energy-model",  "recorded-governor",
                        "cluster-view", "throughput",      "closed-loop", "workload-cpus", "background",
                        "shard",        "timeout",         "agreement"},
                       0, "compare");
        !e.empty())
        return fail(e);
    if (args.has("list-targets")) {
        listTargets();
        return 0;
    }
    if (args.has("list-workloads")) {
        std::cout << workloads::workloadReference();
        return 0;
    }
    if (args.has("cpu") && !args.has("trace"))
        return fail(Error{"", 0, "--cpu", "only applies with --trace (a recorded trace's CPU)"});
    if (args.has("agreement") && (!args.has("trace") || args.has("cpu") || args.has("governors")))
        return fail(Error{"", 0, "--agreement",
                          "goes with --trace (every CPU, no --cpu) and names the one variant to compare with "
                          "the kernel's choices, in place of --governors"});
    const bool closedLoop = args.has("closed-loop");
    const char *governorsOption = args.has("agreement") ? "agreement" : "governors";
    for (const char *required : {wantsMachineCompare(args) || closedLoop ? governorsOption : "table",
                                 closedLoop          ? "closed-loop"
                                 : args.has("trace") ? "trace"
                                                     : "workload",
                                 governorsOption})
        if (!args.has(required))
            return fail(std::string("missing --") + required + " (see idlescope-cli help compare)");

    const std::optional<experiments::CompareFormat> format = compareFormat(args.value("format", "md"));
    if (!format)
        return fail("--format: '" + args.value("format") + "' is not md, csv or json");
    const experiments::CompareFormat fmt = *format;
    // The same option and check as replay's --timeout, for the src: governors of the list.
    Result<int> timeout = sourceTimeoutFromArgs(args);
    if (!timeout)
        return fail(timeout.error());
    if (args.has("timeout")) {
        const Result<std::vector<experiments::GovernorInstance>> listed =
            experiments::parseGovernorList(splitList(args.value("governors")));
        if (listed && std::none_of(listed->begin(), listed->end(), [](const experiments::GovernorInstance &gi) {
                return isSourceGovernorId(gi.variant);
            }))
            return fail("--timeout goes with a src: governor in --governors");
    }

    // The files compare reads (the table, a trace and the governor beside it, csv:FILE,
    // src: governors and their headers, --energy-model, --recorded-governor @FILE); no
    // output may be one of them (device + inode, links followed).
    const std::string workload = args.value("workload");
    const std::vector<std::string> inputs = inputPaths(args, {"output", "export-streams"});

    if (wantsMachineCompare(args) || closedLoop) {
        if (args.has("output"))
            if (Status s = checkDistinctPaths(inputs, {args.value("output")}); !s)
                return fail(s.error());
        if (args.has("trace") && args.has("workload"))
            return fail("give either --workload or --trace, not both");
        Result<std::int64_t> seed = intOption(args, "seed", 1, 0, INT64_MAX);
        Result<std::int64_t> spans = intOption(args, "spans", 10000, 1, 10000000);
        Result<std::int64_t> threads = intOption(args, "threads", 2, 1, 256);
        Result<std::int64_t> hz = intOption(args, "hz", 250, 24, 10000);
        for (const auto *r : {&seed, &spans, &threads, &hz})
            if (!*r)
                return fail(r->error());
        Result<Ns> duration = durationOption(args);
        if (!duration)
            return fail(duration.error());
        if (args.has("duration") && (!args.has("machine") || !args.has("workload")))
            return fail("--duration is for a generated workload on a machine (--machine with --workload)");
        if (args.has("duration") && args.has("spans"))
            return fail("give either --duration or --spans on a machine, not both");
        for (const char *single : {"iterations", "export-streams", "aggregates-only", "shard"})
            if (args.has(single))
                return fail(std::string("--") + single
                            + (closedLoop ? " is for a replayed workload; a closed loop runs once"
                                          : " is for one CPU; a machine compare runs once"));
        MachineCliOptions mo;
        mo.format = fmt;
        mo.governors = splitList(args.value("governors"));
        Result<std::vector<experiments::GovernorInstance>> instances = experiments::parseGovernorList(mo.governors);
        if (!instances)
            return fail(inCliTerms(instances.error()));
        // A closed loop runs each instance on a machine of its own, so A/B labels apply there.
        for (const experiments::GovernorInstance &gi : *instances)
            if (gi.label != gi.variant && !closedLoop)
                return fail(Error{"--governors", 0, gi.label + "=" + gi.variant,
                                  "a label (LABEL=VARIANT) is for one CPU; a machine compare runs each variant once"});
        mo.instances = std::move(*instances);
        mo.settings = args.all("set");
        mo.seed = static_cast<std::uint64_t>(*seed);
        mo.spans = static_cast<std::size_t>(*spans);
        mo.durationNs = *duration;
        mo.threads = static_cast<int>(*threads);
        if (args.has("hz"))
            mo.hz = static_cast<int>(*hz);
        return closedLoop ? runClosedLoopCompare(args, mo) : runMachineCompare(args, mo);
    }
    for (const char *machineOnly :
         {"cpus", "recorded-governor", "cluster-view", "workload-cpus", "background", "duration"})
        if (args.has(machineOnly))
            return fail(std::string("--") + machineOnly + " needs a machine (--machine, or --trace without --cpu)");

    experiments::CompareOptions o;
    Result<IdleStateTable> table = resolveTable(args.value("table"));
    if (!table)
        return fail(table.error());
    o.table = std::move(*table);
    if (args.has("hz")) {
        Result<std::int64_t> hz = intOption(args, "hz", 250, 24, 10000);
        if (!hz)
            return fail(hz.error());
        if (Status s = o.table.setTickHz(static_cast<int>(*hz)); !s)
            return fail(s.error());
    }
    if (Status s = applyWakeDelays(args, o.table); !s)
        return fail(s.error());

    if (args.has("trace") && args.has("workload"))
        return fail("give either --workload or --trace, not both");
    if (args.has("trace") || workload.rfind("csv:", 0) == 0) {
        // A fixed stream: one CPU of a trace, or a stream file (core/scenario resolves both).
        scenario::WorkloadSource source;
        source.kind = scenario::WorkloadKind::Csv;
        source.path = workload.substr(std::min<std::size_t>(4, workload.size()));
        if (args.has("trace")) {
            Result<scenario::WorkloadSource> traced = traceSource(args.value("trace"), args.value("cpu"));
            if (!traced)
                return fail(traced.error());
            source = std::move(*traced);
        }
        Result<IdleStream> stream = streamOfSource(source, "compare");
        if (!stream)
            return fail(stream.error());
        o.fixedStream = std::move(*stream);
        o.fixedStreamLabel = args.has("trace") ? "trace:" + args.value("trace") : workload;
    } else {
        Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(workload);
        if (!spec)
            return fail(inCliTerms(spec.error()));
        o.workload = std::move(*spec);
    }
    o.governors = splitList(args.value("governors"));
    o.settings = args.all("set");
    o.perState = args.has("per-state");
    o.throughput = args.has("throughput");
    if (Result<PowerModel> power = tablePower(args, o.table); power)
        o.power = std::move(*power);
    else
        return fail(power.error());

    // A fixed stream gives the same numbers every time: one iteration unless asked.
    Result<std::int64_t> iterations = intOption(args, "iterations", o.fixedStream.empty() ? 3 : 1, 1, 1000);
    Result<std::int64_t> seed = intOption(args, "seed", 1, 0, INT64_MAX);
    Result<std::int64_t> spans = intOption(args, "spans", 10000, 1, 10000000);
    Result<std::int64_t> threads = intOption(args, "threads", 2, 1, 256);
    for (const auto *r : {&iterations, &seed, &spans, &threads})
        if (!*r)
            return fail(r->error());
    o.iterations = static_cast<int>(*iterations);
    o.seed = static_cast<std::uint64_t>(*seed);
    o.spans = static_cast<std::size_t>(*spans);
    o.threads = static_cast<int>(*threads);
    o.sourceTimeoutSeconds = *timeout;

    // Refuse bad destinations before the runs, not after them, and never
    // write over a file that is read.
    if (args.has("export-streams") && !o.fixedStream.empty())
        return fail(Error{"", 0, "--export-streams",
                          "the workload is a stream file or a trace: there is no "
                          "generated stream to export"});
    std::vector<std::string> outputs;
    if (args.has("output")) {
        if (Status s = checkOutputPath(args.value("output")); !s)
            return fail(s.error());
        outputs.push_back(args.value("output"));
    }
    const std::string exportDir = args.value("export-streams");
    auto streamName = [&](int p, int it) { return "p" + std::to_string(p) + "-i" + std::to_string(it + 1) + ".csv"; };
    if (args.has("export-streams")) {
        std::error_code ec;
        if (std::filesystem::exists(exportDir, ec) && !std::filesystem::is_directory(exportDir, ec))
            return fail(Error{exportDir, 0, "--export-streams", "exists and is not a folder"});
        for (int p = 0; p < o.workload.pointCount(); ++p)
            for (int it = 0; it < o.iterations; ++it)
                outputs.push_back((std::filesystem::path(exportDir) / streamName(p, it)).string());
    }
    if (Status s = checkDistinctPaths(inputs, outputs); !s)
        return fail(s.error());

    if (args.has("shard")) {
        Result<std::pair<int, int>> shard = parseShard(args.value("shard"));
        if (!shard)
            return fail(inCliTerms(shard.error()));
        if (args.has("format") || args.has("aggregates-only"))
            return fail("--shard writes a shard file; give --format and --aggregates-only to 'merge'");
        o.shardIndex = shard->first;
        o.shardCount = shard->second;
    }

    Result<experiments::CompareResult> result = experiments::runComparison(o);
    if (!result)
        return fail(inCliTerms(result.error()));
    for (const std::string &note : result->notes)
        std::cerr << "compare: " << note << '\n';
    const std::string text = args.has("shard")
                                 ? formatComparisonShard(o, *result)
                                 : experiments::formatComparison(o, *result, fmt, args.has("aggregates-only"));

    // The result file is written (not yet renamed) first, then the streams,
    // one at a time, then the result is put in place.
    std::unique_ptr<AtomicWriter> output;
    if (args.has("output")) {
        output = std::make_unique<AtomicWriter>(args.value("output"));
        output->append(text);
        output->flush();
        if (!output->ok())
            return fail(output->error());
    }
    if (args.has("export-streams")) {
        const int points = o.workload.pointCount();
        const auto count = static_cast<std::size_t>(points) * static_cast<std::size_t>(o.iterations);
        Status s = writeFilesIntoFolder(exportDir, count, [&](std::size_t i) {
            const int p = static_cast<int>(i / static_cast<std::size_t>(o.iterations));
            const int it = static_cast<int>(i % static_cast<std::size_t>(o.iterations));
            const IdleStream stream = workloads::seededStream(o.workload, p, it, o.seed, o.spans);
            return std::pair{streamName(p, it), formatStreamCsv(stream)};
        });
        if (!s)
            return fail(s.error());
    }
    if (output) {
        if (Status s = output->commit(); !s)
            return fail(s.error());
    } else {
        std::cout << text;
    }
    return 0;
}

} // namespace idlescope::cli
