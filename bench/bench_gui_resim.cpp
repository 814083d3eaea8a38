// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The GUI's re-simulation on its measured scenario, piece by piece: the
 * POWER10 LPAR table with 1 M periodic IPI wakeups (100 us +-30 us, seed 1,
 * as `idlescope --measure 1000000` builds it) through menu-6.14,
 * menu-6.19 and teo-6.14 (the default scenario's governors), each
 *
 *   engine/…     the reference replay alone (no entry kept, no reasoning record, as in run/)
 *   run/…        runGovernor(): the replay keeping the per-entry columns
 *   counts/…     RunCounts (prefix counts) of that run
 *   lod/…        RunLod::fromRun (plot chunk summaries) of that run
 *   miss/…       RunLod::setMissRatio of that run
 *   summarised/… runGovernorSummarised(): run + counts + lod in one pass
 *   repeat/…     runGovernorSummarised() given the same run as its base (RunOptions::base):
 *                the replay with each entry compared, nothing kept (a latency-limit change
 *                no exit latency lies in)
 *
 * and menu with INTERVALS=9 (the slider value --measure alternates with 8).
 *
 *   build/release/bench/bench_gui_resim --benchmark_counters_tabular=true
 *   IDLESCOPE_BENCH_JITTER_US=0 build/release/bench/bench_gui_resim   (the default scenario's stream)
 *   IDLESCOPE_BENCH_SPANS=100000 valgrind --tool=callgrind bench_gui_resim --benchmark_filter=run/teo
 *
 * items_per_second is entries per second. The heap is set up as the GUI's
 * main() does (freed run columns stay in the heap), so run/ measures warm
 * memory as a re-simulation sees it.
 */
#include "core/governors/registry.h"
#include "core/replay/governor_run.h"
#include "core/replay/reference_replay.h"
#include "core/stats/run_counts.h"
#include "core/stats/run_lod.h"
#include "core/stats/summarised_run.h"
#include "core/targets/builtin_targets.h"
#include "core/workloads/workload.h"

#include <benchmark/benchmark.h>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace idlescope;

namespace {

/// 1 M spans, or IDLESCOPE_BENCH_SPANS (e.g. a small stream under callgrind).
std::int64_t spanCount()
{
    const char *env = std::getenv("IDLESCOPE_BENCH_SPANS");
    return env ? std::max<std::int64_t>(1, std::atoll(env)) : 1000000;
}

/// +-30 us of jitter, or IDLESCOPE_BENCH_JITTER_US (0: the default scenario's steady 100 us).
std::int64_t jitterUs()
{
    const char *env = std::getenv("IDLESCOPE_BENCH_JITTER_US");
    return env ? std::max<std::int64_t>(0, std::atoll(env)) : 30;
}

const IdleStream &stream()
{
    static const IdleStream s = [] {
        const workloads::GeneratorInfo *g = workloads::findGenerator("periodic");
        if (!g) {
            std::fprintf(stderr, "no periodic generator\n");
            std::exit(1);
        }
        workloads::ParamValues v = g->defaults();
        v.set("kind", 1); // ipi
        v.set("interval_us", 100 * NSEC_PER_USEC);
        v.set("jitter_us", jitterUs() * NSEC_PER_USEC);
        auto source = g->make(v, 1);
        IdleStream out(static_cast<std::size_t>(spanCount()));
        for (IdleSpan &span : out)
            span = source->next();
        return out;
    }();
    return s;
}

const IdleStateTable &table()
{
    static const IdleStateTable t = [] {
        auto r = builtinTarget("pseries-power10-lpar");
        if (!r) {
            std::fprintf(stderr, "%s\n", r.error().toString().c_str());
            std::exit(1);
        }
        return *r;
    }();
    return t;
}

/// One kept run per (variant, settings), built on first use.
const GovernorRun &keptRun(const std::string &variant, const std::vector<TunableSetting> &settings)
{
    static std::map<std::pair<std::string, std::vector<TunableSetting>>, GovernorRun> cache;
    auto key = std::make_pair(variant, settings);
    auto it = cache.find(key);
    if (it == cache.end()) {
        auto run = runGovernor(table(), stream(), variant, {.settings = settings});
        if (!run) {
            std::fprintf(stderr, "%s\n", run.error().toString().c_str());
            std::exit(1);
        }
        it = cache.emplace(key, std::move(*run)).first;
    }
    return it->second;
}

void engine(benchmark::State &state, std::string variant, std::vector<TunableSetting> settings)
{
    auto gov = makeConfiguredGovernor(variant, settings);
    (*gov)->keepReasoning(false); // as in the runs below (runGovernor())
    std::int64_t entries = 0;
    for (auto _ : state) {
        const ReplaySummary s = replayStream(table(), stream(), **gov);
        entries += s.entries;
        benchmark::DoNotOptimize(s.endNowNs);
    }
    state.SetItemsProcessed(entries);
}

void run(benchmark::State &state, std::string variant, std::vector<TunableSetting> settings)
{
    std::int64_t entries = 0;
    for (auto _ : state) {
        auto r = runGovernor(table(), stream(), variant, {.settings = settings});
        entries += static_cast<std::int64_t>(r->size());
        benchmark::DoNotOptimize(r->summary.endNowNs);
    }
    state.SetItemsProcessed(entries);
}

void summarised(benchmark::State &state, std::string variant, std::vector<TunableSetting> settings)
{
    std::int64_t entries = 0;
    for (auto _ : state) {
        auto r = runGovernorSummarised(table(), stream(), variant, {.settings = settings});
        entries += static_cast<std::int64_t>(r->run.size());
        benchmark::DoNotOptimize(r->lod.states.chunkCount());
    }
    state.SetItemsProcessed(entries);
}

void repeat(benchmark::State &state, std::string variant, std::vector<TunableSetting> settings)
{
    const GovernorRun &base = keptRun(variant, settings);
    std::int64_t entries = 0;
    for (auto _ : state) {
        auto r = runGovernorSummarised(table(), stream(), variant, {.settings = settings, .base = &base});
        if (!r || !r->repeatedBase) {
            state.SkipWithError("the run did not repeat its base");
            return;
        }
        entries += r->run.summary.entries;
    }
    state.SetItemsProcessed(entries);
}

void counts(benchmark::State &state, std::string variant, std::vector<TunableSetting> settings)
{
    const GovernorRun &r = keptRun(variant, settings);
    for (auto _ : state) {
        RunCounts c(r);
        benchmark::DoNotOptimize(c.size());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.size()));
}

void lod(benchmark::State &state, std::string variant, std::vector<TunableSetting> settings)
{
    const GovernorRun &r = keptRun(variant, settings);
    for (auto _ : state) {
        RunLod l = RunLod::fromRun(r);
        benchmark::DoNotOptimize(&l);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.size()));
}

void miss(benchmark::State &state, std::string variant, std::vector<TunableSetting> settings)
{
    const GovernorRun &r = keptRun(variant, settings);
    const RunCounts c(r);
    for (auto _ : state) {
        RunLod l;
        l.setMissRatio(r, c);
        benchmark::DoNotOptimize(&l);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.size()));
}

const int kRegistered = [] {
    mallopt(M_MMAP_MAX, 0); // as app/gui/main.cpp: large blocks from the heap, back to it
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
    mallopt(M_ARENA_MAX, 1);
    struct Case {
        std::string name;
        std::string variant;
        std::vector<TunableSetting> settings;
    };
    const std::vector<Case> cases = {
        {"menu-6.14", "menu-6.14", {}},
        {"menu-6.14/INTERVALS=9", "menu-6.14", {{"INTERVALS", 9}}},
        {"menu-6.19", "menu-6.19", {}},
        {"teo-6.14", "teo-6.14", {}},
    };
    using Fn = void (*)(benchmark::State &, std::string, std::vector<TunableSetting>);
    const std::pair<const char *, Fn> pieces[] = {{"engine", engine}, {"run", run},       {"summarised", summarised},
                                                  {"repeat", repeat}, {"counts", counts}, {"lod", lod},
                                                  {"miss", miss}};
    for (const auto &[piece, fn] : pieces)
        for (const Case &c : cases)
            benchmark::RegisterBenchmark((std::string(piece) + "/" + c.name).c_str(), fn, c.variant, c.settings)
                ->Unit(benchmark::kMillisecond);
    return 0;
}();

} // namespace

BENCHMARK_MAIN();
