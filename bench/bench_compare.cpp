// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Workload generation and comparison throughput: 100,000 spans of the sweep
 * and server generators, and one sweep point of a 5-governor comparison on
 * the POWER10 LPAR table (the `compare` performance target is 28 points x 3
 * iterations of this in under 10 s on 2 cores).
 */
#include "core/experiments/comparison.h"
#include "core/targets/builtin_targets.h"

#include <benchmark/benchmark.h>

using namespace idlescope;
using namespace idlescope::experiments;
using namespace idlescope::workloads;

/// 100,000 spans of point @p point of the workload @p specText (seed 1).
static void generateSpans(benchmark::State &state, const char *specText, int point)
{
    const WorkloadSpec spec = parseWorkloadSpec(specText).value();
    for (auto _ : state)
        benchmark::DoNotOptimize(generateStream(spec, point, 1, 100000));
    state.SetItemsProcessed(state.iterations() * 100000);
}
BENCHMARK_CAPTURE(generateSpans, sweep, "sweep:kind=ipi,jitter_us=1", 10)
    ->Name("BM_GenerateSweepPoint")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(generateSpans, overlay, "server + io:device=emmc + tick:idle_us=4000", 0)
    ->Name("BM_GenerateOverlay")
    ->Unit(benchmark::kMillisecond);

static void BM_CompareOnePoint(benchmark::State &state)
{
    CompareOptions o;
    o.table = builtinTarget("pseries-power10-lpar").value();
    o.workload = parseWorkloadSpec("periodic:kind=pipe,interval_us=50,jitter_us=1").value();
    o.governors = {"menu-6.14", "teo-6.14", "menu-resthresh", "menu-latest", "teo-latest"};
    o.iterations = 1;
    o.spans = 100000;
    o.threads = static_cast<int>(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(runComparison(o));
    state.SetItemsProcessed(state.iterations() * 6 * 100000); // 5 governors + the oracle
}
BENCHMARK(BM_CompareOnePoint)->Arg(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
