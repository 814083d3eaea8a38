// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The io closed loop of closed_loop.h: numjobs CPUs (0..numjobs-1), each
 * keeping iodepth requests in flight, run as one series of events in time
 * order, because a completion routed to CPU 0 ties the CPUs together.
 *
 * Where the completion runs (irq=). With a vector per queue (NVMe) or a
 * completion in the submitter's softirq (null_blk) the interrupt comes to the
 * submitting CPU: the wakeup of its task is the completion. A single-vector
 * controller (an eMMC host, AHCI, a NAND controller) has one interrupt, which
 * Linux leaves on CPU 0 unless irqbalance or smp_affinity moves it. Its
 * handler runs there (hardirq_us); blk-mq then completes the request on the
 * submitting CPU: blk_mq_complete_request_remote() sends it an IPI to run the
 * completion there when the two CPUs share no cache (or the queue forces the
 * submitter), and otherwise the completion on CPU 0 wakes the waiting task,
 * whose try_to_wake_up() sends the idle submitter a reschedule IPI. Either
 * way the submitter is woken by an IPI sent when CPU 0's handler is done, so
 * that is what is modelled: the interrupt reaches CPU 0 at the completion (an
 * idle CPU 0 wakes from its state first: an in-idle wakeup, since it wakes no
 * task there, and CPU 0 then stays in its idle loop), the handler runs
 * hardirq_us, serialised with CPU 0's other handlers and pushing back the
 * handling it interrupts, and at its end the submitter's wakeup comes (the
 * IPI's own flight time is left out). A request of CPU 0's own job completes
 * as irq=local does: its handler is part of work_us.
 *
 * One case is approximate: when CPU 0's own completion comes while it handles
 * another CPU's interrupt that found it idle, the replay has already been told
 * that interrupt woke no task (it must know when it runs the span, and the
 * loop knows the handler's end only from the wake delay the replay gives). The
 * CPU then runs its task; the replay's stay goes on into CPU 0's next idle
 * span, which keeps its idle time and entries but not the busy time between.
 */
#include "core/experiments/closed_loop_parts.h"
#include "core/workloads/io_devices.h"
#include "core/workloads/rng.h"

#include <algorithm>
#include <limits>

namespace idlescope::closed_loop {

namespace {

constexpr Ns NONE = std::numeric_limits<Ns>::max();

/// First in, first out, at most the capacity given at construction (allocated once).
class Fifo {
public:
    explicit Fifo(std::size_t capacity) : m_v(std::max<std::size_t>(1, capacity)) {}
    bool empty() const { return m_n == 0; }
    Ns front() const { return m_v[m_head]; }
    void push(Ns v)
    {
        std::size_t at = m_head + m_n;
        if (at >= m_v.size())
            at -= m_v.size();
        m_v[at] = v;
        ++m_n;
    }
    void pop()
    {
        if (++m_head == m_v.size())
            m_head = 0;
        --m_n;
    }

private:
    std::vector<Ns> m_v;
    std::size_t m_head = 0, m_n = 0;
};

/// One fio job: its CPU, its random stream and its requests in each stage.
struct Job {
    Job(LoopCpu &c, std::uint64_t seed, std::uint64_t timerSeed, int depth)
        : cpu(c), rng(seed), timerRng(timerSeed), ready(static_cast<std::size_t>(depth)),
          ipiAt(static_cast<std::size_t>(depth)), ipiCompleted(static_cast<std::size_t>(depth))
    {
        inFlight.reserve(static_cast<std::size_t>(depth));
    }

    /// When the CPU last had nothing to do: its last handling's or interrupt's end.
    Ns quiet() const { return std::max(quietNs, irqEndNs); }

    LoopCpu &cpu;
    workloads::Rng rng;       ///< device times
    workloads::Rng timerRng;  ///< next timers (apart, so that timers leave the device times as they are)
    std::vector<Ns> inFlight; ///< device completion times
    Fifo ready;               ///< completion times of the requests whose wakeup reached the CPU, oldest first
    Fifo ipiAt;               ///< routed: when CPU 0's handler of each completion ends (the IPI)
    Fifo ipiCompleted;        ///< ... and that completion's time
    std::int64_t submitted = 0;
    Ns taskEndNs = NONE;           ///< the end of the handling under way
    Ns quietNs = REPLAY_START_NS;  ///< the end of the last handling
    Ns irqEndNs = REPLAY_START_NS; ///< CPU 0: the end of its last interrupt handler
    bool stayOpen = false;         ///< CPU 0: its last span ended at an interrupt that woke no task
};

class IoLoop {
public:
    IoLoop(const std::vector<std::unique_ptr<LoopCpu>> &cpus, const ClosedLoopSpec &s, std::uint64_t seed,
           AddedLatency &added, const LoopPoll &poll)
        : m_s(s), m_irqCpu(s.irqCpu()), m_added(added), m_poll(poll)
    {
        m_jobs.reserve(cpus.size());
        // Job 0 keeps the run seed (a one-job loop draws what it always drew); the others
        // derive theirs from it and their number; each job's timers have a stream of their own.
        for (std::size_t j = 0; j < cpus.size(); ++j)
            m_jobs.emplace_back(*cpus[j], j == 0 ? seed : workloads::deriveSeed(seed, j),
                                workloads::deriveSeed(seed, j, 1), s.iodepth);
    }

    Ns run()
    {
        for (Job &b : m_jobs)
            while (b.submitted < std::min<std::int64_t>(m_s.iodepth, m_s.operations))
                submit(b, REPLAY_START_NS);
        if (m_irqCpu < 0 || m_jobs.size() == 1) {
            // Each completion interrupts its own CPU: the jobs never meet, so each runs alone.
            for (std::size_t j = 0; j < m_jobs.size() && !m_stopped; ++j)
                runAlone(m_jobs[j]);
        } else {
            while (!m_stopped && step()) {}
        }
        Ns end = REPLAY_START_NS;
        for (Job &b : m_jobs) {
            b.cpu.ownEndNs = std::max(b.quietNs, b.irqEndNs);
            end = std::max(end, b.cpu.ownEndNs);
        }
        return end;
    }

private:
    /// One request's device time: the profile's draw, or service_us +/- jitter_us.
    Ns deviceNs(Job &b)
    {
        if (m_s.device >= 0)
            return workloads::drawDeviceNs(b.rng, m_s.profile);
        return m_s.jitterNs > 0 ? b.rng.jitter(m_s.serviceNs, m_s.jitterNs) : m_s.serviceNs;
    }

    void submit(Job &b, Ns at)
    {
        b.inFlight.push_back(at + deviceNs(b));
        ++b.submitted;
    }

    /**
     * Job @p b's loop when nothing else reaches its CPU: the series of events of step() for
     * one job, in one pass per wait (the loop's hot path). Every completion that has come by
     * the time the CPU is free is handled, oldest first, each submitting the next request.
     */
    void runAlone(Job &b)
    {
        Ns free = REPLAY_START_NS;
        while (!b.inFlight.empty()) {
            auto next = std::min_element(b.inFlight.begin(), b.inFlight.end());
            if (*next > free)
                free = idle(b, free, *next);
            while (!b.inFlight.empty()) {
                next = std::min_element(b.inFlight.begin(), b.inFlight.end());
                if (*next > free)
                    break;
                m_added.add(free - *next);
                if (!m_poll.keepGoing(m_added)) {
                    m_stopped = true;
                    b.quietNs = free;
                    return;
                }
                free += m_s.workNs;
                if (b.submitted < m_s.operations) {
                    *next = free + deviceNs(b);
                    ++b.submitted;
                } else {
                    *next = b.inFlight.back();
                    b.inFlight.pop_back();
                }
            }
        }
        b.quietNs = free;
    }

    /// The earliest event: a device completion or an IPI before a handling's end at the same
    /// time (a completion at the end of a handling is handled next, without idling). False
    /// when there is none left.
    bool step()
    {
        enum { Device, Ipi, TaskEnd } kind = Device;
        Ns best = NONE;
        std::size_t job = 0, slot = 0;
        for (std::size_t j = 0; j < m_jobs.size(); ++j) {
            const Job &b = m_jobs[j];
            for (std::size_t k = 0; k < b.inFlight.size(); ++k)
                if (b.inFlight[k] < best) {
                    best = b.inFlight[k];
                    kind = Device, job = j, slot = k;
                }
            if (!b.ipiAt.empty() && b.ipiAt.front() < best) {
                best = b.ipiAt.front();
                kind = Ipi, job = j;
            }
        }
        for (std::size_t j = 0; j < m_jobs.size(); ++j)
            if (m_jobs[j].taskEndNs < best) {
                best = m_jobs[j].taskEndNs;
                kind = TaskEnd, job = j;
            }
        if (best == NONE)
            return false;
        Job &b = m_jobs[job];
        switch (kind) {
        case Device:
            b.inFlight[slot] = b.inFlight.back();
            b.inFlight.pop_back();
            if (m_irqCpu >= 0 && job != static_cast<std::size_t>(m_irqCpu))
                interrupt(job, best);
            else
                wake(b, best, best);
            break;
        case Ipi: {
            const Ns completed = b.ipiCompleted.front();
            b.ipiAt.pop();
            b.ipiCompleted.pop();
            wake(b, best, completed);
            break;
        }
        case TaskEnd: taskEnd(b); break;
        }
        return true;
    }

    /**
     * Job @p b's CPU idles from @p from until the event at @p event (with @p inIdleHandlerNs
     * >= 0 an interrupt that wakes no task: LoopCpu::idleUntil()); returns when it can run
     * again. Its next timer is drawn at the start of each idle period, as the open loop's
     * eventWake() draws it: one before the event wakes the CPU (a timer wakeup the governor
     * saw coming), its handler runs TIMER_RUN_NS, and the CPU idles again until the event,
     * unless the event came during the handler.
     */
    Ns idle(Job &b, Ns from, Ns event, Ns inIdleHandlerNs = -1)
    {
        const Ns x = m_s.nextTimerNs;
        for (;;) {
            const Ns timer = x > 0 ? b.timerRng.range(x / 2, x + x / 2) : workloads::NO_TIMER_NS;
            if (event - from <= timer) {
                b.stayOpen = inIdleHandlerNs >= 0;
                return b.cpu.idleUntil(from, event, inIdleHandlerNs, timer);
            }
            b.stayOpen = false;
            from = b.cpu.idleUntil(from, from + timer, -1, timer) + workloads::TIMER_RUN_NS;
            if (from >= event)
                return from; // the event came during the timer's handler: no idle left
        }
    }

    /// Job @p job's completion at @p t, routed to the interrupt CPU: its handler, then the IPI.
    void interrupt(std::size_t job, Ns t)
    {
        Job &r = m_jobs[static_cast<std::size_t>(m_irqCpu)];
        Ns start = 0;
        if (r.taskEndNs == NONE && t > r.quiet()) {
            start = idle(r, r.quiet(), t, m_s.hardirqNs);
        } else {
            start = std::max({t, r.irqEndNs, r.cpu.loopNowNs});
        }
        r.irqEndNs = start + m_s.hardirqNs;
        if (r.taskEndNs != NONE && r.taskEndNs > start)
            r.taskEndNs += m_s.hardirqNs; // the handler interrupts the handling under way
        m_jobs[job].ipiAt.push(r.irqEndNs);
        m_jobs[job].ipiCompleted.push(t);
    }

    /// The wakeup of job @p b's task at @p t for the request completed at @p completed.
    void wake(Job &b, Ns t, Ns completed)
    {
        b.ready.push(completed);
        if (b.taskEndNs != NONE)
            return; // handled after the handling under way
        Ns start = b.quiet();
        if (t > start)
            start = idle(b, start, t); // ends a stay left open, too
        b.stayOpen = false;
        begin(b, std::max(start, b.irqEndNs));
    }

    /// The handling of the oldest ready request from @p start.
    void begin(Job &b, Ns start)
    {
        const Ns completed = b.ready.front();
        b.ready.pop();
        m_added.add(start - completed);
        b.taskEndNs = start + m_s.workNs;
        m_stopped = !m_poll.keepGoing(m_added);
    }

    /// A handling ends: it submits the next request, and the next ready one is handled.
    void taskEnd(Job &b)
    {
        const Ns t = b.taskEndNs;
        b.taskEndNs = NONE;
        b.quietNs = t;
        if (b.submitted < m_s.operations)
            submit(b, t);
        if (!b.ready.empty())
            begin(b, std::max(t, b.irqEndNs));
    }

    const ClosedLoopSpec &m_s;
    const int m_irqCpu;
    AddedLatency &m_added;
    const LoopPoll &m_poll;
    std::vector<Job> m_jobs;
    bool m_stopped = false;
};

} // namespace

Ns runIo(const std::vector<std::unique_ptr<LoopCpu>> &cpus, const ClosedLoopSpec &spec, std::uint64_t seed,
         AddedLatency &added, const LoopPoll &poll)
{
    return IoLoop(cpus, spec, seed, added, poll).run();
}

} // namespace idlescope::closed_loop
