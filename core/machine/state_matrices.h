// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file state_matrices.h
 * A machine run as CPU x state matrices (Eigen): usage, above, below and
 * residency time, one row per CPU with results, one column per table state.
 * Summing the rows (colwise) is summing the CPUs' sysfs files; energy is the
 * time matrix times a power vector (core/energy/energy.h).
 */
#pragma once

#include "core/machine/machine_run.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace idlescope {

using CountMatrix = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct StateMatrices {
    std::vector<int> cpus; ///< CPU of each row
    CountMatrix usage;
    CountMatrix above;
    CountMatrix below;
    CountMatrix timeNs;

    /// Row of @p cpu, -1 when it has no results.
    int rowOf(int cpu) const;
};

/// The matrices of @p run with @p stateCount columns (the widest table of the machine).
StateMatrices stateMatrices(const MachineRun &run, int stateCount);

} // namespace idlescope
