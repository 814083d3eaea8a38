// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A fresh folder under the temporary directory (TMPDIR, else /tmp) for the
 * files a fuzz target writes its inputs to, removed with what is in it when
 * the fuzzer exits (a crash leaves it, beside the crashing input): left
 * behind, one per run, they fill the machine's temporary directory.
 */
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

namespace idlescope::fuzz {

class TemporaryRoot {
public:
    /// A folder named @p prefix plus six random characters.
    explicit TemporaryRoot(const std::string &prefix)
    {
        std::string t = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        if (!::mkdtemp(t.data()))
            std::abort();
        m_path = t;
    }
    ~TemporaryRoot()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    TemporaryRoot(const TemporaryRoot &) = delete;
    TemporaryRoot &operator=(const TemporaryRoot &) = delete;

    const std::filesystem::path &path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace idlescope::fuzz
