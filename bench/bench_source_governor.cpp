// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Governors built from source (core/source_governor): replay speed against
 * the built-in variant of the same algorithm, the first build of a file and
 * a cached rebuild.
 *
 *   build/release/bench/bench_source_governor --benchmark_counters_tabular=true
 *
 * Without settings it times tests/data/source_governors/hop.c against
 * ladder-latest (both tiny ladder-like governors). Give a kernel file for
 * the real comparison (docs/testing-your-patch.md says how to fetch one):
 *
 *   IDLESCOPE_BENCH_SOURCE=/tmp/kernel/menu-latest.c IDLESCOPE_BENCH_VARIANT=menu-latest \
 *       build/release/bench/bench_source_governor
 *
 * The stream is the kit's mixed-server stream repeated 100 times (800,000
 * spans), so that the source governor's fixed costs (starting the governor
 * host, loading the object) weigh as they do on a real trace.
 * source/ is the whole of what `replay --governor-source` does after the
 * build: the host started, the stream handed to it (it replays each slot of
 * its ring as it is filled), the decisions sent back, idlescope's replay of them. Both
 * replays are timed in real time (most of the source governor's work is in
 * the host, which this process's CPU time leaves out); items_per_second is
 * entries per second. The whole-process comparison (stream file parsing
 * included, as a user runs it) times these two commands in turn, pair by pair:
 *
 *   idlescope-cli replay --table intel-skx --stream big.csv --governor teo-6.19
 *   idlescope-cli replay --table intel-skx --stream big.csv --governor-source teo.c --kernel 6.19
 */
#include "core/formats/stream_csv.h"
#include "core/io/table_json.h"
#include "core/replay/governor_factory.h"
#include "core/replay/reference_replay.h"
#include "core/source_governor/source_build.h"
#include "core/source_governor/source_governor.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace idlescope;

namespace {

std::string dataDir()
{
    const char *env = std::getenv("IDLESCOPE_TEST_DATA");
    return std::string(env ? env : IDLESCOPE_TEST_DATA);
}

std::string setting(const char *name, const std::string &fallback)
{
    const char *v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

std::string sourceFile()
{
    return setting("IDLESCOPE_BENCH_SOURCE", dataDir() + "/source_governors/hop.c");
}
std::string builtinVariant()
{
    return setting("IDLESCOPE_BENCH_VARIANT", "ladder-latest");
}

template <typename T>
T orDie(Result<T> r)
{
    if (!r) {
        std::fprintf(stderr, "%s\n", r.error().toString().c_str());
        std::exit(1);
    }
    return std::move(*r);
}

const IdleStream &stream()
{
    static const IdleStream s = [] {
        const IdleStream one = orDie(readStreamCsv(dataDir() + "/conformance/streams/mixed-server.csv"));
        IdleStream all;
        for (int i = 0; i < 100; ++i)
            all.insert(all.end(), one.begin(), one.end());
        return all;
    }();
    return s;
}

const IdleStateTable &table()
{
    static const IdleStateTable t = orDie(
        readTableJson(dataDir() + "/conformance/tables/" + setting("IDLESCOPE_BENCH_TABLE", "intel-skx") + ".json"));
    return t;
}

SourceGovernorSpec spec()
{
    SourceGovernorSpec s;
    s.path = sourceFile();
    s.core = orDie(source_governor::parseKernelCore(setting("IDLESCOPE_BENCH_KERNEL", "7.0")));
    return s;
}

void builtin(benchmark::State &state)
{
    auto gov = createGovernor(builtinVariant());
    if (!gov) {
        state.SkipWithError("unknown IDLESCOPE_BENCH_VARIANT");
        return;
    }
    std::int64_t entries = 0;
    for (auto _ : state) {
        const ReplaySummary s = replayStream(table(), stream(), *gov);
        entries += s.entries;
        benchmark::DoNotOptimize(s.endNowNs);
    }
    state.SetItemsProcessed(entries);
}

void source(benchmark::State &state)
{
    SourceGovernor gov(spec());
    orDie(source_governor::buildSourceGovernor(gov.spec().path)); // the build is timed below
    std::int64_t entries = 0;
    for (auto _ : state) {
        if (Status s = gov.prepare(table(), stream()); !s) {
            state.SkipWithError(s.error().toString().c_str());
            return;
        }
        const ReplaySummary s = replayStream(table(), stream(), gov);
        if (Status c = gov.checkPlayback(&s); !c) {
            state.SkipWithError(c.error().toString().c_str());
            return;
        }
        entries += s.entries;
    }
    state.SetItemsProcessed(entries);
}

/// Each iteration in an empty cache: the shim written and its runtime compiled, then the file.
void firstBuild(benchmark::State &state)
{
    const std::string base = "/tmp/idlescope-bench-cache-" + std::to_string(::getpid());
    int n = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const std::string dir = base + "/" + std::to_string(n++);
        ::setenv("IDLESCOPE_CACHE_DIR", dir.c_str(), 1);
        state.ResumeTiming();
        if (auto b = source_governor::buildSourceGovernor(sourceFile()); !b || b->cached) {
            state.SkipWithError("the first build failed or was cached");
            break;
        }
    }
    std::error_code ec;
    std::filesystem::remove_all(base, ec);
    ::unsetenv("IDLESCOPE_CACHE_DIR");
}

/// The file unchanged: hashing it and finding the object.
void cachedBuild(benchmark::State &state)
{
    orDie(source_governor::buildSourceGovernor(sourceFile()));
    for (auto _ : state)
        if (auto b = source_governor::buildSourceGovernor(sourceFile()); !b || !b->cached) {
            state.SkipWithError("the rebuild was not found in the cache");
            break;
        }
}

const int kRegistered = [] {
    // Real time for both: the source governor's work is mostly in the governor host, which
    // this process's CPU time does not count.
    benchmark::RegisterBenchmark(("replay/builtin/" + builtinVariant()).c_str(), builtin)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("replay/source", source)->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark("build/first", firstBuild)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(5);
    benchmark::RegisterBenchmark("build/cached", cachedBuild)->Unit(benchmark::kMillisecond)->UseRealTime();
    return 0;
}();

} // namespace

BENCHMARK_MAIN();
