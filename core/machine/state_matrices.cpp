// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/machine/state_matrices.h"

#include <algorithm>

namespace idlescope {

int StateMatrices::rowOf(int cpu) const
{
    const auto it = std::find(cpus.begin(), cpus.end(), cpu);
    return it == cpus.end() ? -1 : static_cast<int>(it - cpus.begin());
}

StateMatrices stateMatrices(const MachineRun &run, int stateCount)
{
    StateMatrices m;
    const auto rows = static_cast<Eigen::Index>(run.cpus.size());
    m.usage = CountMatrix::Zero(rows, stateCount);
    m.above = CountMatrix::Zero(rows, stateCount);
    m.below = CountMatrix::Zero(rows, stateCount);
    m.timeNs = CountMatrix::Zero(rows, stateCount);
    for (Eigen::Index r = 0; r < rows; ++r) {
        const CpuRun &c = run.cpus[static_cast<size_t>(r)];
        m.cpus.push_back(c.cpu);
        for (int s = 0; s < std::min(stateCount, c.stateCount); ++s) {
            const StateStats &st = c.states[static_cast<size_t>(s)];
            m.usage(r, s) = st.usage;
            m.above(r, s) = st.above;
            m.below(r, s) = st.below;
            m.timeNs(r, s) = st.timeNs;
        }
    }
    return m;
}

} // namespace idlescope
