// SPDX-License-Identifier: GPL-3.0-or-later
// Placeholder until the pre-2021 teo (v5.13) lands: no variants yet.
#include "core/governors/registry.h"

namespace idlescope {

std::span<const VariantInfo> teoLegacyVariants() { return {}; }

std::unique_ptr<Governor> makeTeoLegacyGovernor(const VariantInfo &) { return nullptr; }

} // namespace idlescope
