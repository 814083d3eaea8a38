// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file sysfs_tree.h
 * The copied /sys/devices/system/cpu tree that fuzz_sysfs reads, made from
 * its input text, one entry a line:
 *   PATH=CONTENT      a file (PATH: letters, digits, '_' and '/', no "..")
 *   !fifo PATH        a FIFO (opening it for reading would block for ever)
 *   !zero PATH        a symlink to /dev/zero (reading it would never end)
 * Shared with tst_trace_fuzz_regressions, which replays the inputs the fuzzer
 * kept in tests/fuzz/regressions/fuzz_sysfs through the same tree.
 */
#pragma once

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <sys/stat.h>

namespace idlescope::fuzz {

/// A path the tree may hold: relative, short, no "..", no odd characters.
inline bool safeSysfsPath(std::string_view p)
{
    if (p.empty() || p.size() > 120 || p.front() == '/' || p.find("..") != std::string_view::npos)
        return false;
    for (const char c : p)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/'))
            return false;
    return true;
}

/// Makes @p tree (emptied first) from @p text; at most 64 entries. A file line
/// for a path that is already a FIFO or a link leaves it as it is: writing a
/// FIFO that nobody reads would block the fuzzer itself (a timeout once,
/// regressions/fuzz_sysfs/fifo-then-file), and the importer is what is tested.
inline void writeSysfsTree(const std::filesystem::path &tree, std::string_view text)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::remove_all(tree, ec);
    fs::create_directories(tree, ec);
    int entries = 0;
    while (!text.empty() && entries < 64) {
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        ++entries;
        if (line.starts_with("!fifo ") || line.starts_with("!zero ")) {
            const std::string_view p = line.substr(6);
            if (!safeSysfsPath(p))
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
        if (eq == std::string_view::npos || !safeSysfsPath(line.substr(0, eq)))
            continue;
        const fs::path target = tree / std::string(line.substr(0, eq));
        const fs::file_status was = fs::symlink_status(target, ec);
        if (fs::exists(was) && !fs::is_regular_file(was))
            continue;
        fs::create_directories(target.parent_path(), ec);
        std::ofstream(target, std::ios::binary) << line.substr(eq + 1) << '\n';
    }
}

} // namespace idlescope::fuzz
