// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/helper_program.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace idlescope {

std::string helperProgramPath(const HelperProgram &program)
{
    namespace fs = std::filesystem;
    if (const char *env = std::getenv(program.environment); env && *env)
        return env;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // Installed: bin/idlescope-cli and libexec/idlescope/NAME.
        const fs::path installed = self.parent_path().parent_path() / "libexec/idlescope" / program.name;
        if (fs::exists(installed, ec))
            return installed.string();
    }
    for (const char *p : {program.buildPath, program.installedPath})
        if (*p && fs::exists(p, ec))
            return p;
    return program.installedPath;
}

} // namespace idlescope
