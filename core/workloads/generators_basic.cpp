// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The basic generators: fixed-interval wakeups (timer or IPI/pipe kind, the
 * cpuidle_wakeup benchmark of the POWER threads), periodic duty cycles (the
 * 73/113/211/347/401 Hz workflows of the teo threads), Poisson and bimodal
 * idle mixes, and background tick-only idle.
 *
 * Each class reads its parameters once in the constructor (held units: ns,
 * milli-percent, mHz) and draws only from its own Rng, so a seed always gives
 * the same spans.
 */
#include "core/workloads/generator_base.h"

#include <algorithm>

namespace idlescope::workloads {

namespace {

constexpr std::int64_t US = NSEC_PER_USEC;
constexpr std::int64_t MAX_US = 100LL * NSEC_PER_SEC; // 100 s: the longest duration a parameter takes
constexpr std::int64_t PCT = 1000;                     // 1 % in milli-percent

constexpr const char *kPeriodicKinds[] = {"timer", "ipi", "pipe"};

// --- periodic / sweep -------------------------------------------------------

constexpr ParamInfo kPeriodicParams[] = {
    {"kind", ParamUnit::Choice, 1, 0, 2,
     "timer: the wake is the next timer (a nanosleep loop); ipi or pipe: no timer announces it "
     "(a waker spinning, then writing to a pipe)", kPeriodicKinds},
    // At least 1 ns: a span of no idle time is no idle period (the GUI and the grammar refuse 0).
    {"interval_us", ParamUnit::Us, 100 * US, 1, MAX_US, "sleep interval: idle time of each span"},
    {"jitter_us", ParamUnit::Us, 0, 0, MAX_US, "uniform +/- jitter on each interval"},
    {"run_us", ParamUnit::Us, 5 * US, 0, MAX_US, "wake-to-run time: busy time after each wakeup"},
    {"next_timer_us", ParamUnit::Us, 10000 * US, 0, MAX_US,
     "ipi/pipe kind: distance of the CPU's next unrelated timer (drawn in [x/2, 3x/2]; 0 = none)"},
};

class PeriodicGenerator final : public GeneratorBase {
public:
    PeriodicGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_timerKind(p.get("kind") == 0),
          m_intervalNs(p.get("interval_us")), m_jitterNs(p.get("jitter_us")), m_runNs(p.get("run_us"))
    {
    }

protected:
    IdleSpan produce() override
    {
        const Ns idle = m_rng.jitter(m_intervalNs, m_jitterNs);
        return m_timerKind ? timerWake(m_runNs, idle) : eventWake(m_runNs, idle);
    }

private:
    bool m_timerKind;
    Ns m_intervalNs, m_jitterNs, m_runNs;
};

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
        : GeneratorBase(seed, p.get("next_timer_us")), m_meanNs(p.get("mean_us")),
          m_runNs(p.get("run_us")), m_timerPpm(p.get("timer_pct") * 10)
    {
    }

protected:
    IdleSpan produce() override
    {
        const bool timer = m_rng.chancePpm(m_timerPpm);
        const Ns idle = m_rng.exponential(m_meanNs);
        return timer ? timerWake(m_runNs, idle) : eventWake(m_runNs, idle);
    }

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
        : GeneratorBase(seed, p.get("next_timer_us")), m_shortNs(p.get("short_us")),
          m_longNs(p.get("long_us")), m_shortPpm(p.get("short_pct") * 10),
          m_spreadMpct(p.get("spread_pct")), m_longTimerPpm(p.get("long_timer_pct") * 10),
          m_runNs(p.get("run_us"))
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
    {"idle_us", ParamUnit::Us, 1000000 * US, 1, MAX_US,
     "idle time between timer wakeups; only the tick interrupts it"},
    {"jitter_us", ParamUnit::Us, 0, 0, MAX_US, "uniform +/- jitter on each idle time"},
    {"run_us", ParamUnit::Us, 20 * US, 0, MAX_US, "busy time of the housekeeping work"},
};

class TickGenerator final : public GeneratorBase {
public:
    TickGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, 0), m_idleNs(p.get("idle_us")), m_jitterNs(p.get("jitter_us")),
          m_runNs(p.get("run_us"))
    {
    }

protected:
    IdleSpan produce() override { return timerWake(m_runNs, m_rng.jitter(m_idleNs, m_jitterNs, 1)); }

private:
    Ns m_idleNs, m_jitterNs, m_runNs;
};

constexpr GeneratorInfo kBasic[] = {
    {"periodic", "wakeups at a fixed sleep interval, timer or IPI/pipe kind", kPeriodicParams,
     makeGenerator<PeriodicGenerator>},
    {"sweep",
     "periodic wakeups over the cpuidle_wakeup interval sweep (28 points, 5..1000 us) unless "
     "interval_us is given", kPeriodicParams, makeGenerator<PeriodicGenerator>},
    {"duty", "periodic duty cycle: busy for busy_pct of each period, timer-woken", kDutyParams,
     makeGenerator<DutyGenerator>},
    {"poisson", "exponential idle times (Poisson wakeups)", kPoissonParams, makeGenerator<PoissonGenerator>},
    {"bimodal", "short/long idle mix", kBimodalParams, makeGenerator<BimodalGenerator>},
    {"tick", "background idle: long timer-ended spans, only the tick interrupts them", kTickParams,
     makeGenerator<TickGenerator>},
};

} // namespace

std::span<const GeneratorInfo> basicGenerators()
{
    return kBasic;
}

} // namespace idlescope::workloads
