// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Idle reconstruction from kernel events.
 *
 * Vocabulary (kernel/sched/idle.c, drivers/cpuidle/cpuidle.c):
 *  - an "entry" is one trip through cpuidle_enter_state() / default_idle_call():
 *    trace_cpu_idle(i) before, trace_cpu_idle(PWR_EVENT_EXIT) after;
 *  - a "span" is one run of the idle task, do_idle()'s loop from the switch to
 *    swapper until need_resched ends it; it holds one or more entries;
 *  - the "cause" of an entry is the interrupt that ended it.
 *
 * Steps per event:
 *  1. clamp the timestamp to the CPU's last one (program order is the truth);
 *  2. a pending "cause after exit" is settled by the first local event that is
 *     not an interrupt (idle drivers that run with interrupts off log the exit
 *     before the handler; default_idle_call() logs it after);
 *  3. dispatch on the kind: entries, spans, timers, causes, misses.
 *
 * Deviations: timer-wheel timers (timer_start is not traced) are not part of
 * the sleep length; an IPI that no tracepoint shows (x86 without
 * irq_vectors) is only seen through the sender's ipi_send_*.
 */
#include "core/trace/idle_reconstructor.h"

#include "core/trace/trace_limits.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace idlescope::trace {

namespace {

// Below this, ts - now of hrtimer_expire_entry is interrupt latency, not a clock offset.
constexpr Ns MONO_TOLERANCE_NS = 1'000'000;

enum class SpanState : std::uint8_t { Unknown, Busy, Idle };

struct ArmedTimer {
    int cpu;
    Ns expiresMono;
    bool tick;
};

// Candidates are ranked by arrival (program order, then the merge order of the
// trace), not by timestamp: two events in the same microsecond keep their order.
struct Candidate {
    std::int64_t seq = -1;
    WakeCause cause = WakeCause::Unknown;
    std::int32_t name = -1;
    std::uint64_t ptr = 0; // the hrtimer, for HrTimer
    std::int64_t at = 0;   // its line or record number (provenance)
};

struct CpuState {
    SpanState span = SpanState::Unknown;
    bool inEntry = false;
    bool awaitingCause = false; // exited, cause still open
    bool tickStopped = false;   // in the current span
    bool seenSwitch = false;
    bool seenIdle = false;
    Candidate local;             // first local interrupt of the current entry
    std::int64_t ipiSeq = -1;    // first IPI sent to this CPU during the entry
    std::int64_t remoteSeq = -1; // first remote wakeup targeting this CPU during the entry
    std::int64_t ipiAt = 0;      // their lines or record numbers
    std::int64_t remoteAt = 0;
    std::uint64_t sleepTimer = 0; // the hrtimer the current entry's sleep length measures (0: none)
    Ns lastTs = -1;
    Ns prevTs = -1; // the CPU's event before the current one
    Ns lastSpanEnd = -1;
};

} // namespace

struct IdleReconstructor::Impl {
    TraceImport &out;
    WarningSink &warn;
    const NameTable &names;
    std::vector<CpuState> state;
    std::unordered_map<std::uint64_t, ArmedTimer> timers;
    bool offsetKnown = false;
    Ns offsetNs = 0; // trace clock - mono, as measured
    bool offsetWarned = false;
    Ns traceEnd = -1;
    std::int64_t seq = 0;      // arrival number of the current event
    std::int64_t sourceAt = 0; // line (text) or record number (.dat) of the current event

    Impl(TraceImport &o, WarningSink &w, const NameTable &n) : out(o), warn(w), names(n) {}

    CpuTrace &cpuOut(int cpu) { return out.cpus[static_cast<size_t>(cpu)]; }

    bool ensureCpu(int cpu, std::int64_t line)
    {
        if (cpu < 0 || cpu >= MAX_TRACE_CPUS) {
            warn.add(WarningKind::BadCpu, line, "cpu", "CPU " + std::to_string(cpu) + " is out of range");
            return false;
        }
        if (static_cast<size_t>(cpu) >= state.size()) {
            state.resize(static_cast<size_t>(cpu) + 1);
            const size_t old = out.cpus.size();
            out.cpus.resize(static_cast<size_t>(cpu) + 1);
            for (size_t i = old; i < out.cpus.size(); ++i)
                out.cpus[i].cpu = static_cast<int>(i);
        }
        return true;
    }

    Ns appliedOffset() const { return offsetKnown && std::abs(offsetNs) > MONO_TOLERANCE_NS ? offsetNs : 0; }

    // Earliest armed non-tick hrtimer of @p cpu expiring after @p at, as a distance from @p at
    // (-1 when none); its address in @p which. In the same pass, with @p tickAfter, the CPU's
    // armed tick hrtimer expiring after @p at as a distance (-1 when none, or further away
    // than an int32 holds).
    Ns sleepLength(int cpu, Ns at, std::uint64_t *which = nullptr, std::int32_t *tickAfter = nullptr) const
    {
        if (tickAfter)
            *tickAfter = -1;
        if (!out.hasTimerEvents)
            return -1;
        const Ns off = appliedOffset();
        Ns best = -1;
        Ns tick = -1;
        for (const auto &[ptr, t] : timers) {
            const Ns exp = t.expiresMono + off;
            if (t.cpu != cpu || exp <= at)
                continue;
            if (t.tick) {
                tick = tick < 0 ? exp - at : std::min(tick, exp - at);
            } else if (best < 0 || exp - at < best) {
                best = exp - at;
                if (which)
                    *which = ptr;
            }
        }
        if (tickAfter && tick >= 0 && tick <= std::numeric_limits<std::int32_t>::max())
            *tickAfter = static_cast<std::int32_t>(tick);
        return best;
    }

    // ---- causes -------------------------------------------------------------------------

    void settleCause(int cpu)
    {
        CpuState &s = state[static_cast<size_t>(cpu)];
        CpuTrace &c = cpuOut(cpu);
        s.awaitingCause = false;
        if (c.entries.empty())
            return;
        IdleEntryRec &e = c.entries.back();
        std::int64_t causeAt = 0;
        if (s.local.seq >= 0 && (s.ipiSeq < 0 || s.local.seq < s.ipiSeq)) {
            e.cause = s.local.cause;
            e.causeName = s.local.name;
            causeAt = s.local.at;
        } else if (s.ipiSeq >= 0) {
            e.cause = WakeCause::Ipi;
            causeAt = s.ipiAt;
        } else if (s.remoteSeq >= 0) {
            e.cause = WakeCause::RemoteWakeup;
            causeAt = s.remoteAt;
        } else {
            e.cause = WakeCause::Unknown;
        }
        e.causeAfter = sourceOffset(e, causeAt);
        if (e.cause == WakeCause::HrTimer && e.sleepLengthNs >= 0 && s.sleepTimer != 0 && s.local.ptr == s.sleepTimer)
            e.flags |= ENTRY_SLEEP_TIMER_WAKE;
        // Entries settle in order, so the span keeps the verdict of its last one.
        if (e.span >= 0) {
            IdleSpanRec &sp = c.spans[static_cast<size_t>(e.span)];
            const bool timerWake = e.cause == WakeCause::HrTimer && sp.timerNs >= 0 && s.local.ptr == sp.timerPtr;
            sp.flags = static_cast<std::uint8_t>(timerWake ? sp.flags | SPAN_TIMER_WAKE : sp.flags & ~SPAN_TIMER_WAKE);
        }
    }

    void localInterrupt(int cpu, WakeCause cause, std::int32_t name, std::uint64_t ptr = 0)
    {
        CpuState &s = state[static_cast<size_t>(cpu)];
        if ((s.inEntry || s.awaitingCause) && s.local.seq < 0)
            s.local = {seq, cause, name, ptr, sourceAt};
        if (s.awaitingCause)
            settleCause(cpu);
    }

    // ---- entries ------------------------------------------------------------------------

    /// @p where as an IdleEntryRec offset from @p e's enter (0: unknown, or too far to hold).
    static std::int32_t sourceOffset(const IdleEntryRec &e, std::int64_t where)
    {
        const std::int64_t d = where - e.enterAt;
        return where <= 0 || e.enterAt <= 0 || d > std::numeric_limits<std::int32_t>::max()
                       || d < std::numeric_limits<std::int32_t>::min()
                   ? 0
                   : static_cast<std::int32_t>(d);
    }

    void closeEntry(int cpu, Ns ts, bool truncated)
    {
        CpuState &s = state[static_cast<size_t>(cpu)];
        IdleEntryRec &e = cpuOut(cpu).entries.back();
        e.exitNs = ts;
        if (truncated)
            e.flags |= ENTRY_TRUNCATED;
        else
            e.exitAfter = sourceOffset(e, sourceAt);
        s.inEntry = false;
        s.awaitingCause = true;
    }

    // Flags of a span opened without its switch to the idle task: before any switch it was
    // idle when the trace started; after a switch away from idle, that switch is missing.
    static std::uint8_t truncatedStart(SpanState was)
    {
        return static_cast<std::uint8_t>(was == SpanState::Busy ? SPAN_TRUNCATED_START | SPAN_MISSING_SWITCH
                                                                : SPAN_TRUNCATED_START);
    }

    void openSpan(int cpu, Ns ts, std::uint8_t flags)
    {
        CpuState &s = state[static_cast<size_t>(cpu)];
        IdleSpanRec sp;
        sp.startNs = ts;
        sp.endNs = ts;
        sp.prevEndNs = s.lastSpanEnd;
        sp.flags = flags;
        sp.timerNs = (flags & SPAN_TRUNCATED_START) ? -1 : sleepLength(cpu, ts, &sp.timerPtr);
        cpuOut(cpu).spans.push_back(sp);
        s.span = SpanState::Idle;
        s.tickStopped = false;
    }

    void enter(const TraceEvent &ev, int cpu)
    {
        CpuState &s = state[static_cast<size_t>(cpu)];
        CpuTrace &c = cpuOut(cpu);
        if (s.inEntry) {
            warn.add(WarningKind::EnterWhileIdle, ev.line, "state", [&] {
                return "CPU " + std::to_string(cpu) + " enters state " + std::to_string(ev.arg)
                       + " with no exit from the previous entry; it is closed here";
            });
            closeEntry(cpu, ev.ts, true);
        }
        if (s.awaitingCause)
            settleCause(cpu);
        if (s.span == SpanState::Busy)
            missingSwitch(cpu, ev.line, "to the idle task before this cpu_idle");
        if (s.span != SpanState::Idle)
            openSpan(cpu, s.span == SpanState::Unknown ? c.firstNs : s.prevTs, truncatedStart(s.span));
        IdleEntryRec e;
        e.enterNs = ev.ts;
        e.exitNs = ev.ts;
        e.state = static_cast<std::int16_t>(ev.arg);
        e.enterAt = sourceAt;
        s.sleepTimer = 0;
        e.sleepLengthNs = sleepLength(cpu, ev.ts, &s.sleepTimer, &e.tickAfterNs);
        e.span = static_cast<std::int32_t>(c.spans.size()) - 1;
        if (s.tickStopped)
            e.flags |= ENTRY_TICK_STOPPED;
        IdleSpanRec &sp = c.spans.back();
        if (sp.entryCount++ == 0)
            sp.firstEntry = static_cast<std::int32_t>(c.entries.size());
        c.entries.push_back(e);
        s.inEntry = true;
        s.seenIdle = true;
        s.local = {};
        s.ipiSeq = -1;
        s.remoteSeq = -1;
    }

    void exit(const TraceEvent &ev, int cpu)
    {
        CpuState &s = state[static_cast<size_t>(cpu)];
        if (!s.inEntry) {
            warn.add(WarningKind::ExitWithoutEnter, ev.line, "state", [&] {
                return "CPU " + std::to_string(cpu)
                       + (s.seenIdle ? " exits idle twice" : " exits an idle entry that began before the trace");
            });
            if (s.span == SpanState::Unknown)
                openSpan(cpu, cpuOut(cpu).firstNs, SPAN_TRUNCATED_START);
            s.seenIdle = true;
            return;
        }
        closeEntry(cpu, ev.ts, false);
    }

    void miss(const TraceEvent &ev, int cpu)
    {
        out.hasMissEvents = true;
        CpuTrace &c = cpuOut(cpu);
        if (c.entries.empty() || c.entries.back().state != ev.arg)
            return; // the entry it belongs to began before the trace
        c.entries.back().flags |= ev.flag ? ENTRY_MISS_BELOW : ENTRY_MISS_ABOVE;
    }

    // ---- spans --------------------------------------------------------------------------

    void missingSwitch(int cpu, std::int64_t line, const char *what)
    {
        warn.add(WarningKind::MissingSwitch, line, "sched_switch", [&] {
            return "CPU " + std::to_string(cpu) + ": no sched_switch " + what
                   + " (events filtered or lost); the span's other end is unknown and it is not exported";
        });
    }

    void schedSwitch(const TraceEvent &ev, int cpu)
    {
        CpuState &s = state[static_cast<size_t>(cpu)];
        s.seenSwitch = true;
        out.hasSwitchEvents = true;
        const bool fromIdle = ev.arg == 0;
        const bool toIdle = ev.target == 0;
        if (s.awaitingCause)
            settleCause(cpu);
        if (fromIdle && !toIdle) {
            if (s.inEntry) {
                warn.add(WarningKind::EnterWhileIdle, ev.line, "prev_pid",
                         "CPU " + std::to_string(cpu) + " leaves the idle task inside an idle entry; closed here");
                closeEntry(cpu, ev.ts, true);
                settleCause(cpu);
            }
            if (s.span == SpanState::Busy)
                missingSwitch(cpu, ev.line, "to the idle task before this switch away from it");
            if (s.span != SpanState::Idle)
                openSpan(cpu, s.span == SpanState::Unknown ? cpuOut(cpu).firstNs : s.prevTs, truncatedStart(s.span));
            IdleSpanRec &sp = cpuOut(cpu).spans.back();
            sp.endNs = ev.ts;
            s.span = SpanState::Busy;
            s.lastSpanEnd = ev.ts;
        } else if (toIdle && !fromIdle) {
            if (s.span == SpanState::Idle) {
                // The switch away was not recorded: the old span's end is unknown.
                missingSwitch(cpu, ev.line, "away from the idle task before this switch to it");
                IdleSpanRec &old = cpuOut(cpu).spans.back();
                old.endNs = std::max(old.startNs, s.prevTs);
                old.flags |= SPAN_TRUNCATED_END | SPAN_MISSING_SWITCH;
                s.lastSpanEnd = -1;
            }
            openSpan(cpu, ev.ts, 0);
        }
    }

    // ---- timers -------------------------------------------------------------------------

    void hrtimerExpire(const TraceEvent &ev, int cpu)
    {
        const bool tick = ev.nameId >= 0 && isTickFunction(names.name(ev.nameId));
        timers.erase(ev.ptr);
        const Ns off = ev.ts - ev.timeNs;
        if (!offsetKnown || off < offsetNs) {
            offsetNs = off;
            offsetKnown = true;
        }
        if (!offsetWarned && std::abs(offsetNs) > MONO_TOLERANCE_NS) {
            offsetWarned = true;
            warn.add(WarningKind::ClockNotMono, ev.line, "now",
                     "hrtimer now= differs from the trace clock by " + std::to_string(offsetNs)
                         + " ns: the trace clock is not 'mono'; expires= values are shifted by that offset");
        }
        localInterrupt(cpu, tick ? WakeCause::Tick : WakeCause::HrTimer, ev.nameId, ev.ptr);
    }

    void ipiSend(const TraceEvent &ev, int from)
    {
        for (size_t w = 0; w < ev.mask.words.size(); ++w) {
            std::uint64_t bits = ev.mask.words[w];
            while (bits) {
                const int b = __builtin_ctzll(bits);
                bits &= bits - 1;
                const int to = static_cast<int>(w) * 64 + b;
                if (to == from || static_cast<size_t>(to) >= state.size())
                    continue;
                CpuState &t = state[static_cast<size_t>(to)];
                if (t.inEntry && t.ipiSeq < 0) {
                    t.ipiSeq = seq;
                    t.ipiAt = sourceAt;
                }
            }
        }
    }

    void dispatch(const TraceEvent &ev, int cpu)
    {
        switch (ev.kind) {
        case EventKind::CpuIdle:
            if (ev.arg < 0)
                exit(ev, cpu);
            else
                enter(ev, cpu);
            break;
        case EventKind::CpuIdleMiss: miss(ev, cpu); break;
        case EventKind::HrtimerStart:
            out.hasTimerEvents = true;
            timers[ev.ptr] = {cpu, ev.timeNs, ev.nameId >= 0 && isTickFunction(names.name(ev.nameId))};
            break;
        case EventKind::HrtimerExpire: hrtimerExpire(ev, cpu); break;
        case EventKind::HrtimerCancel: timers.erase(ev.ptr); break;
        case EventKind::TickStop:
            if (ev.flag && state[static_cast<size_t>(cpu)].span == SpanState::Idle)
                state[static_cast<size_t>(cpu)].tickStopped = true;
            break;
        case EventKind::IrqHandler: localInterrupt(cpu, WakeCause::Irq, ev.nameId); break;
        case EventKind::IpiEntry: localInterrupt(cpu, WakeCause::Ipi, -1); break;
        case EventKind::IpiSend: ipiSend(ev, cpu); break;
        case EventKind::SchedWakeup:
            if (ev.target != cpu && ev.target >= 0 && static_cast<size_t>(ev.target) < state.size()) {
                CpuState &t = state[static_cast<size_t>(ev.target)];
                if (t.inEntry && t.remoteSeq < 0) {
                    t.remoteSeq = seq;
                    t.remoteAt = sourceAt;
                }
            }
            break;
        case EventKind::SchedSwitch: schedSwitch(ev, cpu); break;
        case EventKind::TimerExpire:
        case EventKind::Softirq:
        case EventKind::CpuFrequency: // taken apart in feed()
            break;
        }
    }

    // cpu_frequency is a fact about cpu_id logged from wherever cpufreq ran (often a sugov
    // thread on another CPU): it is kept apart and touches neither CPU's clock, event count
    // or idle state, so a trace's idle statistics do not depend on whether it has them.
    void frequencyChange(const TraceEvent &ev)
    {
        const int cpu = static_cast<int>(ev.target);
        if (ensureCpu(cpu, ev.line))
            cpuOut(cpu).frequencies.push_back({ev.ts, ev.arg});
    }

    void feed(TraceEvent ev)
    {
        if (ev.kind == EventKind::CpuFrequency) {
            frequencyChange(ev);
            return;
        }
        // cpu_idle names its CPU (cpu_id); everything else belongs to the logging CPU.
        const bool idleEvent = ev.kind == EventKind::CpuIdle || ev.kind == EventKind::CpuIdleMiss;
        const int cpu = idleEvent ? static_cast<int>(ev.target) : ev.cpu;
        if (!ensureCpu(cpu, ev.line) || (idleEvent && !ensureCpu(ev.cpu, ev.line)))
            return;
        CpuState &s = state[static_cast<size_t>(cpu)];
        CpuTrace &c = cpuOut(cpu);
        if (ev.ts < s.lastTs) {
            warn.add(WarningKind::OutOfOrder, ev.line, "timestamp", [&] {
                return "CPU " + std::to_string(cpu) + " timestamp goes back by " + std::to_string(s.lastTs - ev.ts)
                       + " ns; taken as " + std::to_string(s.lastTs);
            });
            ev.ts = s.lastTs;
        }
        s.prevTs = s.lastTs < 0 ? ev.ts : s.lastTs;
        s.lastTs = ev.ts;
        if (c.firstNs < 0)
            c.firstNs = ev.ts;
        c.lastNs = ev.ts;
        ++c.events;
        ++seq;
        sourceAt = ev.line > 0 ? ev.line : ev.record;
        traceEnd = std::max(traceEnd, ev.ts);
        if (s.awaitingCause && ev.kind == EventKind::CpuIdle)
            settleCause(cpu);
        dispatch(ev, cpu);
    }

    // ---- end of trace -------------------------------------------------------------------

    void fallbackSpans(int cpu)
    {
        CpuTrace &c = cpuOut(cpu);
        warn.add(WarningKind::NoSwitchEvents, 0, "sched_switch",
                 "CPU " + std::to_string(cpu) + " has no sched_switch events: each idle entry is taken as one span");
        c.spans.clear();
        Ns prevEnd = -1;
        for (size_t i = 0; i < c.entries.size(); ++i) {
            IdleEntryRec &e = c.entries[i];
            IdleSpanRec sp;
            sp.startNs = e.enterNs;
            sp.endNs = e.exitNs;
            sp.prevEndNs = prevEnd;
            sp.timerNs = e.sleepLengthNs;
            sp.firstEntry = static_cast<std::int32_t>(i);
            sp.entryCount = 1;
            // A truncated entry before the last one was closed by the next enter (its exit is
            // missing); only the last one can be cut by the end of the trace.
            sp.flags = SPAN_FROM_ENTRY;
            if (e.flags & ENTRY_TRUNCATED)
                sp.flags |= i + 1 < c.entries.size() ? SPAN_TRUNCATED_END | SPAN_MISSING_EXIT : SPAN_TRUNCATED_END;
            e.span = static_cast<std::int32_t>(c.spans.size());
            c.spans.push_back(sp);
            prevEnd = e.exitNs;
        }
    }

    void finishCpu(int cpu)
    {
        CpuState &s = state[static_cast<size_t>(cpu)];
        CpuTrace &c = cpuOut(cpu);
        if (s.inEntry) {
            warn.add(WarningKind::TruncatedEntry, 0, "state",
                     "CPU " + std::to_string(cpu) + " is still in state " + std::to_string(c.entries.back().state)
                         + " when the trace ends");
            closeEntry(cpu, c.lastNs, true);
        }
        if (s.awaitingCause)
            settleCause(cpu);
        if (!s.seenSwitch && !c.entries.empty()) {
            fallbackSpans(cpu);
        } else if (s.span == SpanState::Idle && !c.spans.empty()) {
            c.spans.back().endNs = c.lastNs;
            c.spans.back().flags |= SPAN_TRUNCATED_END;
        }
        if (c.entries.empty() && !c.spans.empty())
            warn.add(WarningKind::NoIdleEvents, 0, "cpu_idle",
                     "CPU " + std::to_string(cpu)
                         + " has idle spans but no cpu_idle events: spans end at the switch away");
        int truncated = 0;
        for (IdleSpanRec &sp : c.spans) {
            // The span's wakeup is its last entry's exit. An exit that was lost ends the entry
            // at the event that closed it (the next enter, the switch away, the trace's end),
            // as each row of the replay stream does: going back to an earlier, recorded exit
            // would leave the later entries outside their span.
            sp.wakeNs = sp.endNs;
            if (sp.entryCount > 0) {
                const IdleEntryRec &e = c.entries[static_cast<size_t>(sp.firstEntry + sp.entryCount - 1)];
                sp.cause = e.cause;
                sp.wakeNs = e.exitNs;
            }
            truncated += (sp.flags & (SPAN_TRUNCATED_START | SPAN_TRUNCATED_END)) ? 1 : 0;
        }
        if (truncated)
            warn.add(WarningKind::TruncatedSpan, 0, "",
                     "CPU " + std::to_string(cpu) + ": " + std::to_string(truncated)
                         + " span(s) cut by the start or end of the trace or by a missing sched_switch / cpu_idle exit"
                           " (kept, not exported to streams)");
    }

    void finish()
    {
        for (int cpu = static_cast<int>(state.size()); cpu < out.declaredCpus && cpu < MAX_TRACE_CPUS; ++cpu)
            ensureCpu(cpu, 0);
        for (size_t cpu = 0; cpu < state.size(); ++cpu) {
            if (cpuOut(static_cast<int>(cpu)).events == 0) {
                warn.add(WarningKind::EmptyCpu, 0, "", "CPU " + std::to_string(cpu) + " has no events");
                continue;
            }
            finishCpu(static_cast<int>(cpu));
        }
        out.clockOffsetNs = appliedOffset();
        const bool defaultIdle = traceLimits(out).defaultIdleOnly;
        for (CpuTrace &c : out.cpus) {
            c.defaultIdleOnly = defaultIdle;
            c.monoKnown = out.hasTimerEvents;
            c.clockOffsetNs = out.clockOffsetNs;
        }
    }
};

IdleReconstructor::IdleReconstructor(TraceImport &out, WarningSink &warnings, const NameTable &names)
    : m(std::make_unique<Impl>(out, warnings, names))
{
}

IdleReconstructor::~IdleReconstructor() = default;

void IdleReconstructor::feed(const TraceEvent &event)
{
    m->feed(event);
}

void IdleReconstructor::lost(int cpu, std::int64_t count, std::int64_t line)
{
    m->warn.add(WarningKind::LostEvents, line, "",
                std::to_string(count) + " events lost on CPU " + (cpu >= 0 ? std::to_string(cpu) : std::string("?"))
                    + " (ring buffer overrun): entries there may be merged");
}

void IdleReconstructor::finish()
{
    m->finish();
}

} // namespace idlescope::trace
