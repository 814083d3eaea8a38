// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Governor speed: select + reflect entries per second for every variant, in
 * the reference replay, on the largest conformance stream (parsed into memory
 * first; no per-entry output; reasoning records on, as always).
 *
 *   build/release/bench/bench_replay --benchmark_counters_tabular=true
 *
 * items_per_second is entries (select + enter + reflect) per second.
 *
 * latency-poll/ replays the kit's latency-constrained and poll-heavy streams
 * one after the other on intel-skx: latency limits keep menu off the deep
 * states and polling spans turn into long runs of selects (v5.10's
 * cpuidle_poll_time() ends a poll after 2 us), so it times the per-select
 * path itself rather than the learning. One entry is one select() call, so
 * items_per_second (and selects_per_second) are selects per second, in CPU
 * time; menu-6.19 and teo-6.19 (v5.11+ poll limit: 20 us on intel-skx) are
 * there for comparison. docs/performance.md has the figures:
 *
 *   build/release/bench/bench_replay --benchmark_filter=latency-poll \
 *       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
 */
#include "core/formats/stream_csv.h"
#include "core/governors/registry.h"
#include "core/io/table_json.h"
#include "core/replay/governor_factory.h"
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

IdleStream readKitStream(const std::string &name)
{
    auto s = readStreamCsv(kitDir() + "/streams/" + name + ".csv");
    if (!s) {
        std::fprintf(stderr, "%s\n", s.error().toString().c_str());
        std::exit(1);
    }
    return *s;
}

const IdleStream &largestStream()
{
    static const IdleStream stream = readKitStream("mixed-server");
    return stream;
}

/// latency-constrained.csv followed by poll-heavy.csv, one replay.
const IdleStream &latencyPollStream()
{
    static const IdleStream stream = [] {
        IdleStream s = readKitStream("latency-constrained");
        const IdleStream poll = readKitStream("poll-heavy");
        s.insert(s.end(), poll.begin(), poll.end());
        return s;
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

void replayVariant(benchmark::State &state, const IdleStream *streamPtr, std::string variant, std::string tableId)
{
    const IdleStream &stream = *streamPtr;
    const IdleStateTable &drv = table(tableId);
    auto gov = createGovernor(variant);
    std::int64_t entries = 0;
    for (auto _ : state) {
        const ReplaySummary s = replayStream(drv, stream, *gov);
        entries += s.entries;
        benchmark::DoNotOptimize(s.endNowNs);
    }
    state.SetItemsProcessed(entries);
    state.counters["selects_per_second"] = benchmark::Counter(double(entries), benchmark::Counter::kIsRate);
}

const int kRegistered = [] {
    for (const VariantInfo *v : allVariants()) {
        const std::string id = v->id;
        const std::string tableId = std::string(v->family) == "haltpoll" ? "haltpoll-guest" : "intel-skx";
        benchmark::RegisterBenchmark(("replay/" + id + "/" + tableId).c_str(), replayVariant, &largestStream(), id,
                                     tableId)
            ->Unit(benchmark::kMillisecond);
    }
    for (const char *id : {"menu-5.10", "menu-6.14", "menu-6.19", "menu-latest", "teo-6.19"})
        benchmark::RegisterBenchmark((std::string("latency-poll/") + id + "/intel-skx").c_str(), replayVariant,
                                     &latencyPollStream(), std::string(id), std::string("intel-skx"))
            ->Unit(benchmark::kMillisecond);
    return 0;
}();

} // namespace

BENCHMARK_MAIN();
