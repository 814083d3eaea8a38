// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/run_lod.h"

namespace idlescope {

RunLod::RunLod(const GovernorRun &run, const RunCounts &counts) : RunLod(fromRun(run))
{
    setMissRatio(run, counts);
}

RunLod RunLod::fromRun(const GovernorRun &run)
{
    RunLod lod;
    lod.predicted = ValueLod(
        run.startNs, [&](std::size_t i) { return run.predictedNs[i]; },
        [&](std::size_t i) { return run.predictedNs[i] > 0; });
    lod.residency = ValueLod(
        run.startNs, [&](std::size_t i) { return run.residencyNs[i]; },
        [&](std::size_t i) { return run.residencyNs[i] > 0; });
    lod.states = StateLod(run.state, run.residencyNs);
    return lod;
}

void RunLod::setMissRatio(const GovernorRun &run, const RunCounts &counts)
{
    missRatio = ValueLod(
        run.startNs, [&](std::size_t i) { return missRatioPercent(counts, i); }, [](std::size_t) { return true; });
}

} // namespace idlescope
