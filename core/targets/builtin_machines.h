// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file builtin_machines.h
 * Built-in machines: the CPU layout of boards whose sources say which CPUs
 * form which cluster, with the built-in idle-state table of each cluster and,
 * where a public energy model gives them, power numbers (each cited in
 * builtin_machines.cpp). Ids: "rk3399" (4 x Cortex-A53 + 2 x Cortex-A72),
 * "juno-r0" (4 x Cortex-A53 + 2 x Cortex-A57). Other machines are one
 * table on N CPUs (Machine::uniform()).
 */
#pragma once

#include "core/common/error.h"
#include "core/machine/machine.h"

#include <optional>
#include <string>
#include <vector>

namespace idlescope {

struct BuiltinMachineInfo {
    std::string id;
    std::string label;
    std::string source;
};

const std::vector<BuiltinMachineInfo> &builtinMachines();

/// The machine with this id; Error (field "machine") listing the known ones.
Result<Machine> builtinMachine(const std::string &id);

/// The built-in machine every cluster of which has the built-in table @p tableId
/// (arm-juno-r0: juno-r0), with @p table (that table as the user edited it) in
/// each cluster; nullopt when no built-in machine has that table, or when @p table
/// has another state count (the power data is sized for the built-in one). A trace
/// of a known board then replays on its CPU layout with its energy model.
std::optional<Machine> builtinMachineOfTable(const std::string &tableId, const IdleStateTable &table);

/**
 * The machine @p cpus CPUs of a table replay on, and so the one source of their energy: the
 * built-in machine of built-in table @p tableId (builtinMachineOfTable(): its layout and its
 * energy model) when it has at least @p cpus CPUs; otherwise @p table on @p cpus CPUs with
 * @p power (a table file's power data, or none) on each. @p tableId is "" for a table that is
 * not built in (a file, sysfs). The window's CPUs dock replays this machine and the one-CPU
 * views price the replayed CPU with its cluster's power data.
 */
Machine machineOfTable(const std::string &tableId, const IdleStateTable &table, const PowerModel &power, int cpus);

} // namespace idlescope
