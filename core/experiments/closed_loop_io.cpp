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
 *
 * Several waits per request (waits=K, device=mtd's 4). A raw NAND read is one
 * controller command per page, each ended by the controller's interrupt: the
 * request's device time, drawn once at its submission, is split into K waits
 * as the open loop's io splits it (workloads::ioWaitNs()), and each wait's
 * completion goes the way a request's does above (routed or not), waking the
 * submitting task. At a wait before the last its handling is the driver's
 * wait_cpu_us, which ends by issuing the next wait; at the last it is work_us,
 * which submits the next request. A request thus travels with its state (its
 * device time, its wait, the latency its waits have added so far) through the
 * stages, and the operation's added latency, counted once at its last wait, is
 * that sum: the request's completion latency beyond its device time and
 * driver time. With K = 1 every step is the one-wait loop's.
 */
#include "core/experiments/closed_loop_parts.h"
#include "core/workloads/io_devices.h"
#include "core/workloads/rng.h"

#include <algorithm>
#include <limits>

namespace idlescope::closed_loop {

namespace {

constexpr Ns NONE = std::numeric_limits<Ns>::max();

/// Where one request is: its device time (drawn once at its submission), the wait it is in
/// (0-based) and the latency its handled waits have added so far.
struct IoState {
    Ns ioNs = 0;
    Ns addedNs = 0;
    std::int64_t wait = 0;
};

/// A wait's completion on its way to the task: when the device completed it, and its request.
struct Done {
    Ns completedNs = 0;
    IoState io;
};

/// First in, first out, at most the capacity given at construction (allocated once).
template <typename T>
class Fifo {
public:
    explicit Fifo(std::size_t capacity) : m_v(std::max<std::size_t>(1, capacity)) {}
    bool empty() const { return m_n == 0; }
    const T &front() const { return m_v[m_head]; }
    void push(const T &v)
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
    std::vector<T> m_v;
    std::size_t m_head = 0, m_n = 0;
};

/// One fio job: its CPU, its random stream and its requests in each stage.
struct Job {
    Job(LoopCpu &c, std::uint64_t seed, std::uint64_t timerSeed, int depth)
        : cpu(c), rng(seed), timerRng(timerSeed), ready(static_cast<std::size_t>(depth)),
          ipiAt(static_cast<std::size_t>(depth)), ipiCompleted(static_cast<std::size_t>(depth))
    {
        inFlight.reserve(static_cast<std::size_t>(depth));
        inFlightIo.reserve(static_cast<std::size_t>(depth));
    }

    /// When the CPU last had nothing to do: its last handling's or interrupt's end.
    Ns quiet() const { return std::max(quietNs, irqEndNs); }

    LoopCpu &cpu;
    workloads::Rng rng;              ///< device times
    workloads::Rng timerRng;         ///< next timers (apart, so that timers leave the device times as they are)
    std::vector<Ns> inFlight;        ///< device completion times of the waits in flight
    std::vector<IoState> inFlightIo; ///< ... their requests, in the same order
    Fifo<Done> ready;                ///< the completions whose wakeup reached the CPU, oldest first
    Fifo<Ns> ipiAt;                  ///< routed: when CPU 0's handler of each completion ends (the IPI)
    Fifo<Done> ipiCompleted;         ///< ... and that completion
    std::int64_t submitted = 0;
    std::int64_t done = 0; ///< requests handled to their end (the CPU's ioOps)
    Ns taskEndNs = NONE;   ///< the end of the handling under way
    /// The handling under way is the driver's between two waits of this request (it issues the
    /// next wait at its end), not a request's last handling.
    bool betweenWaits = false;
    IoState handlingIo;
    Ns quietNs = REPLAY_START_NS;  ///< the end of the last handling
    Ns irqEndNs = REPLAY_START_NS; ///< CPU 0: the end of its last interrupt handler
    bool stayOpen = false;         ///< CPU 0: its last span ended at an interrupt that woke no task
};

class IoLoop {
public:
    IoLoop(const std::vector<std::unique_ptr<LoopCpu>> &cpus, const ClosedLoopSpec &s, std::uint64_t seed,
           AddedLatency &added, const LoopPoll &poll)
        : m_s(s), m_irqCpu(s.irqCpu()), m_waits(std::max<std::int64_t>(1, s.waits)), m_added(added), m_poll(poll)
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
            b.cpu.run.ioOps = b.done; // the iops column of the CPU rows, over the CPU's own duration
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

    /// A new request of job @p b at @p at: its device time, and its first wait in flight.
    void submit(Job &b, Ns at)
    {
        const IoState io{deviceNs(b), 0, 0};
        b.inFlight.push_back(at + waitNs(io));
        b.inFlightIo.push_back(io);
        ++b.submitted;
    }

    /// The device time of the wait @p io is in (all of it with one wait per request).
    Ns waitNs(const IoState &io) const { return workloads::ioWaitNs(io.ioNs, m_waits, io.wait); }

    /// Whether a completion of @p io ends a wait before its request's last.
    bool beforeLastWait(const IoState &io) const { return io.wait + 1 < m_waits; }

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
                IoState &io = b.inFlightIo[static_cast<std::size_t>(next - b.inFlight.begin())];
                if (beforeLastWait(io)) {
                    // The driver's time, then the request's next wait.
                    io.addedNs += free - *next;
                    ++io.wait;
                    free += m_s.waitCpuNs;
                    *next = free + waitNs(io);
                    continue;
                }
                m_added.add(io.addedNs + (free - *next));
                ++b.done;
                if (!m_poll.keepGoing(m_added)) {
                    m_stopped = true;
                    b.quietNs = free;
                    return;
                }
                free += m_s.workNs;
                if (b.submitted < m_s.operations) {
                    io = IoState{deviceNs(b), 0, 0};
                    *next = free + waitNs(io);
                    ++b.submitted;
                } else {
                    *next = b.inFlight.back();
                    b.inFlight.pop_back();
                    io = b.inFlightIo.back();
                    b.inFlightIo.pop_back();
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
        case Device: {
            const Done done{best, b.inFlightIo[slot]};
            b.inFlight[slot] = b.inFlight.back();
            b.inFlight.pop_back();
            b.inFlightIo[slot] = b.inFlightIo.back();
            b.inFlightIo.pop_back();
            if (m_irqCpu >= 0 && job != static_cast<std::size_t>(m_irqCpu))
                interrupt(job, done);
            else
                wake(b, best, done);
            break;
        }
        case Ipi: {
            const Done done = b.ipiCompleted.front();
            b.ipiAt.pop();
            b.ipiCompleted.pop();
            wake(b, best, done);
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

    /// Job @p job's completion @p done, routed to the interrupt CPU: its handler, then the IPI.
    void interrupt(std::size_t job, const Done &done)
    {
        const Ns t = done.completedNs;
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
        m_jobs[job].ipiCompleted.push(done);
    }

    /// The wakeup of job @p b's task at @p t for the completion @p done.
    void wake(Job &b, Ns t, const Done &done)
    {
        b.ready.push(done);
        if (b.taskEndNs != NONE)
            return; // handled after the handling under way
        Ns start = b.quiet();
        if (t > start)
            start = idle(b, start, t); // ends a stay left open, too
        b.stayOpen = false;
        begin(b, std::max(start, b.irqEndNs));
    }

    /// The handling of the oldest ready completion from @p start: the driver's between two
    /// waits, or the request's last handling, which ends the operation.
    void begin(Job &b, Ns start)
    {
        Done d = b.ready.front();
        b.ready.pop();
        b.betweenWaits = beforeLastWait(d.io);
        if (b.betweenWaits) {
            d.io.addedNs += start - d.completedNs;
            ++d.io.wait;
            b.handlingIo = d.io;
            b.taskEndNs = start + m_s.waitCpuNs;
            return;
        }
        m_added.add(d.io.addedNs + (start - d.completedNs));
        ++b.done;
        b.taskEndNs = start + m_s.workNs;
        m_stopped = !m_poll.keepGoing(m_added);
    }

    /// A handling ends: it issues its request's next wait or submits the next request, and the
    /// next ready completion is handled.
    void taskEnd(Job &b)
    {
        const Ns t = b.taskEndNs;
        b.taskEndNs = NONE;
        b.quietNs = t;
        if (b.betweenWaits) {
            b.inFlight.push_back(t + waitNs(b.handlingIo));
            b.inFlightIo.push_back(b.handlingIo);
        } else if (b.submitted < m_s.operations) {
            submit(b, t);
        }
        if (!b.ready.empty())
            begin(b, std::max(t, b.irqEndNs));
    }

    const ClosedLoopSpec &m_s;
    const int m_irqCpu;
    const std::int64_t m_waits; ///< device waits per request (a parsed spec's are >= 1)
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
