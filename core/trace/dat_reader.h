// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file dat_reader.h
 * The .dat reader program (app/dat_reader, installed in libexec/idlescope/):
 * the process in which libtracecmd and libtraceevent read a trace-cmd file,
 * so that their crashes on a damaged file end that process only
 * (dat_importer.cpp says why and what it sends back).
 *
 * It is a program of its own, started with posix_spawn, not a fork() of the
 * importing process: that process is often multi-threaded (the GUI's runner,
 * a pool of imports), and a forked child of a threaded process may call only
 * async-signal-safe functions, where the libraries allocate. Under
 * AddressSanitizer such a child hung in calloc about one import in five,
 * waiting for an allocator lock that another thread held at the fork.
 */
#pragma once

#include <string>

namespace idlescope::trace {

/// The reader: $IDLESCOPE_DAT_READER, else beside the running program, the build tree's or the installed one.
std::string datReaderPath();

/// Exit codes of the reader besides 0 (read; the result was sent).
inline constexpr int DAT_READER_REFUSED = 3; ///< the libraries refused the file; the Error was sent
inline constexpr int DAT_READER_USAGE = 5;   ///< started with wrong arguments

/**
 * The reader's whole work: reads @p file with libtracecmd and writes what it
 * reads to @p fd in dat_importer.cpp's protocol. Returns the exit code.
 * @p libraryKallsyms as ImportConfig::libraryKallsyms.
 */
int serveDatFile(const std::string &file, bool libraryKallsyms, int fd);

} // namespace idlescope::trace
