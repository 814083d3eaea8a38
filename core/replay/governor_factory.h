// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_factory.h
 * A governor for any id a user can name: a built-in variant of the registry
 * ("menu-6.14", "teo-latest", …) or a governor built from a kernel source
 * file ("src:FILE.c"). The registry knows only the built-in families; the
 * source governor runs a replay of its own in a helper process, so the one
 * place that joins the two sits here, beside the replay that runs them.
 */
#pragma once

#include "core/governors/governor.h"

#include <memory>
#include <string_view>

namespace idlescope {

/// A fresh governor for the id (built-in or "src:"), or nullptr for an unknown id.
std::unique_ptr<Governor> createGovernor(std::string_view id);

} // namespace idlescope
