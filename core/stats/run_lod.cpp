// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/run_lod.h"

namespace idlescope {

RunLod::RunLod(const GovernorRun &run, const RunCounts &counts)
    : predicted(run.startNs, [&](std::size_t i) { return run.predictedNs[i]; },
                [&](std::size_t i) { return run.predictedNs[i] > 0; }),
      residency(run.startNs, [&](std::size_t i) { return run.residencyNs[i]; },
                [&](std::size_t i) { return run.residencyNs[i] > 0; }),
      missRatio(run.startNs, [&](std::size_t i) { return missRatioPercent(counts, i); },
                [](std::size_t) { return true; }),
      states(run.state, run.residencyNs)
{
}

} // namespace idlescope
