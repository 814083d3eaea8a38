// SPDX-License-Identifier: GPL-3.0-or-later
// Placeholder until the teo family lands: no variants yet.
#include "core/governors/registry.h"

namespace idlescope {

std::span<const VariantInfo> teoVariants() { return {}; }

std::unique_ptr<Governor> makeTeoGovernor(const VariantInfo &) { return nullptr; }

} // namespace idlescope
