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
#include "core/scenario/scenario_command.h"
#include "core/scenario/scenario_comparison.h"
#include "core/stream/latency_limit.h"
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
    "                             [--latency-limit US] [--wake-delays FILE]\n"
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
    "                     table's exit latency); a table JSON may give wake_delay_ns per state\n"
    "                     instead (docs/workloads.md, \"The wake delay\")\n"
    "  --latency-limit US the PM QoS resume-latency limit of every span (us, up to 3 decimals),\n"
    "                     in place of the workload's latency_req_us or the stream's column, on\n"
    "                     one CPU or every CPU (the window's latency slider); not a closed loop\n"
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
    "                     workload with a seed of its own; a sweep runs the machine once per\n"
    "                     point, a block of rows each labelled by its point (no --iterations)\n"
    "  --workload-cpus L  with --machine: the CPUs running --workload (default: 0..N-1 for its\n"
    "                     cpus=N, else all); the others run --background SPEC (default 'idle':\n"
    "  --background SPEC  an idle system's housekeeping timers and rare device interrupts under\n"
    "                     nohz, with in-idle wakeups) over the same duration (--duration)\n"
    "  --cpus each|sum    per-CPU rows and the sum (default), or the sum only; a closed loop\n"
    "                     prints a row per governor (sum), and with each also its CPUs' rows\n"
    "  --per-state        also above_<state>, below_<state>, above_pct_<state> (of its usage);\n"
    "                     also on one CPU, like --power and --throughput (duration_ms, wakeups_per_s);\n"
    "                     a closed loop adds these rows (--cpus sum: each run's sum) below its table\n"
    "                     (md, json; a CSV file holds one table)\n"
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
    "                     io:device=D|service_us=S,work_us=W[,iodepth=N][,ops=N] (CPU 0):\n"
    "                     device=nvme|sata|emmc|mtd|nullblk|dmdelay draws each request's time\n"
    "                     as the open loop's io does (base + exponential tail; custom with\n"
    "                     base_us=B,tail_us=T, default 100 and 20); service_us=S[,jitter_us=J]\n"
    "                     is a fixed S us +/- J uniform (not with device=); ops default 10000\n"
    "                     per job; numjobs=J (default 1): CPUs 0..J-1 each run such a loop;\n"
    "                     irq=auto|local|cpu0 (auto: cpu0 for sata, emmc, mtd, else local):\n"
    "                     cpu0 runs hardirq_us=H (default 5) on CPU 0 per completion of the\n"
    "                     other CPUs, then wakes the submitter (docs/workloads.md);\n"
    "                     next_timer_us=T (default 10000, 0 = none): each loop CPU's next\n"
    "                     unrelated timer, drawn in [T/2, 3T/2] as the open loop's io draws it;\n"
    "                     waits=K (default 0: the device's, 4 for mtd, else 1) splits each\n"
    "                     request's time into K waits as the open loop's io does, each\n"
    "                     completion waking the task, which runs wait_cpu_us=C (default 10)\n"
    "                     before the next; added latency sums the waits' delays\n"
    "                     pingpong:work_us=W[,peer_work_us=P][,ops=N] (CPUs 0 and 1)\n"
    "                     The machine's other CPUs run --background (default idle; none: nothing)\n"
    "Machine columns add duration_ms, wakeups_per_s, iops (the io jobs' I/Os completed per second:\n"
    "each submitting CPU's over its duration, the sum's over the longest job's; device=mtd or\n"
    "waits=N counts one I/O per N completions; 'no io jobs' elsewhere), idle_energy_J (time x\n"
    "state power + entries x entry/exit energy) and energy_J (+ entering, waking and busy time x\n"
    "active power; a closed loop adds its CPUs' clusters and prices every governor over the\n"
    "slowest run's duration), or 'no power data'.\n\n"
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
    "server, pgbench, net, cpuidle_wakeup, schbench, sqlite (parameters, defaults and ranges:\n"
    "idlescope-cli compare --list-workloads).\n\n"
    "Examples:\n"
    "  idlescope-cli compare --table pseries-power10-lpar --governors menu-6.14,teo-6.14 \\\n"
    "      --workload 'periodic:kind=ipi,interval_us=30..100:8,jitter_us=1'\n"
    "  idlescope-cli compare --table intel-skx --governors menu-6.14,teo-6.14,menu-latest \\\n"
    "      --workload 'sweep:kind=pipe' --spans 100000 --format csv\n"
    "  idlescope-cli compare --table sm8250-gold --governors teo-latest \\\n"
    "      --workload 'video:fps=60 + io:device=emmc'\n";

namespace {

/// Every option compare knows; "latency-limit" and the rest of the scenario's are read by
/// core/scenario/scenario_command.h, the others here.
const std::vector<std::string> COMPARE_OPTIONS = {"table",
                                                  "workload",
                                                  "governors",
                                                  "iterations",
                                                  "seed",
                                                  "spans",
                                                  "duration",
                                                  "hz",
                                                  "set",
                                                  "format",
                                                  "aggregates-only",
                                                  "threads",
                                                  "output",
                                                  "export-streams",
                                                  "list-targets",
                                                  "list-workloads",
                                                  "trace",
                                                  "cpu",
                                                  "machine",
                                                  "cpus",
                                                  "per-state",
                                                  "power",
                                                  "energy-model",
                                                  "recorded-governor",
                                                  "cluster-view",
                                                  "throughput",
                                                  "closed-loop",
                                                  "workload-cpus",
                                                  "background",
                                                  "shard",
                                                  "timeout",
                                                  "agreement",
                                                  "latency-limit",
                                                  "wake-delays"};

/// --@p name as a whole number, as the scenario's options are read (scenario_command.h).
Result<std::int64_t> intOption(const Args &args, const std::string &name, std::int64_t def, std::int64_t lo,
                               std::int64_t hi)
{
    return scenario::wholeNumberOption(args.options(), name, def, lo, hi);
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

/// Which options go together: said before the scenario is read, in the words of compare's help.
Status checkOptionsGoTogether(const Args &args)
{
    if (args.has("cpu") && !args.has("trace"))
        return Error{"", 0, "--cpu", "only applies with --trace (a recorded trace's CPU)"};
    if (args.has("agreement") && (!args.has("trace") || args.has("cpu") || args.has("governors")))
        return Error{"", 0, "--agreement",
                     "goes with --trace (every CPU, no --cpu) and names the one variant to compare with "
                     "the kernel's choices, in place of --governors"};
    const bool closedLoop = args.has("closed-loop");
    const char *governorsOption = args.has("agreement") ? "agreement" : "governors";
    for (const char *required : {wantsMachineCompare(args) || closedLoop ? governorsOption : "table",
                                 closedLoop          ? "closed-loop"
                                 : args.has("trace") ? "trace"
                                                     : "workload",
                                 governorsOption})
        if (!args.has(required))
            return Error{"", 0, "", std::string("missing --") + required + " (see idlescope-cli help compare)"};
    if (closedLoop && (args.has("trace") || args.has("workload")))
        return Error{"", 0, "", "--closed-loop is the workload: give it without --trace or --workload"};
    if (closedLoop && args.has("latency-limit"))
        return Error{"", 0, "--latency-limit",
                     "a closed loop makes its spans as it runs, with no latency column to limit"};
    if (args.has("trace") && args.has("workload"))
        return Error{"", 0, "", "give either --workload or --trace, not both"};
    return Ok{};
}

/// The scenario compare's options name (core/scenario reads them), its errors in the CLI's
/// terms; --agreement VARIANT is the one governor, with the --set items that apply to it.
Result<scenario::Scenario> scenarioFromArgs(const Args &args)
{
    std::vector<scenario::CommandOption> options = args.options();
    if (args.has("agreement"))
        options.emplace_back("governors", args.value("agreement"));
    return inCliTerms(scenario::scenarioFromOptions(options));
}

/// --timeout is for a src: governor of the list.
Status checkTimeoutOption(const Args &args, const scenario::Scenario &s)
{
    if (args.has("timeout") && std::none_of(s.governors.begin(), s.governors.end(), [](const auto &g) {
            return isSourceGovernorId(g.variant);
        }))
        return Error{"", 0, "", "--timeout goes with a src: governor in --governors"};
    return Ok{};
}

/// compare on a machine (--machine, or --trace without --cpu) or a closed loop: checks what
/// only one CPU has, then compare_machine.cpp runs the scenario.
int runMachineOrLoop(const Args &args, scenario::Scenario s, experiments::CompareFormat format,
                     const std::vector<std::string> &inputs)
{
    const bool closedLoop = args.has("closed-loop");
    if (args.has("output"))
        if (Status st = checkDistinctPaths(inputs, {args.value("output")}); !st)
            return fail(st.error());
    Result<std::int64_t> threads = intOption(args, "threads", 2, 1, 256);
    if (!threads)
        return fail(threads.error());
    if (args.has("duration") && (!args.has("machine") || !args.has("workload")))
        return fail("--duration is for a generated workload on a machine (--machine with --workload)");
    if (args.has("duration") && args.has("spans"))
        return fail("give either --duration or --spans on a machine, not both");
    for (const char *single : {"iterations", "export-streams", "aggregates-only", "shard"})
        if (args.has(single))
            return fail(std::string("--") + single
                        + (closedLoop ? " is for a replayed workload; a closed loop runs once"
                                      : " is for one CPU; a machine compare runs once"));
    // What a closed loop has no use for, refused with the reason rather than left unread.
    const std::pair<const char *, const char *> notForLoop[] = {
        {"spans", "a closed loop makes its spans as it runs, for its ops= operations"},
        {"workload-cpus", "a closed loop runs on CPUs 0..numjobs-1 (pingpong: 0 and 1), --background on the others"},
        {"cluster-view", "a closed loop keeps no entry intervals to build the cluster view from"},
        {"throughput", "a closed loop's table has its throughput already (ops_per_s, duration_ms)"},
        {"recorded-governor", "it names the governor of a --trace, and a closed loop replays none"}};
    if (closedLoop)
        for (const auto &[option, why] : notForLoop)
            if (args.has(option))
                return fail(std::string("--") + option + ": " + why);
    // A closed loop's per-CPU rows follow its table of governors: CSV holds one table.
    if (closedLoop && format == experiments::CompareFormat::Csv
        && (args.has("per-state") || args.value("cpus", "sum") == "each"))
        return fail(std::string(args.has("per-state") ? "--per-state" : "--cpus each")
                    + " adds a closed loop's per-CPU rows as a second table, and a CSV file holds one: give "
                      "--format md or json");
    // A closed loop runs each instance on a machine of its own, so A/B labels apply there.
    for (const scenario::GovernorInstance &g : s.governors)
        if (!g.label.empty() && !closedLoop)
            return fail(Error{"--governors", 0, g.label + "=" + g.variant,
                              "a label (LABEL=VARIANT) is for one CPU; a machine compare runs each variant once"});
    MachineCliOptions mo;
    mo.format = format;
    mo.threads = static_cast<int>(*threads);
    mo.scenario = std::move(s);
    return closedLoop ? runClosedLoopCompare(args, mo) : runMachineCompare(args, mo);
}

/// The one-CPU comparison of @p s on --table (core/scenario resolves it): the table, with its
/// power data, the stream file or trace CPU read here (with its warnings and CPU said on
/// stderr), and compare's own options: --per-state, --throughput, --iterations, --threads.
Result<experiments::CompareOptions> oneCpuOptions(const Args &args, scenario::Scenario s)
{
    Result<IdleStateTable> table = resolveTable(args.value("table"));
    if (!table)
        return table.error();
    s.table = std::move(*table);
    std::optional<IdleStream> stream;
    if (s.workload.kind == scenario::WorkloadKind::Csv || s.workload.kind == scenario::WorkloadKind::Trace) {
        Result<IdleStream> read = streamOfSource(s.workload, "compare");
        if (!read)
            return read.error();
        stream = std::move(*read);
    }
    Result<experiments::CompareOptions> o = inCliTerms(scenario::oneCpuComparison(s, std::move(stream)));
    if (!o)
        return o;
    o->perState = args.has("per-state");
    o->throughput = args.has("throughput");
    Result<PowerModel> power = tablePower(args, o->table);
    if (!power)
        return power.error();
    o->power = std::move(*power);
    Result<std::int64_t> iterations = intOption(args, "iterations", o->iterations, 1, 1000);
    Result<std::int64_t> threads = intOption(args, "threads", 2, 1, 256);
    for (const auto *r : {&iterations, &threads})
        if (!*r)
            return r->error();
    o->iterations = static_cast<int>(*iterations);
    o->threads = static_cast<int>(*threads);
    return o;
}

/// "p<point>-i<iteration>.csv": a generated stream's name in --export-streams' folder.
std::string exportedStreamName(int point, int iteration)
{
    return "p" + std::to_string(point) + "-i" + std::to_string(iteration + 1) + ".csv";
}

/// The files compare writes (--output, --export-streams' streams), refused before the runs
/// when a folder is a file or an output is an input; --shard read into @p o.
Result<std::vector<std::string>> checkedOutputs(const Args &args, experiments::CompareOptions &o,
                                                const std::vector<std::string> &inputs)
{
    if (args.has("export-streams") && !o.fixedStream.empty())
        return Error{"", 0, "--export-streams",
                     "the workload is a stream file or a trace: there is no generated stream to export"};
    std::vector<std::string> outputs;
    if (args.has("output")) {
        if (Status s = checkOutputPath(args.value("output")); !s)
            return s.error();
        outputs.push_back(args.value("output"));
    }
    if (args.has("export-streams")) {
        const std::string dir = args.value("export-streams");
        std::error_code ec;
        if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
            return Error{dir, 0, "--export-streams", "exists and is not a folder"};
        for (int p = 0; p < o.workload.pointCount(); ++p)
            for (int it = 0; it < o.iterations; ++it)
                outputs.push_back((std::filesystem::path(dir) / exportedStreamName(p, it)).string());
    }
    if (Status s = checkDistinctPaths(inputs, outputs); !s)
        return s.error();
    if (args.has("shard")) {
        Result<std::pair<int, int>> shard = parseShard(args.value("shard"));
        if (!shard)
            return inCliTerms(shard.error());
        if (args.has("format") || args.has("aggregates-only"))
            return Error{"", 0, "", "--shard writes a shard file; give --format and --aggregates-only to 'merge'"};
        o.shardIndex = shard->first;
        o.shardCount = shard->second;
    }
    return outputs;
}

/// The result file is written (not yet renamed) first, then the generated streams, one at
/// a time (with the latency limit they were replayed with), then the result is put in place.
int writeComparison(const Args &args, const experiments::CompareOptions &o, const std::string &text)
{
    std::unique_ptr<AtomicWriter> output;
    if (args.has("output")) {
        output = std::make_unique<AtomicWriter>(args.value("output"));
        output->append(text);
        output->flush();
        if (!output->ok())
            return fail(output->error());
    }
    if (args.has("export-streams")) {
        const auto count = static_cast<std::size_t>(o.workload.pointCount()) * static_cast<std::size_t>(o.iterations);
        Status s = writeFilesIntoFolder(args.value("export-streams"), count, [&](std::size_t i) {
            const int p = static_cast<int>(i / static_cast<std::size_t>(o.iterations));
            const int it = static_cast<int>(i % static_cast<std::size_t>(o.iterations));
            IdleStream stream = workloads::seededStream(o.workload, p, it, o.seed, o.spans);
            applyLatencyLimit(stream, o.latencyLimitNs);
            return std::pair{exportedStreamName(p, it), formatStreamCsv(stream)};
        });
        if (!s)
            return fail(s.error());
    }
    if (!output) {
        std::cout << text;
        return 0;
    }
    if (Status s = output->commit(); !s)
        return fail(s.error());
    return 0;
}

int runOneCpuCompare(const Args &args, scenario::Scenario s, experiments::CompareFormat format, int timeoutSeconds,
                     const std::vector<std::string> &inputs)
{
    for (const char *machineOnly :
         {"cpus", "recorded-governor", "cluster-view", "workload-cpus", "background", "duration"})
        if (args.has(machineOnly))
            return fail(std::string("--") + machineOnly + " needs a machine (--machine, or --trace without --cpu)");
    Result<experiments::CompareOptions> o = oneCpuOptions(args, std::move(s));
    if (!o)
        return fail(o.error());
    o->sourceTimeoutSeconds = timeoutSeconds;
    if (Result<std::vector<std::string>> outputs = checkedOutputs(args, *o, inputs); !outputs)
        return fail(outputs.error());
    Result<experiments::CompareResult> result = experiments::runComparison(*o);
    if (!result)
        return fail(inCliTerms(result.error()));
    for (const std::string &note : result->notes)
        std::cerr << "compare: " << note << '\n';
    return writeComparison(args, *o,
                           args.has("shard")
                               ? formatComparisonShard(*o, *result)
                               : experiments::formatComparison(*o, *result, format, args.has("aggregates-only")));
}

} // namespace

std::optional<experiments::CompareFormat> compareFormat(const std::string &name)
{
    if (name == "md" || name == "markdown") // the README and the window call it Markdown
        return experiments::CompareFormat::Markdown;
    if (name == "csv")
        return experiments::CompareFormat::Csv;
    if (name == "json")
        return experiments::CompareFormat::Json;
    return std::nullopt;
}

int runCompare(int argc, char **argv, int first)
{
    Args args(argc, argv, first,
              {"aggregates-only", "list-targets", "list-workloads", "per-state", "cluster-view", "throughput"});
    if (std::string e = args.check(COMPARE_OPTIONS, 0, "compare"); !e.empty())
        return fail(e);
    if (args.has("list-targets")) {
        listTargets();
        return 0;
    }
    if (args.has("list-workloads")) {
        std::cout << workloads::workloadReference();
        return 0;
    }
    if (Status s = checkOptionsGoTogether(args); !s)
        return fail(s.error());
    const std::optional<experiments::CompareFormat> format = compareFormat(args.value("format", "md"));
    if (!format)
        return fail("--format: '" + args.value("format") + "' is not md, csv or json");
    // The same option and check as replay's --timeout, for the src: governors of the list.
    Result<int> timeout = sourceTimeoutFromArgs(args);
    if (!timeout)
        return fail(timeout.error());
    Result<scenario::Scenario> s = scenarioFromArgs(args);
    if (!s)
        return fail(s.error());
    if (Status st = checkTimeoutOption(args, *s); !st)
        return fail(st.error());
    // The files compare reads (the table, a trace and the governor beside it, csv:FILE,
    // src: governors and their headers, --energy-model, --recorded-governor @FILE); no
    // output may be one of them (device + inode, links followed).
    const std::vector<std::string> inputs = inputPaths(args, {"output", "export-streams"});
    if (wantsMachineCompare(args) || args.has("closed-loop"))
        return runMachineOrLoop(args, std::move(*s), *format, inputs);
    return runOneCpuCompare(args, std::move(*s), *format, *timeout, inputs);
}

} // namespace idlescope::cli
