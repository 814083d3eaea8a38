// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: the closed-loop spec (compare --closed-loop,
 * core/experiments/closed_loop.h). Any input is a spec or an Error naming the
 * key; a spec runs (at most 300 operations here) on two CPUs of intel-skx
 * under menu-6.14, and its run must keep what the table prints: as many
 * operations as asked (ops per job: numjobs x ops in all), a duration and
 * added latencies >= 0, mean <= max.
 */
#include "core/experiments/closed_loop.h"
#include "core/targets/builtin_targets.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    Result<ClosedLoopSpec> spec = parseClosedLoopSpec(text);
    if (!spec)
        return 0;
    spec->operations = std::min<std::int64_t>(spec->operations, 300);
    static const Machine machine = Machine::uniform(builtinTarget("intel-skx").value(), 2);
    Result<std::vector<ClosedLoopRun>> runs = runClosedLoop(machine, *spec, {"menu-6.14"}, {{}}, 1, 1);
    if (!runs)
        return 0;
    for (const ClosedLoopRun &r : *runs)
        if (r.operations != spec->totalOperations() || r.durationNs < 0 || r.p99AddedNs < 0
            || r.maxAddedNs < r.p99AddedNs || !(r.meanAddedNs >= 0)
            || r.meanAddedNs > static_cast<double>(r.maxAddedNs))
            std::abort();
    return 0;
}
