// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file comparison.h
 * Governor comparisons the way the kernel threads report them: one idle-state
 * table, one workload (possibly a sweep of points), several governor variants,
 * several seeded iterations, and per run the cpuidle sysfs counters (usage,
 * time, above, below per state) plus idle misses, the oracle's misses on the
 * same spans, and the latency cost (wake delay paid on non-timer wakeups).
 *
 * Every (point, iteration) generates its spans once and replays them through
 * the oracle and each governor in the reference replay
 * (core/replay/reference_replay.h). Runs are spread over `threads` workers;
 * results do not depend on the number of threads.
 */
#pragma once

#include "core/common/error.h"
#include "core/source_governor/source_run.h"
#include "core/states/idle_state_table.h"
#include "core/states/power_model.h"
#include "core/workloads/workload_spec.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope::experiments {

struct CompareOptions {
    IdleStateTable table; ///< must validate
    workloads::WorkloadSpec workload;
    /// When not empty, replayed instead of generating from `workload` (an imported
    /// stream): one point, and every iteration replays the same spans.
    IdleStream fixedStream;
    std::string fixedStreamLabel; ///< point label and "workload" text for a fixed stream
    /// --governors items: a variant id (registry.h), or LABEL=VARIANT for an instance of
    /// its own (parseGovernorList()): the same variant twice with other tunables.
    std::vector<std::string> governors;
    /// PM QoS resume-latency limit on every span of every stream (ns), or -1 to keep the
    /// streams' own column (compare --latency-limit; a fixed stream carries it already).
    Ns latencyLimitNs = -1;
    int iterations = 3; ///< seeded repetitions per point, >= 1
    std::uint64_t seed = 1;
    std::size_t spans = 10000; ///< idle spans per run
    /// "NAME=VALUE" for every listed governor that has the tunable, or "GOVERNOR:NAME=VALUE"
    /// for the one whose label (its variant id when it has none) is GOVERNOR.
    std::vector<std::string> settings;
    int threads = 2;
    /// How long a governor built from source ("src:" id) may make no progress before it
    /// is stopped as hung (idlescope-cli's --timeout).
    int sourceTimeoutSeconds = source_governor::DEFAULT_SOURCE_TIMEOUT_S;
    /// Extra columns: above_<state>, below_<state>, above_pct_<state> (of that state's usage).
    bool perState = false;
    /// Extra columns: duration_ms (busy + idle time of the run), wakeups_per_s.
    bool throughput = false;
    /// Power data of the table; when it has any, the energy columns idle_energy_J and
    /// energy_J (core/energy/energy.h), "no power data" where it is incomplete.
    PowerModel power;
    /// Run only the work units of one shard (--shard K/N: index K-1 of N); the
    /// other runs of the result stay zero (core/io/comparison_shard.h merges them).
    int shardIndex = 0;
    int shardCount = 1;
    /// When set and true, no further work unit starts (a window's Cancel): runComparison then
    /// fails with Error::cancelled() (code Cancelled). Read by the worker threads; never written by them.
    const std::atomic<bool> *cancel = nullptr;
    /// When set, incremented as each work unit (point, iteration) of this shard finishes
    /// (a window's progress): the comparison is done at pointCount() x iterations units.
    std::atomic<int> *unitsDone = nullptr;
};

/// Whether work unit @p job (point * iterations + iteration) belongs to shard
/// @p index of @p count: every count-th unit, so that each shard gets some of
/// every point of a sweep (later points are often the slow ones).
inline bool inShard(int job, int index, int count)
{
    return job % count == index;
}

/// The counters of one replay (one point, one governor, one iteration).
struct RunMetrics {
    std::int64_t spans = 0;
    std::int64_t entries = 0;
    std::array<std::int64_t, CPUIDLE_STATE_MAX> usage{};
    std::array<Ns, CPUIDLE_STATE_MAX> timeNs{};
    std::int64_t above = 0;
    std::int64_t below = 0;
    std::int64_t oracleAbove = 0; ///< the oracle's misses on the same spans
    std::int64_t oracleBelow = 0;
    std::int64_t wakeups = 0; ///< spans ended by a non-timer event
    Ns latencyCostNs = 0;     ///< wake delay (wake_delay.h) of the state left at each of those wakeups
    std::array<std::int64_t, CPUIDLE_STATE_MAX> aboveByState{};
    std::array<std::int64_t, CPUIDLE_STATE_MAX> belowByState{};
    Ns durationNs = 0;                  ///< time the replay covers (gaps + residencies)
    double idleEnergyJ = NO_POWER_DATA; ///< idle + entry/exit energy; NaN without power data
    double energyJ = NO_POWER_DATA;     ///< plus busy time x active power; NaN without it
};

/// Most runs (points x governors x iterations) one comparison makes: each run
/// keeps a few hundred bytes of counters and prints a row, so a million is a
/// few hundred MB and already far beyond a readable table.
inline constexpr std::size_t MAX_COMPARE_RUNS = 1'000'000;
/// Most iterations per point (--iterations).
inline constexpr int MAX_COMPARE_ITERATIONS = 1000;
/// Most generated spans held at once over all threads (2^26 spans, 2.5 GiB): each work
/// unit holds its stream while it replays, so more threads would need more memory.
inline constexpr std::size_t MAX_SPANS_IN_FLIGHT = std::size_t{1} << 26;

/// The threads a comparison runs on: @p threads, but no more than there are @p jobs, and
/// no more than MAX_SPANS_IN_FLIGHT / @p spansPerJob (at least one), so that its memory
/// does not grow with the threads asked for. @p spansPerJob 0: the units share one stream.
int comparisonThreads(int threads, int jobs, std::size_t spansPerJob);

struct CompareResult {
    std::vector<std::string> pointLabels;
    std::vector<std::string> governors; ///< each governor's label (its variant id when it has none)
    int iterations = 0;
    std::vector<RunMetrics> runs; ///< [(point * governors + governor) * iterations + iteration]
    /// What the caller should hear about how it ran (fewer threads than asked, and why).
    std::vector<std::string> notes;

    /// 64-bit index arithmetic: (point, governor, iteration) of a large grid overflows int.
    static std::size_t index(std::size_t point, std::size_t governor, std::size_t iteration, std::size_t governorCount,
                             std::size_t iterationCount)
    {
        return (point * governorCount + governor) * iterationCount + iteration;
    }
    const RunMetrics &at(int point, int governor, int iteration) const
    {
        return runs[index(static_cast<size_t>(point), static_cast<size_t>(governor), static_cast<size_t>(iteration),
                          governors.size(), static_cast<size_t>(iterations))];
    }
};

/// One governor of a comparison: a variant, and the name its rows and --set use.
struct GovernorInstance {
    std::string label;   ///< unique among the comparison's governors; the variant id when none was given
    std::string variant; ///< registry id (or a source governor's "src:" id)
};

/// Why @p label cannot name a governor instance, or "" when it can: it must not be empty,
/// begin or end with a space, or hold ',' ':' '=' '"' or a control character (the
/// separators of --governors and --set, and of the CSV it is printed in), nor a C1 or
/// bidirectional control (holdsControlCharacter(): the views show it). The one check of a
/// label, wherever one is given: compare's --governors, a session, the window's Rename.
std::string governorLabelProblem(std::string_view label);

/// Why @p label, given to another governor, would pass for a row it is not: a variant's id,
/// "oracle" or "recorded" (the kernel's own run of a trace); "" when it would not.
std::string reservedGovernorLabelProblem(std::string_view label);

/**
 * Parses --governors items: "VARIANT", or "LABEL=VARIANT" for an instance with a label of
 * its own (an item whose text before '=' is no valid label is a variant id as a whole).
 * Errors (named "governors"): a bad label, a label (or unlabelled variant) listed twice,
 * a label that is another variant's id.
 */
Result<std::vector<GovernorInstance>> parseGovernorList(const std::vector<std::string> &items);

/**
 * Runs the comparison. Errors name the option at fault by a plain name, not by
 * a command-line flag ("governors", "set" for the settings, "iterations",
 * "spans", "shard"; the CLI maps them to its flags): an unknown governor, a
 * setting no listed governor accepts or with a bad value, iterations < 1,
 * spans < 1, an invalid table, more than MAX_COMPARE_RUNS runs.
 */
Result<CompareResult> runComparison(const CompareOptions &options);

/// One output column: its kernel-thread name and how to compute it from a run.
struct CompareColumn {
    std::string name;
    enum class Kind { Count, Ratio, Percent, Micros, Joules } kind;
    double (*value)(const RunMetrics &, int state);
    int state = -1; ///< per-state columns
};

/// One cell of an iteration row as the tables print it: counts whole, ratios with 4
/// decimals, percentages with 2, Micros (us, ms, per-second columns) with 3, joules with 6
/// significant digits or "no power data" when NaN. The window's comparison table shows its
/// throughput and energy cells with it, so that they read as the CLI's.
std::string formatCompareCell(CompareColumn::Kind kind, double value);

/// The columns, in output order, for a table: entries, spans, usage_<state>...,
/// above, below, idle_misses, idle_miss_ratio, above_pct, below_pct,
/// time_pct_<state>..., oracle_above, oracle_below, oracle_misses, wakeups, latency_cost_us.
std::vector<CompareColumn> compareColumns(const IdleStateTable &table);
/// compareColumns(options.table) plus the columns @p options asks for (perState,
/// throughput, power): duration_ms, wakeups_per_s, idle_energy_J, energy_J, then
/// above_<state>, below_<state>, above_pct_<state> for every state.
std::vector<CompareColumn> compareColumns(const CompareOptions &options);

/// Output formats. Rows: every iteration, then mean, min and max over iterations.
enum class CompareFormat { Markdown, Csv, Json };
std::string formatComparison(const CompareOptions &options, const CompareResult &result, CompareFormat format,
                             bool aggregatesOnly = false);

} // namespace idlescope::experiments
