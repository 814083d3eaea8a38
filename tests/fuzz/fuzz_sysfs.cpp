// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: a copied /sys/devices/system/cpu tree (--table
 * sysfs:ROOT[:CPU]). The input describes the tree (tests/fuzz/sysfs_tree.h:
 * files, FIFOs, links to /dev/zero). The tree is made in a fresh temporary
 * folder and read for CPU 0; the result is a table (replayed through every
 * variant) or an Error, never a hang.
 */
#include "core/targets/sysfs_cpuidle.h"

#include "tests/fuzz/fuzz_replay.h"
#include "tests/fuzz/sysfs_tree.h"
#include "tests/fuzz/temporary_root.h"

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace fs = std::filesystem;

namespace {

const fs::path &root()
{
    static const idlescope::fuzz::TemporaryRoot r("idlescope-fuzz-sysfs");
    return r.path();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const fs::path tree = root() / "cpu";
    idlescope::fuzz::writeSysfsTree(tree, std::string_view(reinterpret_cast<const char *>(data), size));
    idlescope::Result<idlescope::SysfsCpuidle> s = idlescope::readSysfsCpuidle(tree.string(), 0);
    if (s)
        idlescope::fuzz::replayEveryVariant(s->table);
    return 0;
}
