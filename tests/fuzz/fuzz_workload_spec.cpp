// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: the workload spec grammar (compare --workload). Any
 * input is a spec or an Error naming the column; a spec generates 300 spans
 * of its first points, and every span must be one the stream reader accepts
 * (validateSpan), or the generated stream would be refused by replay.
 */
#include "core/formats/stream_csv.h"
#include "core/workloads/workload_spec.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(text);
    if (!spec)
        return 0;
    const int points = std::min(spec->pointCount(), 3);
    for (int p = 0; p < points; ++p) {
        (void)spec->pointLabel(p);
        const IdleStream s = workloads::generateStream(*spec, p, workloads::runSeed(1, p, 0), 300);
        for (size_t i = 0; i < s.size(); ++i)
            if (!validateSpan(s[i], "fuzz", static_cast<std::int64_t>(i) + 2).ok())
                std::abort();
    }
    return 0;
}
