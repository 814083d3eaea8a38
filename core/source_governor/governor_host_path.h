// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_host_path.h
 * Where the governor host executable is: $IDLESCOPE_GOVERNOR_HOST, else
 * ../libexec/idlescope/ beside the running program, else this build tree's,
 * else the install prefix's.
 */
#pragma once

#include <string>

namespace idlescope::source_governor {

std::string governorHostPath();

} // namespace idlescope::source_governor
