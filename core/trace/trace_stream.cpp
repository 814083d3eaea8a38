// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_stream.h"

#include "core/io/stream_csv.h"

#include <algorithm>

namespace idlescope::trace {

StreamExport toReplayStream(const CpuTrace &cpu)
{
    StreamExport out;
    out.stream.reserve(cpu.spans.size());
    bool first = true;
    for (size_t i = 0; i < cpu.spans.size(); ++i) {
        const IdleSpanRec &sp = cpu.spans[i];
        if (sp.flags & (SPAN_TRUNCATED_START | SPAN_TRUNCATED_END)) {
            ++out.truncatedSkipped;
            continue;
        }
        IdleSpan row;
        const Ns before = sp.prevEndNs >= 0 ? sp.prevEndNs : (first ? cpu.firstNs : sp.startNs);
        // A busy stretch longer than the stream format takes changes nothing a
        // governor sees but the tick phase: clamp it. An idle span that long
        // is not replayable: skip it, counted.
        row.gapNs = std::min(MAX_SPAN_NS, std::max<Ns>(0, sp.startNs - before));
        row.wakeNs = std::max<Ns>(0, sp.wakeNs - sp.startNs);
        if (row.wakeNs > MAX_SPAN_NS) {
            ++out.tooLongSkipped;
            continue;
        }
        if (sp.timerNs < 0) {
            row.timerNs = row.wakeNs;
            ++out.timerFallback;
        } else if (sp.timerNs <= row.wakeNs && (sp.flags & SPAN_TIMER_WAKE)) {
            // The hrtimer armed at the span start ended it: the wakeup is its expiry (the exit
            // comes a handler and an exit latency later).
            row.timerNs = sp.timerNs;
            row.wakeNs = sp.timerNs;
            ++out.timerWakes;
        } else if (sp.timerNs < row.wakeNs) {
            row.timerNs = row.wakeNs;
            ++out.timerClamped;
        } else {
            row.timerNs = sp.timerNs;
        }
        row.latencyReqNs = NO_LATENCY_REQ;
        row.util = 0;
        out.stream.push_back(row);
        out.spanIndex.push_back(static_cast<std::int32_t>(i));
        first = false;
    }
    return out;
}

} // namespace idlescope::trace
