// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file closed_loop_parts.h
 * The pieces every closed loop of closed_loop.h is made of (closed_loop.cpp,
 * closed_loop_io.cpp; not an API of its own): a CPU fed one span at a time
 * as its loop goes, the added latency of each operation with its p99 kept in
 * 1 % of the values, and the watch's poll every CLOSED_LOOP_POLL_OPS
 * operations.
 */
#pragma once

#include "core/experiments/closed_loop.h"
#include "core/machine/in_state_interval.h"
#include "core/replay/reference_replay.h"
#include "core/states/wake_delay.h"
#include "core/stats/woken_tasks.h"
#include "core/workloads/generator_base.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace idlescope::closed_loop {

/// One CPU of a loop: its replay, its governor and the counters the loop adds.
struct LoopCpu {
    /// @p keepIntervals: record when the CPU was in each state (its cluster's energy needs it).
    LoopCpu(const IdleStateTable &table, std::unique_ptr<Governor> g, int cpu, bool keepIntervals = false)
        : gov(std::move(g)), replay(table, *gov), tableRef(table)
    {
        run.cpu = cpu;
        run.stateCount = table.count();
        run.timeHasExitLatency = true;
        if (keepIntervals)
            run.intervalKind = IntervalKind::InState;
    }

    /// Idle from @p startNs (>= the CPU's last wakeup) until the event at @p eventNs; returns
    /// when the CPU is back: the event plus what is left of the wake delay of the state it was
    /// leaving (wake_delay.h; all of it, unless the event came while a tick-ended entry was
    /// still leaving its state: woken_tasks.h counts the woken task by the replay's rule).
    /// The replay's clock moves on by the table's exit latency instead (the governors' accounting),
    /// so it runs ahead of the loop's by the difference: each span is given to the replay as its
    /// gap and idle time, which are the same on both clocks. With @p inIdleHandlerNs >= 0 the
    /// event is an interrupt that wakes no task here: its handler takes that long inside the
    /// idle loop, which then goes on (the next call continues the stay). @p timerInNs is the
    /// CPU's next timer from @p startNs, the governors' sleep length; an event at it is that
    /// timer's wakeup.
    /// (Flattened: the replay's row, its reflect and this sink in one body, as replayCpu()'s
    /// loop gets them, instead of a call per row and per entry on the loop's hot path.)
    [[gnu::flatten]] Ns idleUntil(Ns startNs, Ns eventNs, Ns inIdleHandlerNs = -1,
                                  Ns timerInNs = workloads::NO_TIMER_NS)
    {
        IdleSpan s;
        s.gapNs = startNs - loopNowNs;
        s.wakeNs = std::max<Ns>(0, eventNs - startNs);
        s.timerNs = std::max(s.wakeNs, timerInNs);
        s.needResched = inIdleHandlerNs < 0;
        if (spans)
            spans->push_back(s);
        const IdleSpan handler{std::max<Ns>(0, inIdleHandlerNs), 0, 0};
        const Ns replayStartNs = keepsIntervals() ? replay.nextRowStartNs(s) : 0;
        Ns backAfterEventNs = 0;
        replay.runSpan(s, &handler, [&](const EntryRecord &e, const Governor &) {
            keepInterval(e, startNs, replayStartNs);
            const Ns delay = addWokenTask(tableRef, e, wake, run.wakeups, run.latencyCostNs);
            backAfterEventNs = wokenTaskWaitNs(delay, e.wakeInExitNs);
        });
        // The span's last entry ends at the event (a tick or a poll limit ends only earlier ones),
        // or at a tick just before it, the event coming during that entry's exit.
        loopNowNs = std::max(startNs, eventNs) + backAfterEventNs;
        return loopNowNs;
    }

    /**
     * With IntervalKind::InState, entry @p e's time in its state on the machine's axis (the
     * loop's clock from REPLAY_START_NS): the span starts at @p spanStartNs on the loop's clock
     * and at @p replayStartNs on the replay's, which runs ahead of it; within the span both
     * clocks agree, so the entry is at its offset from the span's start. 24 bytes an entry.
     */
    void keepInterval(const EntryRecord &e, Ns spanStartNs, Ns replayStartNs)
    {
        if (keepsIntervals()) [[unlikely]]
            addInStateInterval(run.intervals, tableRef, e, spanStartNs + (e.startNs - replayStartNs) - REPLAY_START_NS);
    }

    bool keepsIntervals() const { return run.intervalKind == IntervalKind::InState; }

    void finish(Ns endNs)
    {
        const ReplaySummary &sum = replay.summary();
        run.entries = sum.entries;
        run.spans = sum.spans;
        run.durationNs = endNs - REPLAY_START_NS;
        run.wakingNs = wake.wakingNs;
        run.enteringNs = wake.enteringNs;
        for (int i = 0; i < run.stateCount; ++i)
            run.states[static_cast<size_t>(i)] = sum.states[static_cast<size_t>(i)];
    }

    std::unique_ptr<Governor> gov;
    ReferenceReplay replay;
    const IdleStateTable &tableRef;
    Ns loopNowNs = REPLAY_START_NS; ///< the CPU's last wakeup on the loop's clock
    Ns ownEndNs = REPLAY_START_NS;  ///< io: the end of the CPU's last handling or interrupt
    /// When set, every span given to the replay, in order: a stream whose open-loop replay
    /// makes this CPU's entries (ClosedLoopWatch::spans).
    IdleStream *spans = nullptr;
    WakeTotals wake;
    CpuRun run;
};

/// The nearest-rank p99 of n values: the ceil(0.99 n)-th smallest, 0-based.
inline std::int64_t p99Rank(std::int64_t n)
{
    return (n * 99 + 99) / 100 - 1;
}

/*
 * The latency added to each operation, summed as it comes (in operation order, as
 * a pass over every value would sum it), its maximum, and only the n - rank
 * largest values: the smallest of them is the nearest-rank p99. A loop of n
 * operations thus keeps 1 % of its latencies (8 bytes each) instead of all of
 * them, and needs no selection pass over n values at the end.
 */
class AddedLatency {
public:
    explicit AddedLatency(std::int64_t operations)
        : m_keep(static_cast<size_t>(std::max<std::int64_t>(1, operations - p99Rank(operations))))
    {
        m_top.reserve(m_keep);
    }

    void add(Ns v)
    {
        m_sum += static_cast<double>(v);
        m_max = std::max(m_max, v);
        ++m_count;
        if (m_top.size() < m_keep) {
            m_top.push_back(v);
            std::push_heap(m_top.begin(), m_top.end(), std::greater<>());
        } else if (v > m_top.front()) {
            std::pop_heap(m_top.begin(), m_top.end(), std::greater<>());
            m_top.back() = v;
            std::push_heap(m_top.begin(), m_top.end(), std::greater<>());
        }
    }

    std::int64_t count() const { return m_count; }
    double mean() const { return m_count > 0 ? m_sum / static_cast<double>(m_count) : 0; }
    Ns max() const { return m_max; }
    /// Exact when count() is the operations given to the constructor (every loop adds one
    /// value per operation).
    Ns p99() const { return m_top.empty() ? 0 : m_top.front(); }

private:
    size_t m_keep;
    std::vector<Ns> m_top; // a min-heap of the largest values
    double m_sum = 0;
    Ns m_max = 0;
    std::int64_t m_count = 0;
};

/// Whether a loop may go on after its latest operation: every CLOSED_LOOP_POLL_OPS
/// operations it tells the watch how far it is and looks at its cancel flag.
class LoopPoll {
public:
    LoopPoll(const ClosedLoopWatch *watch, std::size_t governor) : m_watch(watch), m_governor(governor) {}

    bool keepGoing(const AddedLatency &added) const
    {
        if (!m_watch || added.count() % CLOSED_LOOP_POLL_OPS != 0)
            return true;
        if (m_watch->progress)
            m_watch->progress(m_governor, added.count());
        return !(m_watch->cancel && m_watch->cancel->load(std::memory_order_relaxed));
    }

private:
    const ClosedLoopWatch *m_watch;
    std::size_t m_governor;
};

/// io: the requests of numjobs CPUs (closed_loop_io.cpp); @p cpus[j] is job j's CPU (CPU j).
/// Returns the end of the last CPU's last handling; each CPU's own end is in its run's durationNs.
Ns runIo(const std::vector<std::unique_ptr<LoopCpu>> &cpus, const ClosedLoopSpec &spec, std::uint64_t seed,
         AddedLatency &added, const LoopPoll &poll);

} // namespace idlescope::closed_loop
