// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file closed_loop.h
 * Closed-loop workloads: the next event depends on when the CPU really woke.
 * The chosen state's wake delay (wake_delay.h: the real wake-up, not the
 * governors' exit_latency) delays the handling of each completion or message, the handling delays the next request, so the run's duration, its
 * operations per second and the latency added to each operation change with
 * the governor. Each CPU is still the reference replay, span by span; only
 * the spans are made as the run goes, from the moments the CPUs woke
 * (docs/workloads.md, "Closed loop"). The open-loop replay is untouched.
 *
 *   io:device=D|service_us=S,work_us=W[,iodepth=N][,jitter_us=J]
 *       one CPU keeps N requests in flight on a device that completes each
 *       after its submission: device=D draws the time from D's profile (base
 *       + exponential tail, io_devices.h, as the open loop's io draws it;
 *       device=custom takes base_us and tail_us), service_us=S is a fixed S us
 *       (+/- J uniform). Handling a completion takes W us of CPU and submits
 *       the next request. waits=K (0, the default: the device's, 4 for mtd,
 *       1 for the others; the open loop's io parameter) makes one request K
 *       device waits in sequence: its time, drawn once, split evenly (the last
 *       wait takes the remainder); each wait's completion wakes the task,
 *       which runs wait_cpu_us=C (default 10; needs K > 1) and issues the next
 *       wait, and the last one's is handled as above. Added latency of an
 *       operation: from each wait's completion to the start of its handling,
 *       summed over the request's waits (wake delays, plus the wait behind
 *       other completions when N > 1): what the request's completion
 *       latency, submission to the completion its task sees (fio's clat),
 *       has beyond its device time and wait_cpu_us.
 *       numjobs=J: CPUs 0..J-1 each run such a loop (ops each); irq=cpu0 (auto
 *       for sata, emmc, mtd) routes every completion to CPU 0, which runs
 *       hardirq_us there (an in-idle wakeup when CPU 0 is idle and the
 *       request is another CPU's) and then wakes the submitter by an IPI;
 *       with K waits, once per wait.
 *       next_timer_us=T (default 10000, 0 = none): each loop CPU's next
 *       unrelated timer, as the open loop's io has it: a timer before the
 *       completion wakes the CPU, runs 2 us and the CPU idles again.
 *   pingpong:work_us=W[,peer_work_us=P]
 *       CPU 0 and CPU 1 pass one message back and forth (a pipe ping-pong,
 *       or a client and its server); each side works W (P) us per message.
 *       One operation is a round trip; its added latency is the round trip
 *       minus W + P (both CPUs' wakeups).
 * Both take ops=N (operations, default 10000). Durations in us (3 decimals).
 */
#pragma once

#include "core/common/error.h"
#include "core/machine/machine.h"
#include "core/machine/machine_run.h"
#include "core/replay/governor_run.h"
#include "core/workloads/generator_base.h"
#include "core/workloads/io_devices.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace idlescope {

namespace workloads {
struct WorkloadSpec;
}

struct ClosedLoopSpec {
    enum class Kind { Io, PingPong } kind = Kind::Io;
    std::string text;
    /// io: the device profile's index in workloads::kDevices (device=), or -1 for the fixed
    /// time of service_us +/- jitter_us.
    int device = -1;
    workloads::DeviceProfile profile{}; ///< io with device=: base + exponential tail
    Ns serviceNs = 0;                   ///< io without device=: device time per request
    Ns jitterNs = 0;                    ///< io without device=: +/- uniform on the device time
    Ns workNs = 0;                      ///< CPU 0's handling per completion / message
    Ns peerWorkNs = 0;                  ///< pingpong: CPU 1's handling per message
    int iodepth = 1;
    /// io: the device waits of one request (waits=, or the device's: workloads::ioWaitsPerIo()),
    /// and the driver's CPU time between two of them (wait_cpu_us=). parseClosedLoopSpec() sets
    /// both from the open loop's io parameters when they are not written.
    std::int64_t waits = 1;
    Ns waitCpuNs = 0;
    /// io: submitting CPUs 0..numjobs-1 (fio's numjobs), each its own loop of iodepth requests
    /// and ops operations (fio's number_ios is per job: the run does numjobs x ops).
    int numjobs = 1;
    /// io: where the completion interrupt runs: Auto (cpu0 for sata, emmc, mtd; local for the
    /// others and for service_us=), Local (the submitting CPU) or Cpu0.
    enum class Irq { Auto, Local, Cpu0 } irq = Irq::Auto;
    Ns hardirqNs = 5 * NSEC_PER_USEC; ///< io, routed to CPU 0: CPU 0's time per interrupt
    /// io: each loop CPU's next unrelated timer, drawn uniformly in [x/2, 3x/2] at the start of
    /// each idle period as the open loop's io draws it (0: none).
    Ns nextTimerNs = workloads::NEXT_TIMER_DEFAULT;
    std::int64_t operations = 10000; ///< per job for io (numjobs), round trips for pingpong

    int cpus() const { return kind == Kind::PingPong ? 2 : numjobs; }
    /// The operations of the whole run: every job's for io (numjobs x ops, as fio counts
    /// number_ios per job), the round trips for pingpong. A run's operations, and what its
    /// progress (ClosedLoopWatch::progress) counts up to.
    std::int64_t totalOperations() const { return kind == Kind::Io ? operations * numjobs : operations; }
    /// The CPU that takes the completion interrupts of the other jobs (0), or -1: every job's
    /// completion interrupts its own CPU (irq=local, or auto for a multi-queue device).
    int irqCpu() const;
};

/// Errors (named "closed-loop", field = the key): unknown model or key, a value that is not a duration
/// or is out of range (work_us > 0; durations up to 100 s; iodepth 1..1024; ops 1..10,000,000; waits
/// as the open loop's io takes it, 0..64), an unknown device, and a meaningless combination (device=
/// with service_us= or jitter_us=, base_us or tail_us without device=custom, wait_cpu_us other than
/// its default with one wait per request, as the open loop refuses it), each with its reason.
Result<ClosedLoopSpec> parseClosedLoopSpec(const std::string &text);

/// Whether @p machine has the CPUs @p spec's loop runs on (spec.cpus()); the refusal runClosedLoop()
/// gives otherwise (field "machine": "TEXT needs N CPUs"), for a front end to give before it runs.
Status closedLoopFits(const Machine &machine, const ClosedLoopSpec &spec);

struct ClosedLoopRun {
    std::string governor;
    std::int64_t operations = 0;
    Ns durationNs = 0;      ///< from the start to the end of the last handling
    double meanAddedNs = 0; ///< mean latency added per operation
    Ns p99AddedNs = 0;      ///< 99th percentile (nearest rank)
    Ns maxAddedNs = 0;
    MachineRun counters; ///< per-CPU sysfs counters of the run
    /// The time its energy is priced over: the slowest run's duration of the runClosedLoop()
    /// call it came from, so that every governor of a comparison is priced over the same time
    /// (runEnergy()'s windowNs; docs/machine.md, "The same window").
    Ns energyWindowNs = 0;

    double opsPerSecond() const;
};

/// Lets another thread follow and stop runClosedLoop() (the window's runner does).
struct ClosedLoopWatch {
    /// Raised: every loop stops at its next look (every CLOSED_LOOP_POLL_OPS operations) and
    /// runClosedLoop() returns Error::cancelled().
    const std::atomic<bool> *cancel = nullptr;
    /// Called from the worker threads with governor g's operations done so far, of all its
    /// jobs: it counts up to ClosedLoopSpec::totalOperations(), not to ops.
    std::function<void(std::size_t g, std::int64_t operationsDone)> progress;
    /// When set, (*spans)[g][c]: the spans run g's loop CPU c gave its replay, in order. Each
    /// CPU's is a stream whose open-loop replay (replayCpu()) makes the loop's entries and
    /// counters: the loop only decides when each span starts and ends (tst_closed_loop;
    /// bench_machine replays them beside the loop). Kept only when asked: a span is 40 bytes.
    std::vector<std::vector<IdleStream>> *spans = nullptr;
};
inline constexpr std::int64_t CLOSED_LOOP_POLL_OPS = 4096;

/**
 * One run per governor on @p machine (its CPUs 0..cpus()-1), in parallel over
 * @p threads. @p seed drives the device times and timers. With @p background,
 * the machine's other CPUs run it, as compare --machine runs a background
 * (CPU c seeded with runSeed(seed, 1, c)): its spans do not depend on the
 * loop, so each run's governor replays them, covering that run's duration,
 * and the run's counters are then the whole machine's. Without it they are
 * left out (MachineRun::othersIdle: they have nothing to run). On a cluster
 * with power data of its shared logic (energy.h's hasClusterPower()) every CPU
 * of the run, the loop's and the background's, keeps the time it spent in
 * each state (IntervalKind::InState, 24 bytes an entry), from which runEnergy()
 * charges the cluster; elsewhere none is kept. Errors: a
 * machine with too few CPUs (field "machine"), an unknown governor or a
 * rejected setting, a background whose spans do not cover a run (field
 * "background").
 */
Result<std::vector<ClosedLoopRun>> runClosedLoop(const Machine &machine, const ClosedLoopSpec &spec,
                                                 const std::vector<std::string> &governors,
                                                 const std::vector<std::vector<TunableSetting>> &settings,
                                                 std::uint64_t seed, int threads,
                                                 const ClosedLoopWatch *watch = nullptr,
                                                 const workloads::WorkloadSpec *background = nullptr);

} // namespace idlescope
