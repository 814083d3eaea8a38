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

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

/// A fresh temporary folder for the trees, removed with what is in it when the
/// fuzzer exits (a crash leaves it, beside the crashing input).
class TemporaryRoot {
public:
    TemporaryRoot()
    {
        std::string t = (fs::temp_directory_path() / "idlescope-fuzz-sysfs-XXXXXX").string();
        if (!::mkdtemp(t.data()))
            std::abort();
        m_path = t;
    }
    ~TemporaryRoot()
    {
        std::error_code ignored;
        fs::remove_all(m_path, ignored);
    }
    TemporaryRoot(const TemporaryRoot &) = delete;
    TemporaryRoot &operator=(const TemporaryRoot &) = delete;
    const fs::path &path() const { return m_path; }

private:
    fs::path m_path;
};

const fs::path &root()
{
    static const TemporaryRoot r;
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
