// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_stream.h"

#include "core/io/stream_csv.h"

#include <algorithm>

namespace idlescope::trace {

const char *spanDropName(SpanDrop d)
{
    switch (d) {
    case SpanDrop::MissingSwitch: return "missing_switch";
    case SpanDrop::MissingExit: return "missing_exit";
    case SpanDrop::TraceStart: return "trace_start";
    case SpanDrop::TraceEnd: return "trace_end";
    case SpanDrop::TooLong: return "too_long";
    }
    return "?";
}

const char *spanDropLabel(SpanDrop d)
{
    switch (d) {
    case SpanDrop::MissingSwitch: return "missing a sched_switch";
    case SpanDrop::MissingExit: return "missing a cpu_idle exit";
    case SpanDrop::TraceStart: return "cut by the trace's start";
    case SpanDrop::TraceEnd: return "cut by the trace's end";
    case SpanDrop::TooLong: return "too long for a stream";
    }
    return "?";
}

bool spanCut(const IdleSpanRec &span, SpanDrop *why)
{
    // A missing event is named before the trace's edges: a span that lacks a switch is
    // lost to the replay even when the trace covers it.
    if (span.flags & SPAN_MISSING_SWITCH)
        *why = SpanDrop::MissingSwitch;
    else if (span.flags & SPAN_MISSING_EXIT)
        *why = SpanDrop::MissingExit;
    else if (span.flags & SPAN_TRUNCATED_START)
        *why = SpanDrop::TraceStart;
    else if (span.flags & SPAN_TRUNCATED_END)
        *why = SpanDrop::TraceEnd;
    else
        return false;
    return true;
}

std::string spanAccountText(std::int64_t total, std::int64_t exported, const SpanDrops &dropped)
{
    std::string s =
        std::to_string(total) + (total == 1 ? " span = " : " spans = ") + std::to_string(exported) + " exported";
    for (int k = 0; k < SPAN_DROP_COUNT; ++k)
        if (dropped[static_cast<size_t>(k)])
            s +=
                " + " + std::to_string(dropped[static_cast<size_t>(k)]) + " " + spanDropLabel(static_cast<SpanDrop>(k));
    return s;
}

StreamExport toReplayStream(const CpuTrace &cpu)
{
    StreamExport out;
    out.stream.reserve(cpu.spans.size());
    bool first = true;
    for (size_t i = 0; i < cpu.spans.size(); ++i) {
        const IdleSpanRec &sp = cpu.spans[i];
        if (SpanDrop why; spanCut(sp, &why)) {
            ++out.dropped[static_cast<size_t>(why)];
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
            ++out.dropped[static_cast<size_t>(SpanDrop::TooLong)];
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
