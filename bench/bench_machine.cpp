// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A whole machine against one CPU of the same total work: 6 CPUs x N spans
 * x 3 governors (menu, teo, ladder) replayed by replayMachine() on 2 threads,
 * against 1 CPU x 6N spans x the same 3 governors (the same replays, one
 * stream: three jobs for two threads) and against today's one-CPU compare
 * (runComparison() on that stream: one job, the oracle and the 3 governors
 * in turn). The target: machine <= 1.5 x the 1-CPU run.
 * N = IDLESCOPE_BENCH_SPANS (default 1,000,000 spans per CPU).
 *
 * Closed loop against open loop: io:service_us=300,work_us=20 with N
 * operations through teo-6.14 on rk3399 (each CPU's next timer 5-15 ms away,
 * the loop's default), its energy priced as compare prints it
 * (machineRunThroughput(): the wake delays' waking time, the busy time),
 * against the open-loop replay of the very spans that loop made
 * (ClosedLoopWatch::spans, recorded once before the timing: the same rows,
 * timers and decisions). Issue 32's budget: closed loop and energy together
 * at most 10 % over that open loop.
 */
#include "core/experiments/closed_loop.h"
#include "core/experiments/comparison.h"
#include "core/machine/machine_replay.h"
#include "core/stats/run_throughput.h"
#include "core/targets/builtin_targets.h"
#include "core/workloads/generator_base.h"
#include "core/workloads/workload_spec.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace idlescope;

namespace {

std::size_t spansPerCpu()
{
    const char *v = std::getenv("IDLESCOPE_BENCH_SPANS");
    return v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : 1000000;
}

const IdleStateTable &table()
{
    static const IdleStateTable t = builtinTarget("arm-rk3399").value();
    return t;
}

const workloads::WorkloadSpec &spec()
{
    static const workloads::WorkloadSpec s = workloads::parseWorkloadSpec("server + io:device=emmc").value();
    return s;
}

const MachineWorkload &sixCpus()
{
    static const MachineWorkload w = [] {
        MachineWorkload m;
        for (int cpu = 0; cpu < 6; ++cpu)
            m.cpus.push_back({cpu, workloads::generateStream(spec(), 0, 1 + std::uint64_t(cpu), spansPerCpu()), 0, {}});
        return m;
    }();
    return w;
}

const MachineWorkload &oneCpu()
{
    static const MachineWorkload w = [] {
        MachineWorkload m;
        m.cpus.push_back({0, workloads::generateStream(spec(), 0, 1, 6 * spansPerCpu()), 0, {}});
        return m;
    }();
    return w;
}

MachineReplayOptions threeGovernors()
{
    MachineReplayOptions o;
    o.governors = {"menu-6.14", "teo-6.14", "ladder-latest"};
    o.threads = 2;
    return o;
}

} // namespace

/// The three governors on a machine of @p cpus CPUs given @p workload() (both hold
/// 6 x spansPerCpu() spans in all, so the items compare).
static void replayThreeGovernors(benchmark::State &state, int cpus, const MachineWorkload &(*workload)())
{
    const Machine m = Machine::uniform(table(), cpus);
    const MachineWorkload &w = workload();
    for (auto _ : state)
        benchmark::DoNotOptimize(replayMachine(m, w, threeGovernors()));
    state.SetItemsProcessed(state.iterations() * 3 * 6 * static_cast<std::int64_t>(spansPerCpu()));
}
BENCHMARK_CAPTURE(replayThreeGovernors, six, 6, &sixCpus)
    ->Name("BM_Machine6Cpus3Governors")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(replayThreeGovernors, one, 1, &oneCpu)
    ->Name("BM_OneCpu3Governors")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

static void BM_OneCpuCompareToday(benchmark::State &state)
{
    experiments::CompareOptions o;
    o.table = table();
    o.fixedStream = oneCpu().cpus.front().stream;
    o.fixedStreamLabel = "one CPU";
    o.governors = threeGovernors().governors;
    o.iterations = 1;
    o.threads = 2;
    for (auto _ : state)
        benchmark::DoNotOptimize(experiments::runComparison(o));
    state.SetItemsProcessed(state.iterations() * 4 * 6 * static_cast<std::int64_t>(spansPerCpu())); // + the oracle
}
BENCHMARK(BM_OneCpuCompareToday)->Unit(benchmark::kMillisecond)->UseRealTime();

namespace {

/// rk3399's CPU 0 with some power data, so that the energy is computed in full (LISA's Juno A53
/// numbers: WFI 6 mW, the deeper states 0, 93 mW running); the values do not change the cost.
const Machine &loopMachine()
{
    static const Machine m = [] {
        Machine one = Machine::uniform(table(), 1);
        PowerModel &power = one.clusters.front().power;
        power = PowerModel::empty(one.clusters.front().table);
        power.states[0].powerMw = 6;
        power.states[1].powerMw = 0;
        power.states[2].powerMw = 0;
        power.activeMw = 93;
        return one;
    }();
    return m;
}

const ClosedLoopSpec &loopSpec()
{
    static const ClosedLoopSpec s = [] {
        ClosedLoopSpec spec = parseClosedLoopSpec("io:service_us=300,work_us=20").value();
        spec.operations = static_cast<std::int64_t>(spansPerCpu());
        return spec;
    }();
    return s;
}

} // namespace

static void BM_ClosedLoopIo(benchmark::State &state)
{
    for (auto _ : state) {
        Result<std::vector<ClosedLoopRun>> runs = runClosedLoop(loopMachine(), loopSpec(), {"teo-6.14"}, {}, 1, 1);
        const ClosedLoopRun &run = runs->front();
        benchmark::DoNotOptimize(machineRunThroughput(loopMachine(), run.counters, run.durationNs));
    }
    state.SetItemsProcessed(state.iterations() * loopSpec().operations);
}
BENCHMARK(BM_ClosedLoopIo)->Unit(benchmark::kMillisecond)->UseRealTime();

namespace {

/// The spans BM_ClosedLoopIo's loop gives its CPU's replay, as a one-CPU workload.
const MachineWorkload &loopSpans()
{
    static const MachineWorkload w = [] {
        std::vector<std::vector<IdleStream>> spans;
        ClosedLoopWatch watch;
        watch.spans = &spans;
        (void)runClosedLoop(loopMachine(), loopSpec(), {"teo-6.14"}, {}, 1, 1, &watch).value();
        MachineWorkload m;
        m.cpus.push_back({0, std::move(spans[0][0]), 0, {}});
        return m;
    }();
    return w;
}

} // namespace

static void BM_OpenLoopSameSpans(benchmark::State &state)
{
    const MachineWorkload &w = loopSpans();
    MachineReplayOptions o;
    o.governors = {"teo-6.14"};
    o.threads = 1;
    for (auto _ : state)
        benchmark::DoNotOptimize(replayMachine(loopMachine(), w, o));
    state.SetItemsProcessed(state.iterations() * loopSpec().operations);
}
BENCHMARK(BM_OpenLoopSameSpans)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
