// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Governor speed: select + reflect entries per second for every variant, in
 * the reference replay, on the largest conformance stream (parsed into memory
 * first; no per-entry output; reasoning records on, as always).
 *
 *   build/release/bench/bench_replay --benchmark_counters_tabular=true
 *
 * items_per_second is entries (select + enter + reflect) per second.
 */
#include "core/governors/registry.h"
#include "core/io/stream_csv.h"
#include "core/io/table_json.h"
#include "core/replay/reference_replay.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

using namespace idlescope;

namespace {

/// The conformance kit the repository carries (tests/data/conformance).
std::string kitDir()
{
    const char *env = std::getenv("IDLESCOPE_TEST_DATA");
    return std::string(env ? env : IDLESCOPE_TEST_DATA) + "/conformance";
}

const IdleStream &largestStream()
{
    static const IdleStream stream = [] {
        auto s = readStreamCsv(kitDir() + "/streams/mixed-server.csv");
        if (!s) {
            std::fprintf(stderr, "%s\n", s.error().toString().c_str());
            std::exit(1);
        }
        return *s;
    }();
    return stream;
}

const IdleStateTable &table(const std::string &id)
{
    static std::map<std::string, IdleStateTable> cache;
    auto it = cache.find(id);
    if (it == cache.end()) {
        auto t = readTableJson(kitDir() + "/tables/" + id + ".json");
        if (!t) {
            std::fprintf(stderr, "%s\n", t.error().toString().c_str());
            std::exit(1);
        }
        it = cache.emplace(id, *t).first;
    }
    return it->second;
}

void replayVariant(benchmark::State &state, std::string variant, std::string tableId)
{
    const IdleStream &stream = largestStream();
    const IdleStateTable &drv = table(tableId);
    auto gov = createGovernor(variant);
    std::int64_t entries = 0;
    for (auto _ : state) {
        const ReplaySummary s = replayStream(drv, stream, *gov);
        entries += s.entries;
        benchmark::DoNotOptimize(s.endNowNs);
    }
    state.SetItemsProcessed(entries);
}

const int kRegistered = [] {
    for (const VariantInfo *v : allVariants()) {
        const std::string id = v->id;
        const std::string tableId = std::string(v->family) == "haltpoll" ? "haltpoll-guest" : "intel-skx";
        benchmark::RegisterBenchmark(("replay/" + id + "/" + tableId).c_str(), replayVariant, id, tableId)
            ->Unit(benchmark::kMillisecond);
    }
    return 0;
}();

} // namespace

BENCHMARK_MAIN();
