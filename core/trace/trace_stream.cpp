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

void StreamRows::reserve(std::size_t n)
{
    spanIndex.reserve(n);
    firstEntry.reserve(n);
    entryCount.reserve(n);
    startNs.reserve(n);
}

namespace {

// An entry that an in-idle wakeup ended is a row boundary; one the tick ended is not
// (the replay's tick ends it or, with the tick stopped, does not).
bool endsRow(const IdleEntryRec &e)
{
    return e.cause != WakeCause::Tick;
}

// Times of one row on the trace clock, before it becomes an IdleSpan.
struct RowTimes {
    Ns startNs;
    Ns wakeNs;      // its last idle exit
    Ns timerNs;     // next timer expiry - startNs, -1 unknown
    bool timerWoke; // that timer ended the row
};

// Sets the row's timer_ns and maybe its wake_ns (a timer wakeup is moved to the expiry), counted.
void placeTimer(const RowTimes &t, IdleSpan &row, StreamExport &out)
{
    if (t.timerNs < 0) {
        row.timerNs = row.wakeNs;
        ++out.timerFallback;
    } else if (t.timerNs <= row.wakeNs && t.timerWoke) {
        // The hrtimer armed at the row start ended it: the wakeup is its expiry (the exit
        // comes a handler and an exit latency later).
        row.timerNs = t.timerNs;
        row.wakeNs = t.timerNs;
        ++out.timerWakes;
    } else if (t.timerNs < row.wakeNs) {
        row.timerNs = row.wakeNs;
        ++out.timerClamped;
    } else {
        row.timerNs = t.timerNs;
    }
}

} // namespace

StreamExport toReplayStream(const CpuTrace &cpu)
{
    StreamExport out;
    out.stream.reserve(cpu.spans.size());
    out.rows.reserve(cpu.spans.size());
    bool first = true;
    for (size_t i = 0; i < cpu.spans.size(); ++i) {
        const IdleSpanRec &sp = cpu.spans[i];
        if (SpanDrop why; spanCut(sp, &why)) {
            ++out.dropped[static_cast<size_t>(why)];
            continue;
        }
        if (std::max<Ns>(0, sp.wakeNs - sp.startNs) > MAX_SPAN_NS) {
            ++out.dropped[static_cast<size_t>(SpanDrop::TooLong)];
            continue;
        }
        const Ns before = sp.prevEndNs >= 0 ? sp.prevEndNs : (first ? cpu.firstNs : sp.startNs);
        // A busy stretch longer than the stream format takes changes nothing a
        // governor sees but the tick phase: clamp it. An idle span that long
        // is not replayable: skipped above, counted.
        Ns gap = std::min(MAX_SPAN_NS, std::max<Ns>(0, sp.startNs - before));
        Ns rowStart = sp.startNs;
        std::int32_t rowFirst = sp.entryCount > 0 ? sp.firstEntry : -1;
        bool firstRow = true;
        for (std::int32_t k = 0; k < std::max<std::int32_t>(1, sp.entryCount); ++k) {
            const bool last = k + 1 >= sp.entryCount;
            const IdleEntryRec *e = sp.entryCount > 0 ? &cpu.entries[static_cast<size_t>(sp.firstEntry + k)] : nullptr;
            if (!last && !endsRow(*e))
                continue;
            RowTimes t{};
            t.startNs = rowStart;
            t.wakeNs = last ? sp.wakeNs : e->exitNs;
            if (firstRow) {
                t.timerNs = sp.timerNs;
                t.timerWoke = last ? (sp.flags & SPAN_TIMER_WAKE) != 0
                                   : (e->flags & ENTRY_SLEEP_TIMER_WAKE) && sp.timerNs >= 0
                                         && e->enterNs + e->sleepLengthNs == sp.startNs + sp.timerNs;
            } else {
                const IdleEntryRec &head = cpu.entries[static_cast<size_t>(rowFirst)];
                t.timerNs = head.sleepLengthNs;
                // The row's last entry woke at its own sleep timer, and that is the row's timer.
                t.timerWoke = (e->flags & ENTRY_SLEEP_TIMER_WAKE) && head.sleepLengthNs >= 0
                              && e->enterNs + e->sleepLengthNs == head.enterNs + head.sleepLengthNs;
            }
            IdleSpan row;
            row.gapNs = gap;
            row.wakeNs = std::max<Ns>(0, t.wakeNs - t.startNs);
            placeTimer(t, row, out);
            row.latencyReqNs = NO_LATENCY_REQ;
            row.util = 0;
            row.needResched = last;
            out.stream.push_back(row);
            out.rows.spanIndex.push_back(static_cast<std::int32_t>(i));
            out.rows.firstEntry.push_back(rowFirst);
            out.rows.entryCount.push_back(rowFirst < 0 ? 0 : sp.firstEntry + k + 1 - rowFirst);
            out.rows.startNs.push_back(t.startNs);
            if (!last) {
                // The next row starts at the next entry's enter, after the handler.
                const IdleEntryRec &next = cpu.entries[static_cast<size_t>(sp.firstEntry + k + 1)];
                gap = std::max<Ns>(0, next.enterNs - e->exitNs);
                rowStart = next.enterNs;
                rowFirst = sp.firstEntry + k + 1;
            }
            firstRow = false;
        }
        ++out.spans;
        first = false;
    }
    return out;
}

std::int64_t completeEntriesIn(const CpuTrace &cpu, const StreamRows &rows)
{
    std::int64_t n = 0;
    for (size_t r = 0; r < rows.size(); ++r)
        for (std::int32_t k = 0; k < rows.entryCount[r]; ++k)
            n += (cpu.entries[static_cast<size_t>(rows.firstEntry[r] + k)].flags & ENTRY_TRUNCATED) ? 0 : 1;
    return n;
}

} // namespace idlescope::trace
