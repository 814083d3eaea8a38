// SPDX-License-Identifier: GPL-3.0-or-later
// Placeholder until the ladder family lands: no variants yet.
#include "core/governors/registry.h"

namespace idlescope {

std::span<const VariantInfo> ladderVariants() { return {}; }

std::unique_ptr<Governor> makeLadderGovernor(const VariantInfo &) { return nullptr; }

} // namespace idlescope
