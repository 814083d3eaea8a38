// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file generator_base.h
 * What every generator shares: its random stream and the two ways a span can
 * end. A timer wake (nanosleep, a periodic timer) ends the span exactly at the
 * timer (wake_ns == timer_ns). An event wake (IPI, pipe write, I/O completion)
 * is announced by no timer; the CPU's next, unrelated timer is then drawn
 * uniformly in [next_timer/2, 3*next_timer/2]. If that timer comes first, it
 * ends the span, its handler runs TIMER_RUN_NS, and the rest of the wait
 * becomes the next span, so the event keeps its place in absolute time.
 */
#pragma once

#include "core/workloads/rng.h"
#include "core/workloads/workload.h"

#include <algorithm>
#include <vector>

namespace idlescope::workloads {

// The units the generators' parameter tables hold their values in, and the one next-timer
// parameter most generators share.
inline constexpr std::int64_t US = NSEC_PER_USEC;
inline constexpr std::int64_t MAX_US = 100LL * NSEC_PER_SEC; ///< 100 s: the longest duration a parameter takes
inline constexpr std::int64_t PCT = 1000;                    ///< 1 % in milli-percent
inline constexpr Ns NEXT_TIMER_DEFAULT = 10000 * US;
inline constexpr const char *kNextTimerHelp =
    "distance of the CPU's next unrelated timer (drawn in [x/2, 3x/2]; 0 = none)";

/// "next_timer_us=0": the next timer is this far away (1000 s), i.e. none that matters.
inline constexpr Ns NO_TIMER_NS = 1000LL * NSEC_PER_SEC;
/**
 * The hrtimer slack of a SCHED_NORMAL task (init_task's timer_slack_ns, inherited on fork):
 * nanosleep() and the other user-space sleeps arm their hrtimer with a soft expiry at the
 * requested time and a hard expiry this much later. The clock event device is programmed
 * for the hard expiry, and tick_nohz_get_sleep_length() reports it, so a sleeping CPU
 * that nothing else wakes is woken, and the governor is told it will be woken, at
 * request + slack. SCHED_FIFO/RR tasks have a slack of 0.
 */
inline constexpr Ns TIMER_SLACK_DEFAULT_NS = 50 * NSEC_PER_USEC;
/// CPU time of a timer handler that wakes no task (the gap after a timer that cut a wait).
inline constexpr Ns TIMER_RUN_NS = 2 * NSEC_PER_USEC;
/**
 * A wait that finds its wakeup already there (a byte in the pipe, a device that answered
 * in 0 ns) is no idle period: the real task never leaves the CPU, so the generators of
 * docs/workloads.md "benchmarks" add its busy time to the next span's gap and emit no
 * span. A spec whose every wait would be folded is refused by GeneratorInfo::check; a
 * value set built without the parser stops folding after this many draws and idles 1 ns.
 */
inline constexpr int MAX_FOLDED_WAITS = 1000000;

/// Whether @p name (one of v.info->params) was written in the spec (GeneratorInfo::check).
inline bool isWritten(const ParamValues &v, std::uint32_t written, std::string_view name)
{
    return ((written >> v.info->paramIndex(name)) & 1U) != 0;
}

class GeneratorBase : public SpanSource {
public:
    IdleSpan next() final;

protected:
    GeneratorBase(std::uint64_t seed, Ns nextTimerNs) : m_rng(seed), m_nextTimerNs(nextTimerNs) {}

    /// The generator's own next span, built with timerWake() / eventWake().
    virtual IdleSpan produce() = 0;

    static IdleSpan timerWake(Ns gapNs, Ns idleNs) { return IdleSpan{gapNs, idleNs, idleNs, NO_LATENCY_REQ, 0}; }
    IdleSpan eventWake(Ns gapNs, Ns waitNs);

    /// One wait of a task: the CPU time before it, its length, and whether its CPU idles
    /// through it (a wakeup that finds the CPU running another task does not).
    struct Wait {
        Ns cpuNs;
        Ns waitNs;
        bool idles = true;
    };
    /// The span of the first wait @p draw() gives that idles and lasts (MAX_FOLDED_WAITS): each
    /// wait before it is busy time, its CPU time and its length, in the span's gap.
    template <class Draw>
    IdleSpan firstIdleWait(Draw draw)
    {
        Ns busy = 0;
        for (int folded = 0;; ++folded) {
            const Wait w = draw();
            if (w.idles && (w.waitNs > 0 || folded >= MAX_FOLDED_WAITS))
                return eventWake(busy + w.cpuNs, std::max<Ns>(1, w.waitNs));
            busy += w.cpuNs + std::max<Ns>(0, w.waitNs);
        }
    }
    /// After @p gapNs busy, an exponential idle time of mean @p meanIdleNs that a timer ends
    /// with probability @p timerPpm (per million), an event otherwise. Draws the chance, then
    /// the idle time (a generator's stream depends on the order).
    IdleSpan exponentialWake(Ns gapNs, Ns meanIdleNs, std::int64_t timerPpm)
    {
        const bool timer = m_rng.chancePpm(timerPpm);
        const Ns idle = m_rng.exponential(meanIdleNs);
        return timer ? timerWake(gapNs, idle) : eventWake(gapNs, idle);
    }

    Rng m_rng;

private:
    Ns m_nextTimerNs;
    Ns m_pendingWaitNs = -1;
};

/// A table entry for a generator class G constructed from (values, seed).
template <typename G>
std::unique_ptr<SpanSource> makeGenerator(const ParamValues &values, std::uint64_t seed)
{
    return std::make_unique<G>(values, seed);
}

// Each generator file lists its own generators; generator_registry.cpp gathers them.
std::span<const GeneratorInfo> basicGenerators();
std::span<const GeneratorInfo> applicationGenerators();
std::span<const GeneratorInfo> benchmarkGenerators();

} // namespace idlescope::workloads
