// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file recorded_governor.h
 * Which cpuidle governor ran while a trace was recorded. No trace format
 * carries it: a trace-cmd .dat's options hold the clock, uname, trace-cmd
 * version, CPU statistics and command lines, never the cpuidle governor, and
 * ftrace text has no header for it. So it comes from a saved copy of
 * /sys/devices/system/cpu/cpuidle/current_governor: the file
 * `idlescope-cli record` writes beside the trace (TRACE.governor, the sysfs
 * file's one word), or a machine description holding a
 * "current_governor: NAME" line (what grep prints for the sysfs files with the
 * path, a ':' and the value, or a hand-written note such as the
 * vm-amd-2cpu.machine.txt of tests/data/traces).
 */
#pragma once

#include "core/common/error.h"

#include <string>

namespace idlescope::trace {

/// The governor named in @p path: its first line when that is one word, else the value of
/// the first line whose key ends in "current_governor". Errors (file, line, field
/// "current_governor"): no such line, a value that is not one governor name (1..15 of
/// a-z, 0-9, '_', '-': the kernel's CPUIDLE_NAME_LEN), an unreadable file.
Result<std::string> readSavedGovernor(const std::string &path);

/// The governor saved beside the trace at @p tracePath (TRACE.governor), "" when there is
/// no such file; errors as readSavedGovernor().
Result<std::string> governorBesideTrace(const std::string &tracePath);

} // namespace idlescope::trace
