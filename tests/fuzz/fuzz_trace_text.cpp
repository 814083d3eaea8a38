// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: trace text (ftrace, trace-cmd report, perf script) through
 * the whole import: line parser, reconstruction, statistics (with and without
 * a table), the replay-stream export and the three renderings. Any input must
 * give a result or an Error, never a crash, a sanitizer report or a stream the
 * conformance reader rejects.
 */
#include "core/formats/stream_csv.h"
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_stats.h"
#include "core/trace/trace_stream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

IdleStateTable table()
{
    IdleStateTable t;
    t.id = "fuzz";
    t.states = {{"WFI", "", 1000, 1000, false, false}, {"C2", "", 100000, 300000, false, false}};
    return t;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    Result<TraceImport> r = importTraceText(text, "fuzz");
    if (!r)
        return 0;
    static const IdleStateTable t = table();
    const TraceStats withTable = computeStats(*r, &t);
    const TraceStats plain = computeStats(*r, nullptr);
    (void)formatStatsMarkdown({*r, withTable, nullptr});
    (void)formatStatsCsv({*r, plain, nullptr});
    (void)formatStatsJson({*r, withTable, nullptr});
    for (const CpuTrace &c : r->cpus) {
        const StreamExport ex = toReplayStream(c);
        for (size_t i = 0; i < ex.stream.size(); ++i)
            if (Status st = validateSpan(ex.stream[i], "fuzz", static_cast<std::int64_t>(i) + 2); !st) {
                // An exported row the conformance reader would reject: say which, then fail.
                std::fprintf(stderr, "CPU %d: %s\n", c.cpu, st.error().toString().c_str());
                std::abort();
            }
    }
    return 0;
}
