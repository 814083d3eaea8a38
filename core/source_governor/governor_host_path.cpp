// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/governor_host_path.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

// Set for this file by core/CMakeLists.txt; a target that compiles it
// elsewhere (the fuzzers) gets the install default only.
#ifndef IDLESCOPE_GOVERNOR_HOST_BUILD
#define IDLESCOPE_GOVERNOR_HOST_BUILD ""
#endif
#ifndef IDLESCOPE_GOVERNOR_HOST_INSTALLED
#define IDLESCOPE_GOVERNOR_HOST_INSTALLED "/usr/libexec/idlescope/idlescope-governor-host"
#endif

namespace idlescope::source_governor {

std::string governorHostPath()
{
    namespace fs = std::filesystem;
    if (const char *env = std::getenv("IDLESCOPE_GOVERNOR_HOST"); env && *env)
        return env;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // Installed: bin/idlescope-cli and libexec/idlescope/idlescope-governor-host.
        const fs::path installed = self.parent_path().parent_path() / "libexec/idlescope/idlescope-governor-host";
        if (fs::exists(installed, ec))
            return installed.string();
    }
    for (const char *p : {IDLESCOPE_GOVERNOR_HOST_BUILD, IDLESCOPE_GOVERNOR_HOST_INSTALLED})
        if (*p && fs::exists(p, ec))
            return p;
    return IDLESCOPE_GOVERNOR_HOST_INSTALLED;
}

} // namespace idlescope::source_governor
