// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: bytes written to a file and imported as a trace file
 * (the content sniffing, then the .dat path through libtracecmd when the
 * magic matches, else the text path through LineReader). Seeded with the
 * real .dat files cut small (tests/fuzz/seeds), so most inputs are damaged
 * .dat files.
 */
#include "core/trace/trace_import.h"
#include "tests/fuzz/temporary_root.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    static const fuzz::TemporaryRoot root("idlescope-fuzz-dat");
    static const std::string path = (root.path() / "input.dat").string();
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    const Result<trace::TraceImport> r = trace::importTrace(path);
    // The .dat is read in the reader process (core/trace/dat_reader.h; in this build
    // fuzz_dat_reader, instrumented like this target). The libraries dying there by a
    // signal is tolerated by design (an Error), but a sanitizer report in the reader
    // ends it with an exit code, and must fail the run like one here would: the report
    // is on stderr above.
    if (!r && r.error().message.find("crashed reading this .dat file (exit code") != std::string::npos)
        std::abort();
    return 0;
}
