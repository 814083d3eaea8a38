// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file reference_replay.h
 * The reference replay: the exactly specified idle loop of
 * shared/conformance/README.md, in which every governor variant must make the
 * kernel's decisions. It models kernel/sched/idle.c do_idle() /
 * cpuidle_idle_call() for one CPU, with a high-resolution next timer, a
 * periodic tick at absolute multiples of TICK_NSEC, the polling time limit,
 * and cpuidle_enter_state()'s accounting.
 *
 * The loop is incremental (one span at a time) so that the GUI can play a
 * stream, and allocation-free: per-entry data goes to a caller's sink.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/governors/governor.h"
#include "core/replay/cpuidle_core.h"
#include "core/states/idle_state_table.h"
#include "core/stream/idle_span.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

namespace idlescope {

/// Where `now` starts (ns), as in the conformance harness.
inline constexpr Ns REPLAY_START_NS = 1000000000;

/// Per-state totals (struct cpuidle_state_usage).
struct StateStats {
    std::int64_t usage = 0;
    Ns timeNs = 0;
    std::int64_t above = 0;
    std::int64_t below = 0;

    /// Adds @p o's counters (summing CPUs or runs, as the sysfs files of several CPUs add).
    StateStats &operator+=(const StateStats &o)
    {
        usage += o.usage;
        timeNs += o.timeNs;
        above += o.above;
        below += o.below;
        return *this;
    }
    bool operator==(const StateStats &) const = default;
};

/// One counter of StateStats (e.g. &StateStats::above) summed over the first @p count states.
template <class T, std::size_t N>
T sumOverStates(const std::array<StateStats, N> &states, int count, T StateStats::*counter)
{
    T n = 0;
    for (int i = 0; i < count; ++i)
        n += states[static_cast<size_t>(i)].*counter;
    return n;
}

/// Totals of a replay; the .summary.json of the conformance kit.
struct ReplaySummary {
    std::int64_t spans = 0;
    std::int64_t entries = 0;
    Ns endNowNs = 0;
    int stateCount = 0;
    std::array<StateStats, CPUIDLE_STATE_MAX> states{};

    std::int64_t totalAbove() const;
    std::int64_t totalBelow() const;
    bool operator==(const ReplaySummary &) const = default;
};

/// One idle entry (one select call); the conformance entries CSV row plus context.
struct EntryRecord {
    std::int32_t span = 0;  ///< 0-based stream row where the entry was selected
    std::int32_t entry = 0; ///< 0-based select within that row
    std::int32_t state = 0; ///< state entered
    bool stopTick = false;  ///< the value the governor left in *stop_tick
    bool above = false;
    bool below = false;
    bool gotTick = false;             ///< the tick fired during this entry
    bool pollTimeLimit = false;       ///< polling ended by its time limit
    bool tickStopped = false;         ///< the tick was stopped during this entry
    bool tickStoppedAtSelect = false; ///< tick_nohz_tick_stopped() at select: stopped before, in the same stay
    /// Ended at a wakeup that woke a task (a need_resched row's event), not
    /// at the tick, a poll time limit or an in-idle interrupt.
    bool endsAtWakeup = false;
    bool timerWake = false;  ///< the wakeup of the row where it ended is that row's own timer (IdleSpan::timerWake())
    bool inIdleWake = false; ///< ended at an interrupt that woke no task (need_resched = 0): the CPU stayed idle
    /// > 0: the entry ended at the tick, and the row's wakeup (one that woke a task) came this long
    /// after the state was left, while the CPU was still leaving it (the table's exit latency on
    /// the replay's clock); the row ends with this entry. 0 for every other entry.
    Ns wakeInExitNs = 0;
    Ns startNs = 0;       ///< `now` at select
    Ns residencyNs = 0;   ///< measured residency (last_residency_ns)
    Ns sleepLengthNs = 0; ///< tick_nohz_get_sleep_length() at select
    Ns deltaNextNs = 0;
    Ns latencyReqNs = 0;
    Ns remainingWakeNs = 0; ///< time to the row's wakeup at select
    Ns predictedNs = -1;    ///< governor's expected idle time, -1 if none
};

/// A woken task paid the entered state's exit latency (the latency cost of
/// the comparison tables): the entry ended at a wakeup that woke a task
/// (EntryRecord::endsAtWakeup) and that wakeup was no timer of the span's own
/// (an IPI or device interrupt a task was waiting on). Entries ended by the
/// tick, a poll limit or an in-idle interrupt woke no task; timer wakeups are
/// left out because a governor sees them coming (sleep length).
inline bool entryPaysExitLatency(bool endsAtWakeup, bool timerWake)
{
    return endsAtWakeup && !timerWake;
}

/// entryPaysExitLatency() for an entry that ended at its row's wakeup, or at the tick with the
/// wakeup coming while the CPU was still leaving the state (EntryRecord::wakeInExitNs): either
/// way the row's wakeup is counted once, at the entry its task waits for.
inline bool entryWakesTask(bool endsAtWakeup, Ns wakeInExitNs, bool timerWake)
{
    return entryPaysExitLatency(endsAtWakeup || wakeInExitNs > 0, timerWake);
}

/// What the woken task of such an entry waits, @p delayNs being the entry's wake delay from the
/// moment the state was left (wake_delay.h): all of it, or for a wakeup that came @p wakeInExitNs
/// into the exit, the rest of it (none when the CPU was back before, on the real clock).
inline Ns wokenTaskWaitNs(Ns delayNs, Ns wakeInExitNs)
{
    return std::max<Ns>(0, delayNs - wakeInExitNs);
}

/**
 * Replays a stream's rows through one governor on one table.
 * The table must be valid (IdleStateTable::validate()) and outlive the replay.
 * @p latencyLimitNs >= 0 is one PM QoS resume-latency limit for the whole
 * replay, in place of every span's latency_req_ns (the GUI's latency limit,
 * without a copy of the stream); NO_LATENCY_REQ keeps the spans' own.
 *
 * Rows are given one at a time with the row after them (nullptr for the
 * last): a row whose wakeup is an in-idle interrupt (needResched false)
 * needs the next row's gap, the handler's time, before the governor's
 * reflect, and a polling entry runs on through such interrupts into later
 * rows (README "In-idle interrupts"). Such an entry is handed to the sink
 * in the row where it ends.
 */
class ReferenceReplay {
public:
    ReferenceReplay(const IdleStateTable &table, Governor &governor, Ns latencyLimitNs = NO_LATENCY_REQ);

    /// Back to the start: now = REPLAY_START_NS, zeroed device and counters, enable().
    void reset();

    /// Replay one row; calls sink(const EntryRecord&, const Governor&) after each reflect.
    /// @p next is the stream's next row, nullptr when @p span is the last.
    template <typename Sink>
    void runSpan(const IdleSpan &span, const IdleSpan *next, Sink &&sink);

    void runSpan(const IdleSpan &span, const IdleSpan *next)
    {
        runSpan(span, next, [](const EntryRecord &, const Governor &) {});
    }

    /// Rows [first, last) of @p stream, each with the row after it.
    template <typename Sink>
    void runSpans(std::span<const IdleSpan> stream, std::size_t first, std::size_t last, Sink &&sink)
    {
        const IdleSpan *const streamEnd = stream.data() + stream.size();
        const IdleSpan *const end = stream.data() + last;
        for (const IdleSpan *row = stream.data() + first; row != end; ++row) {
            // Runs of plain rows first: a plain row leaves no stay behind, so only
            // the rows' own columns are tested until one of them needs the rest
            // (isPlainRow() would read m_inStay again after every row).
            if (!m_inStay) {
                while (row != end && row->needResched && !row->gapFromWake)
                    runRow<false>(*row++, nullptr, sink);
                if (row == end)
                    break;
            }
            runRow<true>(*row, row->needResched || row + 1 == streamEnd ? nullptr : row + 1, sink);
        }
    }

    const ReplaySummary &summary() const { return m_summary; }
    Ns now() const { return m_now; }
    /// Where @p span, given as the next row, starts on the replay's clock (startRow()'s rule):
    /// where the stay it continues went on, or its gap after the last row's exit (with
    /// gap_from_wake, after its wakeup). A closed loop places the row's entries on its own clock so.
    Ns nextRowStartNs(const IdleSpan &span) const
    {
        if (m_inStay)
            return m_spanStart;
        return span.gapFromWake ? std::max(m_now, m_lastWakeNs + span.gapNs) : m_now + span.gapNs;
    }
    const CpuidleDevice &device() const { return m_dev; }
    const Governor &governor() const { return m_gov; }

private:
    /// Time from now to the next tick, in (0, TICK_NSEC]: ticks fire at
    /// absolute multiples of TICK_NSEC. The next one is kept between calls
    /// and found again (one division) only once `now` has passed it: a run
    /// of 2 us polls would otherwise divide on every select.
    Ns toNextTick()
    {
        if (m_now >= m_nextTickNs)
            m_nextTickNs = (m_now / m_tickNsec + 1) * m_tickNsec;
        return m_nextTickNs - m_now;
    }

    /// cpuidle_enter_state()'s accounting of an entry of @p idx that stayed
    /// @p endNs in the state: the residency, the usage and miss counters.
    /// Returns the residency.
    Ns account(int idx, Ns endNs, EntryRecord &rec);

    /// The reflect that follows an entry, and the sink.
    template <typename Sink>
    void reflect(const EntryRecord &rec, Sink &sink);

    /// A row that wakes a task, continues no stay and counts its gap from the exit
    /// (a poll in flight is always part of a stay: m_pollInFlight implies m_inStay).
    bool isPlainRow(const IdleSpan &span) const { return !m_inStay && span.needResched && !span.gapFromWake; }

    /// One row. With @p InIdle false the row is a plain one (it wakes a task, does
    /// not continue a stay, no poll runs into it, its gap counts from the exit), as
    /// every row of a stream without the need_resched and gap_from_wake columns is:
    /// the branches for in-idle wakeups are compiled out of that copy, which keeps
    /// such streams as fast as before the columns existed. @p stayNext is the next
    /// row when this one's wakeup is an in-idle interrupt, else nullptr.
    template <bool InIdle, typename Sink>
    void runRow(const IdleSpan &span, const IdleSpan *stayNext, Sink &sink);

    /// A row as runRow() keeps it in locals across the governor's calls (they stay in
    /// registers: runRow()'s steps below are always inlined into it).
    struct Row {
        std::int32_t index; ///< the stream row, for the records
        Ns latencyReqNs;    ///< the latency limit the governor is given
        bool timerWake;     ///< the row's wakeup is its timer
        bool tickStopped;   ///< the tick is stopped (restarted when the idle loop was left)
        Ns startNs;         ///< where the row starts: after its gap, or where the stay went on
        Ns wakeNs, timerNs; ///< its wakeup and next timer from startNs
        Ns wakeAbsNs;       ///< its wakeup on the replay's clock
    };

    /// The row's start: the stay it continues, or its gap after the last row (from the
    /// exit, or with gap_from_wake from the last wakeup, on the trace's clock).
    template <bool InIdle>
    [[gnu::always_inline]] inline Row startRow(const IdleSpan &span);

    /// The stay in the idle loop goes on into the next row, which starts at @p rowStartNs.
    void continueStay(Ns rowStartNs, bool tickStopped)
    {
        m_inStay = true;
        m_spanStart = rowStartNs;
        m_tickStopped = tickStopped;
        endRow();
    }

    /// A polling entry of an earlier row that runs into @p row: ended by its wakeup or by
    /// the poll limit, or going on into the next row @p stayNext. True when the row ends there.
    template <typename Sink>
    [[gnu::always_inline]] inline bool runPollInFlight(const Row &row, const IdleSpan *stayNext, Sink &sink);

    /// cpuidle_select() for entry @p entry of @p row, with what the idle loop gives it; the
    /// entry's record so far, and @p tick, the time to the tick (KTIME_MAX once stopped).
    [[gnu::always_inline]] inline EntryRecord selectEntry(const IdleSpan &span, Row &row, std::int32_t entry, Ns &tick);

    /// poll_idle() for the entry @p rec: until the wakeup or its time limit, or on into the
    /// next row @p stayNext when an interrupt that wakes no task comes first. True when
    /// the row ends there.
    template <bool InIdle, typename Sink>
    [[gnu::always_inline]] inline bool pollEntry(EntryRecord &rec, const Row &row, Ns tick, const IdleSpan *stayNext,
                                                 Sink &sink);

    /// cpuidle_enter_state() for the entry @p rec: the state is left at the wakeup or the
    /// tick; an in-idle interrupt's handler runs before the reflect. True when the row ends
    /// there (the stay goes on into @p stayNext).
    template <bool InIdle, typename Sink>
    [[gnu::always_inline]] inline bool enterState(EntryRecord &rec, const Row &row, Ns tick, const IdleSpan *stayNext,
                                                  Sink &sink);

    /// A polling entry @p rec begun at @p startNs ends @p endNs later, in a
    /// row whose wakeup is (@p timerWake) its own timer; @p tickNs is the
    /// time from its start to the tick.
    template <typename Sink>
    void endPoll(EntryRecord &rec, Ns startNs, Ns endNs, Ns tickNs, bool pollTimeLimit, bool timerWake, Sink &sink);

    void endRow()
    {
        m_summary.spans += 1;
        m_summary.endNowNs = m_now;
    }

    /// A polling entry that an in-idle interrupt did not end (poll_idle()
    /// runs with interrupts enabled and stops only on need_resched or its
    /// time limit): its record so far and its times.
    struct Poll {
        EntryRecord rec;
        Ns startNs = 0;    ///< t0, `now` at select
        Ns limitNs = 0;    ///< t0 + poll_limit: a wakeup at or before it wins
        Ns limitEndNs = 0; ///< where the limit ends it (at least 1 ns after t0)
        Ns tickNs = 0;     ///< time from t0 to the tick, KTIME_MAX when stopped
    };

    const IdleStateTable &m_table;
    Governor &m_gov;
    CpuidleDevice m_dev;
    ReplaySummary m_summary;
    Ns m_now = REPLAY_START_NS;
    Ns m_tickNsec = 0;
    Ns m_nextTickNs = 0; ///< the first multiple of m_tickNsec after m_now once toNextTick() ran
    Ns m_latencyLimitNs = NO_LATENCY_REQ;
    // The variant's facts, read once: variant() is a virtual call.
    PollTimeRule m_pollRule = PollTimeRule::V5_11;
    bool m_readsGotTick = false;
    // The stay in the idle loop, carried from row to row by in-idle wakeups.
    bool m_inStay = false;       ///< the next row continues the stay: no gap, the tick kept as it is
    Ns m_spanStart = 0;          ///< with m_inStay: the next row's start
    bool m_tickStopped = false;  ///< with m_inStay: tick_nohz_tick_stopped()
    bool m_pollInFlight = false; ///< m_poll runs on into the next row (set only with m_inStay)
    Poll m_poll;
    Ns m_lastWakeNs = REPLAY_START_NS; ///< the last row's wakeup, where a gap_from_wake row's gap counts from
};

/// Replay a whole stream from the start; sink as in ReferenceReplay::runSpan().
template <typename Sink>
ReplaySummary replayStream(const IdleStateTable &table, std::span<const IdleSpan> stream, Governor &governor,
                           Sink &&sink)
{
    ReferenceReplay r(table, governor);
    r.runSpans(stream, 0, stream.size(), sink);
    return r.summary();
}

ReplaySummary replayStream(const IdleStateTable &table, std::span<const IdleSpan> stream, Governor &governor);

/// cpuidle_governor_latency_req() for a stream's latency_req_ns column.
constexpr Ns governorLatencyReq(Ns latencyReqNs)
{
    return latencyReqNs < 0 ? PM_QOS_DEFAULT_LATENCY_NS : latencyReqNs;
}

inline Ns ReferenceReplay::account(int idx, Ns endNs, EntryRecord &rec)
{
    const IdleState &state = m_table[idx];
    const Ns residency = endNs + state.exitLatencyNs;
    m_dev.lastResidencyNs = residency;
    const MissFlags miss = classifyMiss(m_table, idx, residency, state.exitLatencyNs);
    StateStats &st = m_summary.states[static_cast<size_t>(idx)];
    st.usage += 1;
    st.timeNs += residency;
    st.above += miss.above;
    st.below += miss.below;
    rec.above = miss.above;
    rec.below = miss.below;
    rec.residencyNs = residency;
    return residency;
}

template <typename Sink>
void ReferenceReplay::reflect(const EntryRecord &rec, Sink &sink)
{
    if (rec.gotTick)
        m_dev.gotTickFlag = true;
    m_gov.reflect(m_table, m_dev, rec.state);
    // From v7.0 the idle loop itself asks after every reflect.
    if (m_readsGotTick)
        m_dev.tickNohzIdleGotTick();
    m_summary.entries += 1;
    sink(rec, static_cast<const Governor &>(m_gov));
}

template <typename Sink>
void ReferenceReplay::endPoll(EntryRecord &rec, Ns startNs, Ns endNs, Ns tickNs, bool pollTimeLimit, bool timerWake,
                              Sink &sink)
{
    rec.gotTick = tickNs <= endNs; // the tick sets no need_resched: it does not end polling
    rec.pollTimeLimit = pollTimeLimit;
    rec.endsAtWakeup = !pollTimeLimit;
    rec.timerWake = timerWake;
    m_dev.pollTimeLimit = pollTimeLimit;
    m_now = startNs + account(rec.state, endNs, rec);
    reflect(rec, sink);
}

template <typename Sink>
void ReferenceReplay::runSpan(const IdleSpan &span, const IdleSpan *next, Sink &&sink)
{
    if (isPlainRow(span)) [[likely]]
        runRow<false>(span, nullptr, sink);
    else
        // This row's wakeup may be an interrupt that wakes no task: then the stay in
        // the idle loop goes on into the next row (a last row ends it).
        runRow<true>(span, span.needResched ? nullptr : next, sink);
}

template <bool InIdle>
ReferenceReplay::Row ReferenceReplay::startRow(const IdleSpan &span)
{
    Row row;
    row.index = static_cast<std::int32_t>(m_summary.spans);
    row.latencyReqNs = governorLatencyReq(m_latencyLimitNs >= 0 ? m_latencyLimitNs : span.latencyReqNs);
    row.timerWake = span.timerWake();
    row.tickStopped = false;
    row.wakeNs = span.wakeNs;
    row.timerNs = span.timerNs;
    if (InIdle && m_inStay) {
        row.startNs = m_spanStart;
        row.tickStopped = m_tickStopped;
        m_inStay = false;
    } else if (InIdle && span.gapFromWake) {
        m_now = std::max(m_now, m_lastWakeNs + span.gapNs);
        row.startNs = m_now;
    } else {
        m_now += span.gapNs;
        row.startNs = m_now;
    }
    if (InIdle && span.gapFromWake) {
        // A trace's row starts gap_ns after the previous row's wakeup and wakes when it
        // woke on the trace's clock, whatever exit latency the replay's choices added:
        // an exit that ran past the row's start shortens the row, it does not move it.
        const Ns late = std::max<Ns>(0, row.startNs - (m_lastWakeNs + span.gapNs));
        row.wakeNs = std::max<Ns>(0, row.wakeNs - late);
        row.timerNs = std::max(row.wakeNs, row.timerNs - late);
    }
    row.wakeAbsNs = row.startNs + row.wakeNs;
    m_lastWakeNs = row.wakeAbsNs;
    return row;
}

template <typename Sink>
bool ReferenceReplay::runPollInFlight(const Row &row, const IdleSpan *stayNext, Sink &sink)
{
    const Poll &p = m_poll;
    // The limit is noticed only when no handler runs: not before this row.
    if (row.wakeAbsNs <= std::max(p.limitNs, row.startNs)) {
        if (stayNext) {
            continueStay(row.wakeAbsNs + stayNext->gapNs, row.tickStopped);
            return true;
        }
        m_pollInFlight = false;
        endPoll(m_poll.rec, p.startNs, row.wakeAbsNs - p.startNs, p.tickNs, false, row.timerWake, sink);
    } else {
        m_pollInFlight = false;
        endPoll(m_poll.rec, p.startNs, std::max(p.limitEndNs, row.startNs) - p.startNs, p.tickNs, true, row.timerWake,
                sink);
    }
    return false;
}

inline EntryRecord ReferenceReplay::selectEntry(const IdleSpan &span, Row &row, std::int32_t entry, Ns &tick)
{
    const Ns elapsed = m_now - row.startNs;
    const Ns remainingWake = row.wakeNs - elapsed;
    const Ns sleepLength = row.timerNs - elapsed;
    const Ns toTick = toNextTick();

    SelectContext ctx;
    ctx.nowNs = m_now;
    ctx.sleepLengthNs = sleepLength;
    ctx.deltaNextNs = row.tickStopped ? sleepLength : std::min(toTick, sleepLength);
    ctx.latencyReqNs = row.latencyReqNs;
    ctx.tickNsec = m_tickNsec;
    ctx.tickStopped = row.tickStopped;
    ctx.util = span.util;
    ctx.oracleIdleNs = remainingWake;

    const Selection sel = m_gov.select(m_table, m_dev, ctx);
    const bool stoppedAtSelect = row.tickStopped;
    // Or-ed, not set under an if: the branch cost 2 instructions a row (bench_replay).
    row.tickStopped |= sel.stopTick;
    tick = row.tickStopped ? KTIME_MAX : toTick;

    return EntryRecord{.span = row.index,
                       .entry = entry,
                       .state = sel.stateIndex,
                       .stopTick = sel.stopTick,
                       .tickStopped = row.tickStopped,
                       .tickStoppedAtSelect = stoppedAtSelect,
                       .startNs = m_now,
                       .sleepLengthNs = sleepLength,
                       .deltaNextNs = ctx.deltaNextNs,
                       .latencyReqNs = row.latencyReqNs,
                       .remainingWakeNs = remainingWake,
                       .predictedNs = sel.predictedNs};
}

template <bool InIdle, typename Sink>
bool ReferenceReplay::pollEntry(EntryRecord &rec, const Row &row, Ns tick, const IdleSpan *stayNext, Sink &sink)
{
    // poll_idle() spins at least POLL_IDLE_RELAX_COUNT times and then until more than
    // the limit has passed, so even a limit of 0 (the v5.5 rule on a state 1 with target
    // residency 0) takes time: at least 1 ns here, or the row would never end.
    const Ns remainingWake = rec.remainingWakeNs;
    const Ns pollLimit = cpuidlePollTime(m_pollRule, m_table, m_dev);
    const bool wakeFirst = remainingWake <= pollLimit; // ties go to the wakeup
    if (InIdle && wakeFirst && stayNext) {
        // An interrupt that wakes no task does not end polling.
        m_poll = Poll{rec, m_now, m_now + pollLimit, m_now + std::max<Ns>(pollLimit, 1), tick};
        m_pollInFlight = true;
        continueStay(row.wakeAbsNs + stayNext->gapNs, row.tickStopped);
        return true;
    }
    const Ns start = m_now;
    endPoll(rec, start, wakeFirst ? remainingWake : std::max<Ns>(pollLimit, 1), tick, !wakeFirst, row.timerWake, sink);
    return false;
}

template <bool InIdle, typename Sink>
bool ReferenceReplay::enterState(EntryRecord &rec, const Row &row, Ns tick, const IdleSpan *stayNext, Sink &sink)
{
    const Ns remainingWake = rec.remainingWakeNs;
    const Ns end = std::min(remainingWake, tick);
    rec.gotTick = tick <= remainingWake; // ties go to the tick
    const bool reachedWake = end >= remainingWake;
    rec.timerWake = row.timerWake;
    m_now += account(rec.state, end, rec);
    if (InIdle && stayNext && m_now - row.startNs >= row.wakeNs) {
        // The interrupt is handled inside cpuidle_enter_state(), before
        // the reflect; a tick within the handler sets the sticky flag.
        const Ns handlerNs =
            stayNext->gapFromWake ? std::max<Ns>(0, row.wakeAbsNs + stayNext->gapNs - m_now) : stayNext->gapNs;
        if (!row.tickStopped && toNextTick() <= handlerNs)
            m_dev.gotTickFlag = true;
        m_now += handlerNs;
        rec.inIdleWake = reachedWake;
        reflect(rec, sink);
        continueStay(m_now, row.tickStopped);
        return true;
    }
    rec.endsAtWakeup = reachedWake;
    // The tick ended the entry and the exit ran past the row's wakeup: the row ends here, and
    // its wakeup waited only for the rest of the exit. The replay's clock and the governors'
    // view are those of the kernel's accounting either way; only the record says so.
    if (!reachedWake && m_now - row.startNs >= row.wakeNs)
        rec.wakeInExitNs = remainingWake - end;
    reflect(rec, sink);
    return false;
}

template <bool InIdle, typename Sink>
void ReferenceReplay::runRow(const IdleSpan &span, const IdleSpan *stayNext, Sink &sink)
{
    Row row = startRow<InIdle>(span);
    // At least one select per row, unless a polling entry from an earlier
    // row runs into it: then the loop goes on only while time is left.
    bool selectOnce = true;
    if (InIdle && m_pollInFlight) {
        selectOnce = false;
        if (runPollInFlight(row, stayNext, sink))
            return;
    }
    // One idle iteration per pass; the row ends when its wakeup is reached.
    // Interrupts that wake no task (tick, poll limit) end an iteration only,
    // and a stopped tick stays stopped until the idle loop is left.
    std::int32_t entry = 0;
    while (selectOnce || m_now - row.startNs < row.wakeNs) {
        selectOnce = false;
        Ns tick;
        EntryRecord rec = selectEntry(span, row, entry++, tick);
        if (m_table[rec.state].polling ? pollEntry<InIdle>(rec, row, tick, stayNext, sink)
                                       : enterState<InIdle>(rec, row, tick, stayNext, sink))
            return;
    }
    endRow();
}

} // namespace idlescope
