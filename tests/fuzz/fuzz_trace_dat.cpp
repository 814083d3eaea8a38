// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: bytes written to a file and imported as a trace file
 * (the content sniffing, then the .dat path through libtracecmd when the
 * magic matches, else the text path through LineReader). Seeded with the
 * real .dat files, so most inputs are damaged .dat files.
 */
#include "core/trace/trace_import.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    static const std::string path = "/dev/shm/idlescope-fuzz-" + std::to_string(::getpid()) + ".dat";
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    (void)trace::importTrace(path);
    return 0;
}
