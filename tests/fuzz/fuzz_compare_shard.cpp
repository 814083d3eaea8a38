// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: the shard files `idlescope-cli merge` reads
 * (core/io/comparison_shard.h). The input is one to three shard files
 * separated by a line "----"; any input is a merged comparison or an Error
 * naming the file and field, never an abort (a grid of 2^31 - 1 iterations
 * once ended in std::length_error), and a merged comparison formats in every
 * format with no counter printed negative (a counter of 2^63 - 1 once
 * overflowed the table's sums). Seeds: small shards of compare --shard.
 */
#include "core/io/comparison_shard.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::vector<std::pair<std::string, std::string>> files;
    std::size_t b = 0;
    while (files.size() < 3) {
        const std::size_t sep = text.find("\n----\n", b);
        files.emplace_back("shard" + std::to_string(files.size() + 1),
                           std::string(
                               text.substr(b, sep == std::string_view::npos ? std::string_view::npos : sep - b)));
        if (sep == std::string_view::npos)
            break;
        b = sep + 6;
    }
    Result<MergedComparison> merged = mergeComparisonShardTexts(files);
    if (!merged)
        return 0;
    for (const experiments::RunMetrics &m : merged->result.runs)
        if (m.above + m.below < 0 || m.oracleAbove + m.oracleBelow < 0)
            std::abort();
    for (experiments::CompareFormat f :
         {experiments::CompareFormat::Markdown, experiments::CompareFormat::Csv, experiments::CompareFormat::Json}) {
        const std::string out = experiments::formatComparison(merged->options, merged->result, f, false);
        if (out.empty())
            std::abort();
    }
    return 0;
}
