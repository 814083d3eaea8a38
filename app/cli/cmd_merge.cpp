// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli merge: the shard files of `compare --shard K/N` put back
 * together and printed as the unsharded comparison would print them. The work
 * is core/io/comparison_shard.h; this file reads options and writes the result.
 */
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/compare_machine.h"
#include "app/cli/input_paths.h"

#include "core/io/atomic_file.h"
#include "core/io/comparison_shard.h"

#include <iostream>
#include <optional>

namespace idlescope::cli {

const char *const MERGE_HELP =
    "usage: idlescope-cli merge SHARD.json... [--format md|csv|json] [--aggregates-only]\n"
    "                           [--output FILE]\n\n"
    "Puts the shard files of 'idlescope-cli compare --shard K/N' (all N of them, in any order)\n"
    "back together and prints the comparison exactly as the unsharded compare prints it:\n"
    "mean, min and max are taken over all iterations after the merge. Refuses shards of\n"
    "different comparisons (table, workload, seed, spans, iterations, governors), a shard\n"
    "given twice and a missing one. Running shards with GNU parallel or a Slurm job array:\n"
    "docs/sweeps.md.\n\n"
    "  --format F         json (default), md or csv\n"
    "  --aggregates-only  print only the mean/min/max rows\n"
    "  --output FILE      write there (atomically) instead of stdout\n\n"
    "Example:\n"
    "  for k in 1 2; do idlescope-cli compare --table intel-skx --governors menu-6.14,teo-6.14 \\\n"
    "      --workload 'sweep:kind=pipe' --shard $k/2 --output shard$k.json; done\n"
    "  idlescope-cli merge shard1.json shard2.json > all.json\n";

int runMerge(int argc, char **argv, int first)
{
    Args args(argc, argv, first, {"aggregates-only"});
    if (!args.ok())
        return fail(args.error());
    if (std::string u = args.unknown({"format", "aggregates-only", "output"}); !u.empty())
        return fail("unknown option " + u + " (see idlescope-cli help merge)");
    if (args.positional().empty())
        return fail("expected the shard files (see idlescope-cli help merge)");
    const std::optional<experiments::CompareFormat> format = compareFormat(args.value("format", "json"));
    if (!format)
        return fail("--format: '" + args.value("format") + "' is not md, csv or json");
    if (args.has("output")) {
        if (Status s = checkOutputPath(args.value("output")); !s)
            return fail(s.error());
        // The merged table must not replace one of the shards it is made of.
        if (Status s = checkDistinctPaths(inputPaths(args, {"output"}), {args.value("output")}); !s)
            return fail(s.error());
    }

    Result<MergedComparison> merged = mergeComparisonShards(args.positional());
    if (!merged)
        return fail(merged.error());
    const std::string text =
        experiments::formatComparison(merged->options, merged->result, *format, args.has("aggregates-only"));
    return emitOutput(args, "output", text);
}

} // namespace idlescope::cli
