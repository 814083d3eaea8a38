// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file sysfs_cpuidle.h
 * "This machine": the idle-state table of one CPU as the kernel exposes it in
 * sysfs (drivers/cpuidle/sysfs.c): /sys/devices/system/cpu/cpuN/cpuidle/stateK/
 * {name, desc, latency, residency, disable, default_status} and the global
 * /sys/devices/system/cpu/cpuidle/{current_driver, current_governor(_ro)}.
 *
 * latency and residency are printed in us (the _ns fields / 1000), so the
 * table holds them * 1000 ns. A state is disabled when "disable" is 1 (user)
 * or default_status is "disabled" (CPUIDLE_FLAG_OFF). State 0 is the polling
 * state when it is named POLL (poll_state.c) or snooze (POWER), or its desc is
 * "CPUIDLE CORE POLL IDLE". The tick rate is not in sysfs: the table gets 250
 * Hz and a warning says to set it.
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"

#include <string>
#include <vector>

namespace idlescope {

struct SysfsCpuidle {
    std::string driver;   ///< current_driver, e.g. "intel_idle"
    std::string governor; ///< current_governor (or current_governor_ro), e.g. "menu"
    int cpu = 0;
    IdleStateTable table;              ///< id "this-machine-cpuN"
    std::vector<std::string> warnings; ///< e.g. missing residency files on old kernels
};

/// The default root of the CPU devices.
inline constexpr const char *SYSFS_CPU_ROOT = "/sys/devices/system/cpu";

/**
 * Reads CPU @p cpu's table under @p cpuRoot (tests pass a fake tree).
 * Errors: no cpuidle directory or driver "none" (a plain message that the
 * machine has no cpuidle driver, as in many VMs), no stateN folders, a missing
 * or malformed name/latency file (the error names the file).
 */
Result<SysfsCpuidle> readSysfsCpuidle(const std::string &cpuRoot = SYSFS_CPU_ROOT, int cpu = 0);

/// True when a state named @p name with description @p desc at index 0 is a polling loop.
bool looksLikePollingState(const std::string &name, const std::string &desc);

} // namespace idlescope
