// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: a copied /sys/devices/system/cpu tree (--table
 * sysfs:ROOT[:CPU]). The input describes the tree, one entry a line:
 *   PATH=CONTENT      a file (PATH: letters, digits, '_' and '/', no "..")
 *   !fifo PATH        a FIFO (opening it for reading would block for ever)
 *   !zero PATH        a symlink to /dev/zero (reading it would never end)
 * The tree is made in a fresh temporary folder and read for CPU 0; the result
 * is a table (replayed through every variant) or an Error, never a hang.
 */
#include "core/targets/sysfs_cpuidle.h"

#include "tests/fuzz/fuzz_replay.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const fs::path &root()
{
    static const fs::path r = [] {
        std::string t = (fs::temp_directory_path() / "idlescope-fuzz-sysfs-XXXXXX").string();
        if (!::mkdtemp(t.data()))
            std::abort();
        return fs::path(t);
    }();
    return r;
}

bool safePath(std::string_view p)
{
    if (p.empty() || p.size() > 120 || p.front() == '/' || p.find("..") != std::string_view::npos)
        return false;
    for (const char c : p)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/'))
            return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const fs::path tree = root() / "cpu";
    std::error_code ec;
    fs::remove_all(tree, ec);
    fs::create_directories(tree, ec);
    std::string_view text(reinterpret_cast<const char *>(data), size);
    int entries = 0;
    while (!text.empty() && entries < 64) {
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        ++entries;
        if (line.starts_with("!fifo ") || line.starts_with("!zero ")) {
            const std::string_view p = line.substr(6);
            if (!safePath(p))
                continue;
            const fs::path target = tree / std::string(p);
            fs::create_directories(target.parent_path(), ec);
            if (line[1] == 'f')
                ::mkfifo(target.c_str(), 0600);
            else
                fs::create_symlink("/dev/zero", target, ec);
            continue;
        }
        const size_t eq = line.find('=');
        if (eq == std::string_view::npos || !safePath(line.substr(0, eq)))
            continue;
        const fs::path target = tree / std::string(line.substr(0, eq));
        fs::create_directories(target.parent_path(), ec);
        std::ofstream(target, std::ios::binary) << line.substr(eq + 1) << '\n';
    }
    idlescope::Result<idlescope::SysfsCpuidle> s = idlescope::readSysfsCpuidle(tree.string(), 0);
    if (s)
        idlescope::fuzz::replayEveryVariant(s->table);
    return 0;
}
