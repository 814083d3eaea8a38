// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The benchmarks of the kernel PM threads, each modelled from what its source
 * does: the cpuidle_wakeup test of the POWER threads (a waker and a wakee, pipe
 * or timer wakeups). Each class reads its parameters once (held units: ns,
 * milli-percent) and draws only from its own Rng, so a seed always gives the
 * same spans. docs/workloads.md says what each one models and leaves out.
 */
#include "core/workloads/generator_base.h"

#include <algorithm>

namespace idlescope::workloads {

namespace {

constexpr std::int64_t US = NSEC_PER_USEC;
constexpr std::int64_t MAX_US = 100LL * NSEC_PER_SEC;

// --- cpuidle_wakeup ---------------------------------------------------------------

constexpr const char *kWakeupKinds[] = {"timer", "pipe"};

constexpr ParamInfo kCpuidleWakeupParams[] = {
    {"kind", ParamUnit::Choice, 0, 0, 1,
     "timer (-t, the default): the wakee nanosleeps period_us after its work; pipe (-p): the waker "
     "spins period_us, then writes to the wakee's pipe",
     kWakeupKinds},
    {"period_us", ParamUnit::Us, 100 * US, 1, MAX_US, "the test's -s sleep interval (100 by default)"},
    {"busy_us", ParamUnit::Us, 5430, 0, MAX_US,
     "the wakee CPU's time out of idle per wakeup (wake path, read or nanosleep return, clock reads, "
     "the syscall back in)"},
    {"write_us", ParamUnit::Us, 1670, 0, MAX_US,
     "pipe: the waker's write and clock reads per cycle; its spin restarts after them, so a cycle "
     "is period_us + write_us"},
    {"slack_us", ParamUnit::Us, 0, 0, MAX_US,
     "timer: the wakee's hrtimer slack (0: it runs SCHED_FIFO; 50 for a SCHED_NORMAL wakee)"},
    {"jitter_us", ParamUnit::Us, 0, 0, MAX_US, "uniform +/- jitter on each period"},
    {"next_timer_us", ParamUnit::Us, 10000 * US, 0, MAX_US,
     "pipe: distance of the wakee CPU's next unrelated timer (drawn in [x/2, 3x/2]; 0 = none)"},
};

/*
 * The cpuidle_wakeup test (AboorvaDevarajan/linux-utils, cpuidle/cpuidle_wakeup),
 * seen from the wakee's CPU.
 *
 * pipe: the waker takes the time, spins until period_us has passed, takes the
 * time again and writes one byte to the pipe, then starts over; its cycle is
 * period + the write's cost, whatever the wakee does. The wakee, woken by the
 * write, runs busy_us and blocks in read() again, so its CPU idles
 * period + write - busy of each cycle, and no timer announces the wakeup.
 *
 * timer: the wakee calls nanosleep(period) after its own work: each cycle is
 * busy + period + slack, and the idle is period + slack (the hard expiry,
 * docs/workloads.md "hrtimer slack"). The wakee runs SCHED_FIFO, so its
 * slack is 0 unless slack_us says otherwise.
 */
class CpuidleWakeupGenerator final : public GeneratorBase {
public:
    CpuidleWakeupGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_timerKind(p.get("kind") == 0), m_periodNs(p.get("period_us")),
          m_busyNs(p.get("busy_us")), m_writeNs(p.get("write_us")), m_slackNs(p.get("slack_us")),
          m_jitterNs(p.get("jitter_us"))
    {
    }

protected:
    IdleSpan produce() override
    {
        const Ns period = m_rng.jitter(m_periodNs, m_jitterNs, 1);
        if (m_timerKind)
            return timerWake(m_busyNs, period + m_slackNs);
        // A wakee slower than the waker finds the next byte already there: it never idles
        // (1 ns, the shortest span a stream holds).
        return eventWake(m_busyNs, std::max<Ns>(1, period + m_writeNs - m_busyNs));
    }

private:
    bool m_timerKind;
    Ns m_periodNs, m_busyNs, m_writeNs, m_slackNs, m_jitterNs;
};

constexpr GeneratorInfo kBench[] = {
    {"cpuidle_wakeup",
     "the POWER threads' cpuidle_wakeup test: a waker wakes a wakee every period, by pipe or by its own "
     "nanosleep; the wakee's CPU",
     kCpuidleWakeupParams, makeGenerator<CpuidleWakeupGenerator>},
};

} // namespace

std::span<const GeneratorInfo> benchmarkGenerators()
{
    return kBench;
}

} // namespace idlescope::workloads
