// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file kernel_version.h
 * A kernel release, major.minor: what a variant reproduces (VariantInfo::base)
 * and the range of kernels the source-governor shim follows.
 */
#pragma once

#include <compare>
#include <string>

namespace idlescope {

/// A kernel release, major.minor; {0, 0} for none (the oracle).
struct KernelVersion {
    int major = 0;
    int minor = 0;
    constexpr auto operator<=>(const KernelVersion &) const = default;
};

/// "6.19".
inline std::string versionText(KernelVersion v)
{
    return std::to_string(v.major) + "." + std::to_string(v.minor);
}

} // namespace idlescope
