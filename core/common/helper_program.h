// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file helper_program.h
 * Where one of idlescope's helper programs is (the governor host, the .dat
 * reader): programs that idlescope starts itself, installed in
 * libexec/idlescope/ rather than on PATH.
 */
#pragma once

#include <string>

namespace idlescope {

struct HelperProgram {
    const char *name;          ///< the file name, e.g. "idlescope-dat-reader"
    const char *environment;   ///< a variable that overrides the lookup when set
    const char *buildPath;     ///< this build tree's copy ("" when unknown)
    const char *installedPath; ///< where `cmake --install` puts it
};

/**
 * $environment when set; else ../libexec/idlescope/NAME beside the running
 * program (an installed tree, wherever its prefix); else the build tree's
 * copy; else the install path, which may not exist (the start then fails with
 * that path in its message).
 */
std::string helperProgramPath(const HelperProgram &program);

} // namespace idlescope
