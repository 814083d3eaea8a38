// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/scenario_stream.h"

#include "core/formats/stream_csv.h"
#include "core/scenario/scenario_trace.h"
#include "core/trace/trace_import.h"

namespace idlescope::scenario {

Result<workloads::WorkloadSpec> parseOnePoint(std::string_view text)
{
    Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(text);
    if (!spec)
        return spec;
    // One stream is one point: a sweep would be a choice of streams, which only compare makes.
    if (spec->pointCount() != 1)
        return Error{"", 0, "workload",
                     "sweeps " + std::to_string(spec->pointCount()) + " points of " + spec->sweep->param
                         + "; give it one value (one stream)"};
    return spec;
}

Result<IdleStream> generatedStream(const WorkloadSource &w)
{
    Result<workloads::WorkloadSpec> spec = parseOnePoint(w.text);
    if (!spec)
        return spec.error();
    if (w.spans < 1 || w.spans > MAX_SPANS)
        return Error{"", 0, "spans", "must be 1.." + std::to_string(MAX_SPANS)};
    if (w.seed < 0)
        return Error{"", 0, "seed", "must be a non-negative integer"};
    const auto seed = static_cast<std::uint64_t>(w.seed);
    const auto spans = static_cast<std::size_t>(w.spans);
    if (w.kind == WorkloadKind::Generator && w.legacySeeding)
        return workloads::legacyDirectSeedStream(spec->root, seed, spans);
    // Point 0, iteration 0: compare's first iteration of the same text and seed.
    return workloads::seededStream(*spec, 0, 0, seed, spans);
}

Result<IdleStream> workloadStream(const WorkloadSource &w)
{
    switch (w.kind) {
    case WorkloadKind::Csv: return readStreamCsv(w.path);
    case WorkloadKind::Trace: {
        Result<trace::TraceImport> t = trace::importTrace(w.path);
        if (!t)
            return t.error();
        Result<TraceCpuExport> e = exportTraceCpu(*t, w.cpu, w.path);
        if (!e)
            return e.error();
        return std::move(e->exported.stream);
    }
    case WorkloadKind::ClosedLoop:
        return Error{"", 0, "loop", "a closed loop makes its spans as it runs: it has no stream of its own"};
    case WorkloadKind::Generator:
    case WorkloadKind::Spec: break;
    }
    return generatedStream(w);
}

} // namespace idlescope::scenario
