// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/stream_args.h"

#include "app/cli/commands.h"

#include "core/io/csv_fields.h"
#include "core/io/stream_csv.h"
#include "core/workloads/workload_spec.h"

namespace idlescope::cli {

Result<IdleStream> oneStreamFromArgs(const Args &args, bool allowTrace, std::string_view command)
{
    const int sources = int(args.has("workload")) + int(args.has("stream")) + int(allowTrace && args.has("trace"));
    if (sources != 1)
        return Error{"", 0, "",
                     allowTrace ? "give one of --workload, --stream and --trace"
                                : "give one of --stream and --workload"};
    if (args.has("cpu") && !(allowTrace && args.has("trace")))
        return Error{"", 0, "--cpu", "only applies with --trace"};
    if (!args.has("workload"))
        for (const char *workloadOnly : {"spans", "seed"})
            if (args.has(workloadOnly))
                return Error{"", 0, std::string("--") + workloadOnly, "only applies with --workload"};
    if (allowTrace && args.has("trace"))
        return traceStream(args.value("trace"), args.value("cpu"), command);
    const std::string w = args.value("workload");
    if (args.has("stream") || w.rfind("csv:", 0) == 0)
        return readStreamCsv(args.has("stream") ? args.value("stream") : w.substr(4));
    Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(w);
    if (!spec)
        return inCliTerms(spec.error());
    if (spec->pointCount() != 1)
        return Error{"", 0, "--workload",
                     "sweeps " + std::to_string(spec->pointCount())
                         + " points; give the parameter one value (one stream)"};
    const auto spans = csv::parseInt(args.value("spans", "10000"));
    if (!spans || *spans < 1 || *spans > 10000000)
        return Error{"", 0, "--spans", "must be 1..10000000"};
    const auto seed = csv::parseInt(args.value("seed", "1"));
    if (!seed || *seed < 0)
        return Error{"", 0, "--seed", "must be a non-negative integer"};
    return workloads::seededStream(*spec, 0, 0, static_cast<std::uint64_t>(*seed), static_cast<std::size_t>(*spans));
}

} // namespace idlescope::cli
