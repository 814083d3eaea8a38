// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_settings.h
 * compare's --set items, "NAME=VALUE" (every listed governor that has the
 * tunable) or "GOVERNOR:NAME=VALUE" (that one), as each governor's own list
 * of settings for makeConfiguredGovernor().
 */
#pragma once

#include "core/common/error.h"
#include "core/replay/governor_run.h"

#include <string>
#include <vector>

namespace idlescope {

/// One list per governor, in @p governors order (variant ids). A GOVERNOR: prefix names
/// @p labels[g] (compare's LABEL=VARIANT instances; empty: the ids themselves). Errors
/// (named "set"): no '=', a value that is not an integer, a tunable no listed governor
/// has, a GOVERNOR: prefix naming a governor not listed; an unknown governor (named "governors").
Result<std::vector<std::vector<TunableSetting>>> settingsPerGovernor(const std::vector<std::string> &governors,
                                                                     const std::vector<std::string> &items,
                                                                     const std::vector<std::string> &labels = {});

} // namespace idlescope
