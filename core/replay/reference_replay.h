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
    std::int32_t span = 0;  ///< 0-based stream row
    std::int32_t entry = 0; ///< 0-based entry within the span
    std::int32_t state = 0; ///< state entered
    bool stopTick = false;  ///< the value the governor left in *stop_tick
    bool above = false;
    bool below = false;
    bool gotTick = false;       ///< the tick fired during this entry
    bool pollTimeLimit = false; ///< polling ended by its time limit
    bool tickStopped = false;   ///< the tick was stopped during this entry
    bool endsAtWakeup = false;  ///< ended at its span's wakeup, not at the tick or a poll time limit
    bool timerWake = false;     ///< the span's wakeup is its own timer (IdleSpan::timerWake())
    Ns startNs = 0;             ///< `now` at select
    Ns residencyNs = 0;         ///< measured residency (last_residency_ns)
    Ns sleepLengthNs = 0;       ///< tick_nohz_get_sleep_length() at select
    Ns deltaNextNs = 0;
    Ns latencyReqNs = 0;
    Ns remainingWakeNs = 0; ///< time to the span's wakeup at select
    Ns predictedNs = -1;    ///< governor's expected idle time, -1 if none
};

/// A woken task paid the entered state's exit latency (the latency cost of
/// the comparison tables): the entry ended at its span's wakeup and that
/// wakeup was no timer of the span's own (an IPI or device interrupt a task
/// was waiting on). Entries ended by the tick or a poll limit woke no task;
/// timer wakeups are left out because a governor sees them coming (sleep length).
inline bool entryPaysExitLatency(bool endsAtWakeup, bool timerWake)
{
    return endsAtWakeup && !timerWake;
}

/**
 * Replays idle spans through one governor on one table.
 * The table must be valid (IdleStateTable::validate()) and outlive the replay.
 * @p latencyLimitNs >= 0 is one PM QoS resume-latency limit for the whole
 * replay, in place of every span's latency_req_ns (the GUI's latency limit,
 * without a copy of the stream); NO_LATENCY_REQ keeps the spans' own.
 */
class ReferenceReplay {
public:
    ReferenceReplay(const IdleStateTable &table, Governor &governor, Ns latencyLimitNs = NO_LATENCY_REQ);

    /// Back to the start: now = REPLAY_START_NS, zeroed device and counters, enable().
    void reset();

    /// Replay one span; calls sink(const EntryRecord&, const Governor&) after each reflect.
    template <typename Sink>
    void runSpan(const IdleSpan &span, Sink &&sink);

    void runSpan(const IdleSpan &span)
    {
        runSpan(span, [](const EntryRecord &, const Governor &) {});
    }

    const ReplaySummary &summary() const { return m_summary; }
    Ns now() const { return m_now; }
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

    const IdleStateTable &m_table;
    Governor &m_gov;
    CpuidleDevice m_dev;
    ReplaySummary m_summary;
    Ns m_now = REPLAY_START_NS;
    Ns m_tickNsec = 0;
    Ns m_nextTickNs = 0; ///< the first multiple of m_tickNsec after m_now once toNextTick() ran
    Ns m_latencyLimitNs = NO_LATENCY_REQ;
};

/// Replay a whole stream from the start; sink as in ReferenceReplay::runSpan().
template <typename Sink>
ReplaySummary replayStream(const IdleStateTable &table, std::span<const IdleSpan> stream, Governor &governor,
                           Sink &&sink)
{
    ReferenceReplay r(table, governor);
    for (const IdleSpan &s : stream)
        r.runSpan(s, sink);
    return r.summary();
}

ReplaySummary replayStream(const IdleStateTable &table, std::span<const IdleSpan> stream, Governor &governor);

/// cpuidle_governor_latency_req() for a stream's latency_req_ns column.
constexpr Ns governorLatencyReq(Ns latencyReqNs)
{
    return latencyReqNs < 0 ? PM_QOS_DEFAULT_LATENCY_NS : latencyReqNs;
}

template <typename Sink>
void ReferenceReplay::runSpan(const IdleSpan &span, Sink &&sink)
{
    const std::int32_t spanIndex = static_cast<std::int32_t>(m_summary.spans);
    const VariantInfo &variant = m_gov.variant();
    const bool readsGotTick = variant.idleLoopReadsGotTick;
    const Ns latencyReq = governorLatencyReq(m_latencyLimitNs >= 0 ? m_latencyLimitNs : span.latencyReqNs);
    const bool timerWake = span.timerWake();

    m_now += span.gapNs;
    const Ns spanStart = m_now;
    bool tickStopped = false;
    std::int32_t entry = 0;

    // One idle iteration per pass; the span (an idle period) ends when the
    // wakeup is reached. Interrupts that wake no task (tick, poll limit) end
    // an iteration only, and a stopped tick stays stopped until the span ends.
    do {
        const Ns elapsed = m_now - spanStart;
        const Ns remainingWake = span.wakeNs - elapsed;
        const Ns sleepLength = span.timerNs - elapsed;
        const Ns toTick = toNextTick();

        SelectContext ctx;
        ctx.nowNs = m_now;
        ctx.sleepLengthNs = sleepLength;
        ctx.deltaNextNs = tickStopped ? sleepLength : std::min(toTick, sleepLength);
        ctx.latencyReqNs = latencyReq;
        ctx.tickNsec = m_tickNsec;
        ctx.tickStopped = tickStopped;
        ctx.util = span.util;
        ctx.oracleIdleNs = remainingWake;

        const Selection sel = m_gov.select(m_table, m_dev, ctx);
        const int idx = sel.stateIndex;
        if (sel.stopTick || tickStopped)
            tickStopped = true;

        const IdleState &state = m_table[idx];
        const Ns tick = tickStopped ? KTIME_MAX : toTick;
        Ns end;
        bool gotTick;
        bool pollTimeLimit = false;
        if (!state.polling) {
            end = std::min(remainingWake, tick);
            gotTick = tick <= remainingWake;
        } else {
            // The tick sets no need_resched, so it does not end polling.
            const Ns pollLimit = cpuidlePollTime(variant.pollTime, m_table, m_dev);
            // poll_idle() spins at least POLL_IDLE_RELAX_COUNT times and then
            // until more than the limit has passed, so even a limit of 0 (the
            // v5.5 rule on a state 1 with target residency 0) takes time: at
            // least 1 ns here, or the span would never end.
            end = std::min(remainingWake, std::max<Ns>(pollLimit, 1));
            gotTick = tick <= end;
            pollTimeLimit = pollLimit < remainingWake;
            m_dev.pollTimeLimit = pollTimeLimit;
        }

        const Ns residency = end + state.exitLatencyNs;
        m_dev.lastResidencyNs = residency;
        const MissFlags miss = classifyMiss(m_table, idx, residency, state.exitLatencyNs);
        StateStats &st = m_summary.states[static_cast<size_t>(idx)];
        st.usage += 1;
        st.timeNs += residency;
        st.above += miss.above;
        st.below += miss.below;

        m_now += residency;
        if (gotTick)
            m_dev.gotTickFlag = true;
        m_gov.reflect(m_table, m_dev, idx);
        if (readsGotTick)
            m_dev.tickNohzIdleGotTick();

        EntryRecord rec;
        rec.span = spanIndex;
        rec.entry = entry++;
        rec.state = idx;
        rec.stopTick = sel.stopTick;
        rec.above = miss.above;
        rec.below = miss.below;
        rec.gotTick = gotTick;
        rec.pollTimeLimit = pollTimeLimit;
        rec.tickStopped = tickStopped;
        // The time spent in the state (the residency less the exit latency)
        // reached what was left to the wakeup at select.
        rec.endsAtWakeup = end >= remainingWake;
        rec.timerWake = timerWake;
        rec.startNs = ctx.nowNs;
        rec.residencyNs = residency;
        rec.sleepLengthNs = sleepLength;
        rec.deltaNextNs = ctx.deltaNextNs;
        rec.latencyReqNs = latencyReq;
        rec.remainingWakeNs = remainingWake;
        rec.predictedNs = sel.predictedNs;
        m_summary.entries += 1;
        sink(static_cast<const EntryRecord &>(rec), static_cast<const Governor &>(m_gov));
    } while (m_now - spanStart < span.wakeNs);

    m_summary.spans += 1;
    m_summary.endNowNs = m_now;
}

} // namespace idlescope
