// SPDX-License-Identifier: GPL-3.0-or-later
// Placeholder until the menu family lands: no variants yet.
#include "core/governors/registry.h"

namespace idlescope {

std::span<const VariantInfo> menuVariants() { return {}; }

std::unique_ptr<Governor> makeMenuGovernor(const VariantInfo &) { return nullptr; }

} // namespace idlescope
