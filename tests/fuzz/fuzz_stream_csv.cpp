// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: the conformance stream CSV reader. Any input is a stream
 * or an Error naming line and field; a stream is written back and re-read
 * (the same spans), and a short one (at most 10 ms of wake time, so that one
 * input stays fast: the replay makes one entry per poll window, hundreds of
 * thousands for a 14 s span under a zero latency limit) is replayed through
 * every variant on a table with a polling state.
 */
#include "core/formats/stream_csv.h"

#include "tests/fuzz/fuzz_replay.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    Result<IdleStream> s = parseStreamCsv(text, "fuzz");
    if (!s)
        return 0;
    if (firstSpanPastStreamLimit(*s) >= 0)
        std::abort(); // the reader let a stream past the clock limit through
    const std::string again = formatStreamCsv(*s);
    Result<IdleStream> back = parseStreamCsv(again, "again");
    if (!back || back->size() != s->size())
        std::abort();
    Ns wake = 0;
    for (const IdleSpan &span : *s)
        wake += span.wakeNs;
    if (wake <= 10 * 1000 * 1000)
        fuzz::replayEveryVariant(fuzz::pollingTable(), *s);
    return 0;
}
