// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file builtin_targets.h
 * The built-in idle-state tables of resources/targets/, compiled into the
 * program. Every value comes from shared/docs/state-tables.json and each table
 * keeps its source (kernel file, symbol, version or device tree) in "source".
 *
 * Ids: intel-skl, intel-skx, ..., acpi-generic, pseries-dedicated,
 * pseries-power10-lpar, powernv-power9, arm-rk3399, sm8250-silver,
 * gs101-x1, haltpoll-guest, ... (builtinTargets() lists them). Aliases:
 * "pseries-p10" = pseries-power10-lpar (the conformance kit's name).
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"

#include <string>
#include <string_view>
#include <vector>

namespace idlescope {

/// What a built-in table is, for lists and tooltips.
struct BuiltinTargetInfo {
    std::string id;
    std::string label;  ///< one line, e.g. "Intel Skylake-X / Cascade Lake ..."
    std::string driver; ///< intel_idle, acpi_idle, pseries_idle, powernv_idle, psci_idle, haltpoll
    std::string kind;   ///< kernel-static-table, device-tree, firmware-derived, observed-sample
    std::string source; ///< kernel file, symbol and version the values come from
    std::string cpus;   ///< which CPUs the table applies to, where it differs by cluster
    int stateCount = 0;
    int tickHz = 250;
};

/// Every built-in table, sorted by id. Parsed once; the list is immutable.
const std::vector<BuiltinTargetInfo> &builtinTargets();

/// The table with this id or alias. Error (field "table") for an unknown id,
/// listing the known ones.
Result<IdleStateTable> builtinTarget(std::string_view id);

/// The embedded JSON text of a table (empty for an unknown id); aliases resolve.
std::string_view builtinTargetJson(std::string_view id);

/// An alias's target id, or @p id itself.
std::string_view resolveTargetAlias(std::string_view id);

} // namespace idlescope
