// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file oracle_reasoning.h
 * What the oracle (not a kernel governor) knew when it chose.
 */
#pragma once

#include "core/common/kernel_types.h"

namespace idlescope {

struct OracleReasoning {
    Ns idleNs = 0;       ///< the real time to the wakeup
    Ns latencyReqNs = 0; ///< latency limit it respected
    int chosenIdx = 0;
};

} // namespace idlescope
