// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-dat-reader [--library-kallsyms] -- FILE: reads a trace-cmd .dat
 * file with libtracecmd and libtraceevent and writes its events on stdout in
 * the protocol of core/trace/dat_importer.cpp. Not meant to be run by hand:
 * idlescope starts it for every .dat it imports, so that a crash of the
 * libraries on a damaged file ends this process only (core/trace/dat_reader.h).
 */
#include "core/trace/dat_reader.h"

#include <cstring>
#include <string>
#include <unistd.h>

// gcc says __SANITIZE_ADDRESS__, clang (the fuzz build) __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define IDLESCOPE_READER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IDLESCOPE_READER_ASAN 1
#endif
#endif

#ifdef IDLESCOPE_READER_ASAN
/*
 * libtraceevent can crash on a damaged event format (dat_importer.cpp): that is
 * this process dying by its signal, which the importer reports as a damaged
 * file. In a sanitizer build (the asan preset, the fuzzers) ASan would turn the
 * signal into its own report and exit code, which the importer, rightly, takes
 * for a memory error; so the fatal signals stay the kernel's. ASan still checks
 * every memory access of ours and reports it with its exit code.
 */
extern "C" const char *__asan_default_options()
{
    return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0:handle_sigill=0";
}
#endif

int main(int argc, char **argv)
{
    bool libraryKallsyms = false;
    int i = 1;
    for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
        if (std::strcmp(argv[i], "--library-kallsyms") != 0) {
            const char usage[] = "usage: idlescope-dat-reader [--library-kallsyms] -- FILE (started by idlescope)\n";
            (void)!::write(STDERR_FILENO, usage, sizeof usage - 1);
            return idlescope::trace::DAT_READER_USAGE;
        }
        libraryKallsyms = true;
    }
    if (i + 2 != argc)
        return idlescope::trace::DAT_READER_USAGE;
    // _exit: what libtracecmd built is left to the kernel (Teardown::LeaveToExit), and
    // a leak checker must not count it as ours.
    ::_exit(idlescope::trace::serveDatFile(argv[i + 1], libraryKallsyms, STDOUT_FILENO));
}
