// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/governor_host_path.h"

#include "core/common/helper_program.h"

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
    return helperProgramPath({"idlescope-governor-host", "IDLESCOPE_GOVERNOR_HOST", IDLESCOPE_GOVERNOR_HOST_BUILD,
                              IDLESCOPE_GOVERNOR_HOST_INSTALLED});
}

} // namespace idlescope::source_governor
