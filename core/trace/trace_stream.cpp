// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_stream.h"

#include "core/formats/stream_csv.h"
#include "core/replay/reference_replay.h"

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

// The tick's hrtimer was a timer the kernel knew, an expiry tick_nohz_get_sleep_length()
// returned, when the tick was stopped (its hrtimer then carries the timer wheel's next
// timer) or, without a cpuidle driver, whenever it still fired in idle: that idle loop asks
// to stop the tick on every pass, so a tick that runs on was refused (a timer due within
// the next period, RCU or a tick dependency) and was itself the next event.
bool tickIsTimer(const CpuTrace &cpu, const IdleEntryRec &e)
{
    return (e.flags & ENTRY_TICK_STOPPED) || cpu.defaultIdleOnly;
}

// An entry that an in-idle wakeup ended is a row boundary. One that the periodic tick
// ended is not: the replay's own tick ends it or, where a governor stops the tick, does
// not, which is the decision the replay is for. A tick that was a timer (above) is a
// boundary like any timer.
bool endsRow(const CpuTrace &cpu, const IdleEntryRec &e)
{
    return e.cause != WakeCause::Tick || tickIsTimer(cpu, e);
}

// Absolute expiry of @p e's tick when that tick was a timer, -1 otherwise.
Ns tickTimerAt(const CpuTrace &cpu, const IdleEntryRec &e)
{
    return tickIsTimer(cpu, e) && e.tickAfterNs >= 0 ? e.enterNs + e.tickAfterNs : -1;
}

// The earlier of two absolute expiries, -1 for unknown.
Ns earlier(Ns a, Ns b)
{
    return a < 0 ? b : (b < 0 ? a : std::min(a, b));
}

// Replay ticks fall at multiples of TICK_NSEC from REPLAY_START_NS; the kernel's at
// multiples of its TICK_NSEC on CLOCK_MONOTONIC. Keeping the replay clock equal to
// CLOCK_MONOTONIC modulo 20 ms, a multiple of the period at 100, 250, 500 and 1000 Hz,
// puts the replay's ticks where the trace's fell, so that an entry the kernel's tick
// ended ends at the replay's tick too.
constexpr Ns TICK_ALIGN_NS = 20000 * NSEC_PER_USEC;

Ns modAlign(Ns v)
{
    return ((v % TICK_ALIGN_NS) + TICK_ALIGN_NS) % TICK_ALIGN_NS;
}

// The gap of each row, measured from the previous row's wakeup (the rows are gap_from_wake:
// the replay counts it from there too, whatever exit latency its choices add), so that the
// replay keeps the trace's clock: with the trace's CLOCK_MONOTONIC known (hrtimer events),
// modulo TICK_ALIGN_NS, the tick phase; without it, the time since the last wakeup.
class ReplayClock {
public:
    explicit ReplayClock(const CpuTrace &cpu) : m_cpu(cpu), m_at(modAlign(REPLAY_START_NS)) {}

    // The gap before a row that starts at @p startNs on the trace clock, @p gapNs as measured
    // from the previous exit (or span end): lengthened by the time between the previous
    // wakeup and that exit (an exit after the timer's expiry, a span's tail) when shorter
    // than TICK_ALIGN_NS; modulo TICK_ALIGN_NS when longer (a span not exported between).
    Ns gapBefore(Ns startNs, Ns gapNs) const
    {
        if (m_cpu.monoKnown) {
            const Ns lag = modAlign(startNs - m_cpu.clockOffsetNs - (m_at + gapNs));
            return gapNs + lag > MAX_SPAN_NS ? gapNs + lag - TICK_ALIGN_NS : gapNs + lag;
        }
        const Ns lost = m_lastWakeNs < 0 ? 0 : startNs - m_lastWakeNs - gapNs;
        return lost > 0 && lost < TICK_ALIGN_NS && gapNs + lost <= MAX_SPAN_NS ? gapNs + lost : gapNs;
    }

    void advance(const IdleSpan &row, Ns startNs)
    {
        m_at = modAlign(m_at + row.gapNs + row.wakeNs);
        m_lastWakeNs = startNs + row.wakeNs;
    }

private:
    const CpuTrace &m_cpu;
    Ns m_at;              // the replay clock at the last row's wakeup, modulo TICK_ALIGN_NS
    Ns m_lastWakeNs = -1; // that wakeup on the trace clock
};

// Times of one row on the trace clock, before it becomes an IdleSpan.
struct RowTimes {
    Ns startNs;
    Ns wakeNs;      // its last idle exit
    Ns timerNs;     // next timer expiry - startNs, -1 unknown
    bool timerWoke; // that timer ended the row
};

// The times of a row from @p rowStart to entry @p e (nullptr: a span without entries),
// the row's first entry @p head (nullptr likewise), @p last when it ends the span. Its
// next timer is the earliest hrtimer armed at its start (for the span's first row, at the
// switch to idle; later, at its first enter) or its tick when that was a timer; the row
// woke at it when its last entry ended at that very expiry.
RowTimes rowTimes(const CpuTrace &cpu, const IdleSpanRec &sp, const IdleEntryRec *e, const IdleEntryRec *head,
                  bool firstRow, bool last, Ns rowStart)
{
    Ns hrtimerAt = -1;
    bool hrtimerWoke = false;
    if (firstRow) {
        hrtimerAt = sp.timerNs >= 0 ? sp.startNs + sp.timerNs : -1;
        hrtimerWoke =
            last ? (sp.flags & SPAN_TIMER_WAKE) != 0
                 : (e->flags & ENTRY_SLEEP_TIMER_WAKE) && hrtimerAt >= 0 && e->enterNs + e->sleepLengthNs == hrtimerAt;
    } else {
        hrtimerAt = head->sleepLengthNs >= 0 ? head->enterNs + head->sleepLengthNs : -1;
        hrtimerWoke =
            (e->flags & ENTRY_SLEEP_TIMER_WAKE) && hrtimerAt >= 0 && e->enterNs + e->sleepLengthNs == hrtimerAt;
    }
    const Ns timerAt = earlier(hrtimerAt, head ? tickTimerAt(cpu, *head) : -1);
    const bool tickWoke = e && e->cause == WakeCause::Tick && timerAt >= 0 && tickTimerAt(cpu, *e) == timerAt;
    RowTimes t{};
    t.startNs = rowStart;
    t.wakeNs = last ? sp.wakeNs : e->exitNs;
    t.timerNs = timerAt >= 0 ? timerAt - rowStart : -1;
    t.timerWoke = (hrtimerWoke && timerAt == hrtimerAt) || tickWoke;
    return t;
}

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
    ReplayClock clock(cpu);
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
            if (!last && !endsRow(cpu, *e))
                continue;
            const IdleEntryRec *head = rowFirst >= 0 ? &cpu.entries[static_cast<size_t>(rowFirst)] : nullptr;
            const RowTimes t = rowTimes(cpu, sp, e, head, firstRow, last, rowStart);
            IdleSpan row;
            row.gapNs = clock.gapBefore(rowStart, gap);
            row.wakeNs = std::max<Ns>(0, t.wakeNs - t.startNs);
            placeTimer(t, row, out);
            row.latencyReqNs = NO_LATENCY_REQ;
            row.util = 0;
            row.needResched = last;
            row.gapFromWake = true;
            clock.advance(row, t.startNs);
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
