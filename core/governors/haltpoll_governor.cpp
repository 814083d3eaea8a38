// SPDX-License-Identifier: GPL-3.0-or-later
// Placeholder until the haltpoll family lands: no variants yet.
#include "core/governors/registry.h"

namespace idlescope {

std::span<const VariantInfo> haltpollVariants() { return {}; }

std::unique_ptr<Governor> makeHaltpollGovernor(const VariantInfo &) { return nullptr; }

} // namespace idlescope
