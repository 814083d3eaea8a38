// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: pasted `cpupower idle-info` text. Any input is a table or
 * an Error naming line and field (µs -> ns overflow included); a table is
 * replayed through every governor variant (fuzz_replay.h).
 */
#include "core/targets/cpupower_import.h"

#include "tests/fuzz/fuzz_replay.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    idlescope::Result<idlescope::CpupowerIdleInfo> c = idlescope::parseCpupowerIdleInfo(text, "fuzz");
    if (!c)
        return 0;
    if (!c->table.validate().ok())
        std::abort(); // the importer returned a table it should have refused
    idlescope::fuzz::replayEveryVariant(c->table);
    return 0;
}
