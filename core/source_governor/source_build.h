// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_build.h
 * Building a kernel governor source file (menu.c, teo.c, a patched copy)
 * against idlescope's kernel shim into a shared object the governor host
 * loads. The system C compiler ($CC, else cc) compiles it as the kernel
 * would (gnu11, -fno-strict-overflow, -fno-strict-aliasing, no libc
 * headers), with the shim runtime linked in and every symbol resolved at
 * link time. Results are cached by content: the file, the headers beside
 * it, the shim, the compiler and the flags; the compiler's warnings are kept
 * with the object.
 */
#pragma once

#include "core/common/error.h"

#include <string>

namespace idlescope::source_governor {

struct BuiltGovernor {
    std::string sharedObject; ///< the .so in the cache
    std::string warnings;     ///< the compiler's warnings, if any (on a cache hit: its build's)
    bool cached = false;      ///< found in the cache: nothing was compiled
};

/// Seconds a build may take (the compiler, its cc1, as and ld) before it is stopped.
inline constexpr int DEFAULT_BUILD_TIMEOUT_S = 120;

/**
 * Builds @p sourcePath (or finds it in the cache). Errors: an unreadable
 * file, or one that is not a regular file (a FIFO, a device: never waited
 * on); no compiler; a cache that is not the user's own; a build past
 * @p timeoutSeconds; the compiler's own file:line:column messages when the
 * file does not compile, each symbol the shim lacks named as "not provided
 * yet".
 */
Result<BuiltGovernor> buildSourceGovernor(const std::string &sourcePath, int timeoutSeconds = DEFAULT_BUILD_TIMEOUT_S);

/// The cache: $IDLESCOPE_CACHE_DIR, else $XDG_CACHE_HOME/idlescope, else ~/.cache/idlescope,
/// else (no HOME: cron, systemd, env -i) /tmp/idlescope-cache-UID.
std::string cacheDirectory();

/// cacheDirectory(), made 0700 if it is not yet; an Error when it belongs to another user
/// (anyone could have made the /tmp one first and put objects in it).
Result<std::string> privateCacheDirectory();

/// What is kept of the compiler's output: its first lines.
inline constexpr int MAX_COMPILER_LINES = 50;
inline constexpr std::size_t MAX_COMPILER_BYTES = 8 * 1024;

/// @p output up to MAX_COMPILER_LINES lines and MAX_COMPILER_BYTES, then a line
/// "… N more lines of compiler output" when there was more.
std::string capCompilerOutput(const std::string &output);

/// What the compiler said, with a note after it for each shim gap it reveals.
std::string explainCompilerOutput(const std::string &output);

} // namespace idlescope::source_governor
