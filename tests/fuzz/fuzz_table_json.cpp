// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: the state-table JSON reader. Any input is a table or an
 * Error; a table that validates is replayed through every governor variant
 * (fuzz_replay.h), which is how a one-state table indexing past its end was
 * found. Seeds: resources/targets, the conformance tables, tests/data.
 */
#include "core/io/table_json.h"

#include "tests/fuzz/fuzz_replay.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    idlescope::Result<idlescope::IdleStateTable> t = idlescope::parseTableJson(text, "fuzz");
    if (!t)
        return 0;
    (void)idlescope::formatTableJson(*t);
    idlescope::fuzz::replayEveryVariant(*t);
    return 0;
}
