// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cpupower_import.h
 * Imports the text users paste from `cpupower idle-info`
 * (tools/power/cpupower/utils/cpuidle-info.c):
 *
 *     CPUidle driver: acpi_idle
 *     CPUidle governor: menu
 *     analyzing CPU 12:
 *
 *     Number of idle states: 4
 *     Available idle states: POLL C1 C2 C3
 *     POLL:
 *     Flags/Description: CPUIDLE CORE POLL IDLE
 *     Latency: 0
 *     Residency: 0          (newer cpupower only)
 *     Usage: 946
 *     Duration: 56142
 *     C1 (DISABLED) :       (a state disabled through sysfs)
 *     ...
 *
 * Latency and Residency are in us. Older cpupower prints no Residency line:
 * the target residency is then set to the exit latency and a warning says so.
 * Only the first CPU's states are read when several CPUs were analysed.
 * Errors name the line: no "CPUidle driver" line, a state without Latency, a
 * number that is not a whole number, a count that disagrees with "Number of
 * idle states", output with no state blocks (run without --silent).
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"

#include <string>
#include <string_view>
#include <vector>

namespace idlescope {

struct CpupowerIdleInfo {
    std::string driver;
    std::string governor;
    int cpu = -1;
    IdleStateTable table; ///< id "cpupower-cpuN"
    std::vector<std::string> warnings;
};

/// Parses pasted `cpupower idle-info` output; @p label names it in errors.
Result<CpupowerIdleInfo> parseCpupowerIdleInfo(std::string_view text, const std::string &label);

/// Reads a file holding that output.
Result<CpupowerIdleInfo> readCpupowerIdleInfo(const std::string &path);

} // namespace idlescope
