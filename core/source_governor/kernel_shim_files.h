// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file kernel_shim_files.h
 * The kernel shim (core/source_governor/shim) built into idlescope: the
 * headers a governor file is compiled against and the shim runtime linked
 * with it, by path relative to the shim directory ("include/linux/tick.h",
 * "runtime.c").
 */
#pragma once

#include <string_view>
#include <vector>

namespace idlescope::source_governor {

struct ShimFile {
    std::string_view path;
    std::string_view text;
};

/// Every shim file, sorted by path (generated at build time).
const std::vector<ShimFile> &kernelShimFiles();

} // namespace idlescope::source_governor
