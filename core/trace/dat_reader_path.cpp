// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/dat_reader.h"

#include "core/common/helper_program.h"

// Set for this file by core/trace/CMakeLists.txt (and by the fuzz build, whose
// reader is instrumented like its targets).
#ifndef IDLESCOPE_DAT_READER_BUILD
#define IDLESCOPE_DAT_READER_BUILD ""
#endif
#ifndef IDLESCOPE_DAT_READER_INSTALLED
#define IDLESCOPE_DAT_READER_INSTALLED "/usr/libexec/idlescope/idlescope-dat-reader"
#endif

namespace idlescope::trace {

std::string datReaderPath()
{
    return helperProgramPath(
        {"idlescope-dat-reader", "IDLESCOPE_DAT_READER", IDLESCOPE_DAT_READER_BUILD, IDLESCOPE_DAT_READER_INSTALLED});
}

} // namespace idlescope::trace
