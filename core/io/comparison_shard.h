// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file comparison_shard.h
 * A comparison split over machines: `compare --shard K/N` runs every N-th
 * work unit (a (point, iteration) pair: one generated stream, replayed through
 * the oracle and every governor) and writes its runs' raw counters with
 * everything the output is formatted from; `merge` reads the N files back and
 * gives the same CompareResult as the unsharded run, so its tables equal the
 * unsharded tables byte for byte (aggregates are taken over all iterations
 * after the merge, never averaged from shard averages).
 *
 * The file is JSON: {"idlescope_compare_shard": 1, "shard": [K, N], "table":
 * {table JSON}, "workload", "seed", "spans", "iterations", "points": [labels],
 * "governors": [ids], "runs": [{"point", "iteration", "governor", "counters":
 * [decimal strings]}]}. Counters are strings because JSON numbers are doubles,
 * exact only up to 2^53, and a run's time in ns may exceed that.
 */
#pragma once

#include "core/common/error.h"
#include "core/experiments/comparison.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace idlescope {

/// "K/N" with 1 <= K <= N <= 100000 -> {K-1, N}. The error names --shard.
Result<std::pair<int, int>> parseShard(const std::string &text);

/// The shard file of a comparison run with options.shardIndex / shardCount.
std::string formatComparisonShard(const experiments::CompareOptions &options, const experiments::CompareResult &result);

/// The options a merged result is formatted with (table, workload text, seed,
/// spans, iterations) and the result itself, every run filled.
struct MergedComparison {
    experiments::CompareOptions options;
    experiments::CompareResult result;
};

/**
 * Reads shard files and puts their runs together. Errors name the file and
 * field: not a shard file, shards of different comparisons (table, workload,
 * seed, spans, iterations, points, governors or N differ), a shard given
 * twice, a missing shard, a run out of range or given twice, a file that is not
 * a regular file (a FIFO) or over MAX_SHARD_FILE_BYTES, more iterations or runs
 * than compare makes, counters past what a run can count (no silent overflow).
 */
Result<MergedComparison> mergeComparisonShards(const std::vector<std::string> &paths);

/// The same for shard texts already read: (name in errors, JSON text) pairs (the fuzz target's way in).
Result<MergedComparison> mergeComparisonShardTexts(const std::vector<std::pair<std::string, std::string>> &files);

/// Largest shard file merge reads: a shard of compare's largest grid (experiments::MAX_COMPARE_RUNS runs of
/// about 700 bytes each) split in at least three; a larger one is refused before it is read.
inline constexpr std::size_t MAX_SHARD_FILE_BYTES = std::size_t{256} << 20;

} // namespace idlescope
