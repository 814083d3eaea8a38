// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The basic generators: fixed-interval wakeups (timer or IPI/pipe kind, the
 * cpuidle_wakeup benchmark of the POWER threads), periodic duty cycles (the
 * 73/113/211/347/401 Hz workflows of the teo threads), Poisson and bimodal
 * idle mixes, background tick-only idle and the idle system's CPUs (the one
 * generator here whose rows may be in-idle wakeups, need_resched = 0).
 *
 * Each class reads its parameters once in the constructor (held units: ns,
 * milli-percent, mHz) and draws only from its own Rng, so a seed always gives
 * the same spans.
 */
#include "core/workloads/generator_base.h"

#include <algorithm>
#include <limits>

namespace idlescope::workloads {

namespace {

constexpr const char *kPeriodicKinds[] = {"timer", "ipi", "pipe"};

// --- periodic / sweep -------------------------------------------------------

constexpr ParamInfo kPeriodicParams[] = {
    {"kind", ParamUnit::Choice, 1, 0, 2,
     "timer: the wake is the next timer (a nanosleep loop); ipi or pipe: no timer announces it "
     "(a waker spinning, then writing to a pipe)",
     kPeriodicKinds},
    // At least 1 ns: a span of no idle time is no idle period (the GUI and the grammar refuse 0).
    {"interval_us", ParamUnit::Us, 100 * US, 1, MAX_US, "sleep interval: idle time of each span"},
    {"jitter_us", ParamUnit::Us, 0, 0, MAX_US, "uniform +/- jitter on each interval"},
    {"run_us", ParamUnit::Us, 5 * US, 0, MAX_US, "wake-to-run time: busy time after each wakeup"},
    {"next_timer_us", ParamUnit::Us, 10000 * US, 0, MAX_US,
     "ipi/pipe kind: distance of the CPU's next unrelated timer (drawn in [x/2, 3x/2]; 0 = none)"},
    {"slack_us", ParamUnit::Us, TIMER_SLACK_DEFAULT_NS, 0, MAX_US,
     "timer kind: the sleeping task's hrtimer slack (timer_slack_ns: 50 for SCHED_NORMAL, 0 for "
     "SCHED_FIFO/RR); the timer fires, and the governor's sleep length ends, interval + slack after the sleep"},
};

class PeriodicGenerator final : public GeneratorBase {
public:
    PeriodicGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_timerKind(p.get("kind") == 0),
          m_intervalNs(p.get("interval_us")), m_jitterNs(p.get("jitter_us")), m_runNs(p.get("run_us")),
          m_slackNs(p.get("slack_us"))
    {
    }

protected:
    IdleSpan produce() override
    {
        const Ns idle = m_rng.jitter(m_intervalNs, m_jitterNs);
        return m_timerKind ? timerWake(m_runNs, idle + m_slackNs) : eventWake(m_runNs, idle);
    }

private:
    bool m_timerKind;
    Ns m_intervalNs, m_jitterNs, m_runNs, m_slackNs;
};

std::string checkPeriodic(const ParamValues &p, std::uint32_t written)
{
    if (p.get("kind") != 0 && isWritten(p, written, "slack_us"))
        return "slack_us acts on kind=timer only: the ipi/pipe kinds are woken by their waker, no timer of "
               "their own";
    return {};
}

// --- duty cycle -------------------------------------------------------------

constexpr ParamInfo kDutyParams[] = {
    {"hz", ParamUnit::Hz, 347000, 1, 1000000000, "cycle frequency (the teo threads use 73, 113, 211, 347, 401)"},
    {"busy_pct", ParamUnit::Percent, 20 * PCT, 0, 100 * PCT, "busy share of each period"},
    {"jitter_us", ParamUnit::Us, 0, 0, MAX_US, "uniform +/- jitter on each idle time"},
};

class DutyGenerator final : public GeneratorBase {
public:
    DutyGenerator(const ParamValues &p, std::uint64_t seed) : GeneratorBase(seed, 0)
    {
        // period = 1 s / f, with f in mHz: 1e12 / mHz ns.
        const Ns period = 1000LL * NSEC_PER_SEC / p.get("hz");
        m_busyNs = period * p.get("busy_pct") / (100 * PCT);
        m_idleNs = period - m_busyNs;
        m_jitterNs = p.get("jitter_us");
    }

protected:
    IdleSpan produce() override { return timerWake(m_busyNs, m_rng.jitter(m_idleNs, m_jitterNs)); }

private:
    Ns m_busyNs = 0, m_idleNs = 0, m_jitterNs = 0;
};

// --- Poisson ----------------------------------------------------------------

constexpr ParamInfo kPoissonParams[] = {
    {"mean_us", ParamUnit::Us, 200 * US, 1, MAX_US, "mean idle time (exponential)"},
    {"run_us", ParamUnit::Us, 5 * US, 0, MAX_US, "busy time after each wakeup"},
    {"timer_pct", ParamUnit::Percent, 0, 0, 100 * PCT, "share of spans ended by a timer"},
    {"next_timer_us", ParamUnit::Us, 10000 * US, 0, MAX_US,
     "event wakes: distance of the next unrelated timer (drawn in [x/2, 3x/2]; 0 = none)"},
};

class PoissonGenerator final : public GeneratorBase {
public:
    PoissonGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_meanNs(p.get("mean_us")), m_runNs(p.get("run_us")),
          m_timerPpm(p.get("timer_pct") * 10)
    {
    }

protected:
    IdleSpan produce() override { return exponentialWake(m_runNs, m_meanNs, m_timerPpm); }

private:
    Ns m_meanNs, m_runNs;
    std::int64_t m_timerPpm;
};

// --- bimodal ----------------------------------------------------------------

constexpr ParamInfo kBimodalParams[] = {
    {"short_us", ParamUnit::Us, 20 * US, 0, MAX_US, "centre of the short mode"},
    {"long_us", ParamUnit::Us, 3000 * US, 0, MAX_US, "centre of the long mode"},
    {"short_pct", ParamUnit::Percent, 70 * PCT, 0, 100 * PCT, "share of short spans"},
    {"spread_pct", ParamUnit::Percent, 50 * PCT, 0, 100 * PCT, "each mode is uniform in centre +/- this share"},
    {"long_timer_pct", ParamUnit::Percent, 50 * PCT, 0, 100 * PCT, "share of long spans ended by a timer"},
    {"run_us", ParamUnit::Us, 5 * US, 0, MAX_US, "busy time after each wakeup"},
    {"next_timer_us", ParamUnit::Us, 10000 * US, 0, MAX_US,
     "event wakes: distance of the next unrelated timer (drawn in [x/2, 3x/2]; 0 = none)"},
};

class BimodalGenerator final : public GeneratorBase {
public:
    BimodalGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_shortNs(p.get("short_us")), m_longNs(p.get("long_us")),
          m_shortPpm(p.get("short_pct") * 10), m_spreadMpct(p.get("spread_pct")),
          m_longTimerPpm(p.get("long_timer_pct") * 10), m_runNs(p.get("run_us"))
    {
    }

protected:
    IdleSpan produce() override
    {
        const bool isShort = m_rng.chancePpm(m_shortPpm);
        const Ns centre = isShort ? m_shortNs : m_longNs;
        const Ns idle = m_rng.jitter(centre, centre * m_spreadMpct / (100 * PCT));
        if (!isShort && m_rng.chancePpm(m_longTimerPpm))
            return timerWake(m_runNs, idle);
        return eventWake(m_runNs, idle);
    }

private:
    Ns m_shortNs, m_longNs;
    std::int64_t m_shortPpm, m_spreadMpct, m_longTimerPpm;
    Ns m_runNs;
};

// --- background tick-only idle ------------------------------------------------

constexpr ParamInfo kTickParams[] = {
    {"idle_us", ParamUnit::Us, 1000000 * US, 1, MAX_US, "idle time between timer wakeups; only the tick interrupts it"},
    {"jitter_us", ParamUnit::Us, 0, 0, MAX_US, "uniform +/- jitter on each idle time"},
    {"run_us", ParamUnit::Us, 20 * US, 0, MAX_US, "busy time of the housekeeping work"},
};

class TickGenerator final : public GeneratorBase {
public:
    TickGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, 0), m_idleNs(p.get("idle_us")), m_jitterNs(p.get("jitter_us")), m_runNs(p.get("run_us"))
    {
    }

protected:
    IdleSpan produce() override { return timerWake(m_runNs, m_rng.jitter(m_idleNs, m_jitterNs, 1)); }

private:
    Ns m_idleNs, m_jitterNs, m_runNs;
};

// --- the idle system: the CPUs that run no benchmark --------------------------

constexpr ParamInfo kIdleParams[] = {
    {"timer_us", ParamUnit::Us, 400000 * US, 1, MAX_US,
     "mean distance between housekeeping timers that wake a task (exponential): kworkers, timerfd, sleepers"},
    {"max_idle_us", ParamUnit::Us, 500000 * US, 1, MAX_US, "no idle longer than this: a timer always fires by then"},
    {"irq_us", ParamUnit::Us, 2000000 * US, 0, MAX_US,
     "mean distance between device interrupts (exponential, no timer announces them; 0 = none)"},
    {"run_us", ParamUnit::Us, 20 * US, 0, MAX_US, "busy time of the task a wakeup runs"},
    {"callback_us", ParamUnit::Us, 700000 * US, 0, MAX_US,
     "mean distance between timer callbacks that wake no task (exponential; 0 = none): each is an "
     "in-idle wakeup"},
    {"rcu_ticks", ParamUnit::Count, 2, 0, 1000,
     "tick periods the nohz CPU keeps its tick after a task ran (RCU callbacks): each tick is an "
     "in-idle wakeup"},
    {"tick_us", ParamUnit::Us, 4000 * US, 1, MAX_US, "tick period of rcu_ticks (4000 = HZ 250)"},
    {"tick_wake_pct", ParamUnit::Percent, 35 * PCT, 0, 100 * PCT,
     "share of kept ticks whose timer-wheel callbacks wake a task (a kworker's delayed work)"},
    {"irq_wake_pct", ParamUnit::Percent, 0, 0, 100 * PCT,
     "share of device interrupts that wake a task (the others are in-idle wakeups)"},
    {"handler_us", ParamUnit::Us, 5 * US, 0, MAX_US, "mean handler time of an in-idle wakeup (uniform in [x/2, 3x/2])"},
};

/*
 * A CPU of an idle system under nohz. The stay in the idle loop ends when a
 * housekeeping timer wakes a task (exponential distances, capped at
 * max_idle_us); the task runs run_us. Inside a stay the CPU is woken by
 * interrupts that wake no task (need_resched = 0 rows, their handler's time
 * as the next row's gap): timer callbacks that only do their own work, rare
 * device interrupts, and the tick, which the nohz code keeps for rcu_ticks
 * periods after a task ran (RCU has callbacks to run; while it does, the
 * next event the governor sees is the next tick). Every event stream runs in
 * absolute time, so each row carries the real pending timer as its sleep
 * length, and an event that falls in a handler's or a task's time is handled
 * right after it. The tick periods are counted from the stream's time 0,
 * which the reference replay's clock starts on (1 s, a multiple of every
 * tick period); exit latencies move the replay's own tick away from them.
 *
 * Defaults: from vm-amd-2cpu-idle (shared/data/traces; docs/workloads.md has
 * the comparison). callback_us=0, rcu_ticks=0, irq_wake_pct=100 make the
 * former model (every wakeup wakes a task), draw for draw: with
 * timer_us=50000 it is the former default stream.
 */
class IdleSystemGenerator final : public GeneratorBase {
public:
    IdleSystemGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, 0), m_timerMeanNs(p.get("timer_us")), m_maxIdleNs(p.get("max_idle_us")),
          m_irqMeanNs(p.get("irq_us")), m_runNs(p.get("run_us")), m_callbackMeanNs(p.get("callback_us")),
          m_rcuTicks(p.get("rcu_ticks")), m_tickNs(p.get("tick_us")), m_tickWakePpm(p.get("tick_wake_pct") * 10),
          m_irqWakePpm(p.get("irq_wake_pct") * 10), m_handlerNs(p.get("handler_us"))
    {
        // The former model's two draws first, in their order, so that it stays draw for draw.
        m_nextTimerAt = drawTimer(0);
        m_nextIrqAt = drawIrq(0);
        m_nextCallbackAt = drawCallback(0);
        m_gapNs = m_runNs;
    }

protected:
    IdleSpan produce() override
    {
        const Ns idleStart = m_nowNs + m_gapNs;
        // Events that came during the handler (or the task) are handled right after it.
        const auto due = [idleStart](Ns at) { return std::max(at, idleStart + 1); };
        const Ns timerAt = due(m_nextTimerAt);
        const Ns callbackAt = m_nextCallbackAt < NEVER ? due(m_nextCallbackAt) : NEVER;
        const Ns tickAt = m_ticksLeft > 0 ? (idleStart / m_tickNs + 1) * m_tickNs : NEVER;
        const Ns irqAt = m_nextIrqAt < NEVER ? due(m_nextIrqAt) : NEVER;
        // The sleep length is the earliest timer (a kept tick is one, as the nohz code
        // reports it); ties go to the timer that wakes a task, then the tick.
        const Ns pendingAt = std::min({timerAt, callbackAt, tickAt});
        const bool irq = irqAt < pendingAt;
        const Ns wakeAt = irq ? irqAt : pendingAt;
        IdleSpan span{m_gapNs, pendingAt - idleStart, wakeAt - idleStart, NO_LATENCY_REQ, 0};
        m_nowNs = wakeAt;
        bool wakesTask = false;
        if (irq) {
            m_nextIrqAt = drawIrq(wakeAt);
            wakesTask = m_rng.chancePpm(m_irqWakePpm);
        } else if (timerAt == pendingAt) {
            m_nextTimerAt = drawTimer(wakeAt);
            wakesTask = true;
        } else if (tickAt == pendingAt) {
            --m_ticksLeft;
            wakesTask = m_rng.chancePpm(m_tickWakePpm);
        } else {
            m_nextCallbackAt = drawCallback(wakeAt);
        }
        span.needResched = wakesTask;
        if (wakesTask) {
            m_gapNs = m_runNs;
            m_ticksLeft = m_rcuTicks;
        } else {
            m_gapNs = m_rng.jitter(m_handlerNs, m_handlerNs / 2);
        }
        return span;
    }

private:
    static constexpr Ns NEVER = std::numeric_limits<Ns>::max();

    Ns drawTimer(Ns from) { return from + std::clamp<Ns>(m_rng.exponential(m_timerMeanNs), 1, m_maxIdleNs); }
    Ns drawIrq(Ns from) { return m_irqMeanNs > 0 ? from + std::max<Ns>(1, m_rng.exponential(m_irqMeanNs)) : NEVER; }
    Ns drawCallback(Ns from)
    {
        return m_callbackMeanNs > 0 ? from + std::max<Ns>(1, m_rng.exponential(m_callbackMeanNs)) : NEVER;
    }

    Ns m_timerMeanNs, m_maxIdleNs, m_irqMeanNs, m_runNs, m_callbackMeanNs;
    std::int64_t m_rcuTicks;
    Ns m_tickNs;
    std::int64_t m_tickWakePpm, m_irqWakePpm;
    Ns m_handlerNs;
    Ns m_nowNs = 0, m_gapNs = 0, m_nextTimerAt = 0, m_nextIrqAt = 0, m_nextCallbackAt = 0;
    std::int64_t m_ticksLeft = 0;
};

constexpr GeneratorInfo kBasic[] = {
    {"periodic", "wakeups at a fixed sleep interval, timer or IPI/pipe kind", kPeriodicParams,
     makeGenerator<PeriodicGenerator>, checkPeriodic},
    {"sweep",
     "periodic wakeups over the cpuidle_wakeup interval sweep (28 points, 5..1000 us) unless "
     "interval_us is given",
     kPeriodicParams, makeGenerator<PeriodicGenerator>, checkPeriodic},
    {"duty", "periodic duty cycle: busy for busy_pct of each period, timer-woken", kDutyParams,
     makeGenerator<DutyGenerator>},
    {"poisson", "exponential idle times (Poisson wakeups)", kPoissonParams, makeGenerator<PoissonGenerator>},
    {"bimodal", "short/long idle mix", kBimodalParams, makeGenerator<BimodalGenerator>},
    {"tick", "background idle: long timer-ended spans, only the tick interrupts them", kTickParams,
     makeGenerator<TickGenerator>},
    {"idle",
     "the idle system under nohz: housekeeping timers that wake a task; kept ticks, timer callbacks and rare "
     "device interrupts that wake none (in-idle wakeups)",
     kIdleParams, makeGenerator<IdleSystemGenerator>},
};

} // namespace

std::span<const GeneratorInfo> basicGenerators()
{
    return kBasic;
}

} // namespace idlescope::workloads
