// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file synthetic_machine.h
 * A generated workload on a machine: the benchmark's workload on the CPUs
 * that run it (--workload-cpus, or CPUs 0..N-1 for the spec's cpus=N, or every
 * CPU), each with a seed of its own (CPU k: the seeds of iteration k), and a
 * background workload on the others (by default the "idle" generator: an idle
 * system under nohz, its housekeeping timers, timer callbacks, kept ticks and rare
 * device interrupts). A run covers a wall-clock duration: with durationNs
 * (--duration) or, without, the time of the busiest benchmark CPU's `spans`
 * rows. Every CPU, benchmark and background alike, generates rows until its
 * busy + idle time reaches it, so that the machine's sums hold every CPU's idle
 * over the same stretch, as a real machine's do.
 */
#pragma once

#include "core/common/error.h"
#include "core/machine/machine.h"
#include "core/machine/machine_workload.h"
#include "core/workloads/io_interrupts.h"
#include "core/workloads/workload_spec.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope {

/// Most spans of one CPU's background stream (2^24, 16,777,216: 640 MiB of spans); a
/// background that needs more to cover the busiest CPU is refused, never cut short.
inline constexpr std::size_t MAX_BACKGROUND_SPANS = std::size_t{1} << 24;

struct SyntheticMachineSpec {
    /// The workload; a sweep runs its point `point` (each point is a machine run of its own).
    workloads::WorkloadSpec workload;
    int point = 0; ///< the sweep's point, 0..pointCount()-1; seeds as compare's (runSeed(seed, point, CPU))
    std::vector<int> workloadCpus;      ///< CPUs running it; empty: the spec's cpus= or every CPU
    workloads::WorkloadSpec background; ///< the other CPUs' workload (one point)
    std::size_t spans = 10000;          ///< with durationNs 0, the busiest workload CPU's spans set the duration
    /// > 0: the run's wall-clock duration (--duration); every CPU generates rows until its busy +
    /// idle time reaches it (the row that crosses it is the last). 0: `spans` decides.
    Ns durationNs = 0;
    std::uint64_t seed = 1;
    std::size_t maxBackgroundSpans = MAX_BACKGROUND_SPANS; ///< lower in tests and the fuzz target
};

/// --workload-cpus: CPU numbers 0..4095 separated by commas, each once. Errors (field
/// "workload-cpus"): an empty list or item, a word, a CPU listed twice.
Result<std::vector<int>> parseWorkloadCpus(std::string_view text);

/// Most rows one CPU generates to cover a --duration (a workload that needs more is an error).
inline constexpr std::size_t MAX_COVERING_SPANS = 10000000;

/// Errors: a point outside the sweep (field "workload"), a sweep as the background
/// ("background"), a workload CPU the machine lacks
/// (field "workload-cpus"), cpus= above the machine's CPU count ("workload"), a CPU list
/// of another length than cpus= ("workload-cpus"), a CPU that needs more than
/// MAX_COVERING_SPANS rows to cover the duration ("duration"), without a duration a
/// background that needs more than maxBackgroundSpans spans to cover the busiest CPU
/// ("background").
Result<MachineWorkload> syntheticMachineWorkload(const Machine &machine, const SyntheticMachineSpec &spec);

/// @p in with the interrupts @p irqs (sorted by time, on @p in's own time axis: span k's busy
/// part starts at the end of span k-1), each taking its handler's CPU time: one inside an idle
/// period ends it early as an in-idle wakeup (need_resched = 0: it wakes no task here; the
/// rest of the period follows with the same timer and the handler as its gap, as a component
/// without timers does in an overlay); one in a busy period lengthens it; a span whose wakeup
/// comes while the CPU is still busy has no idle period left and its work joins the busy time
/// (when that wakeup wakes a task, the row before it, an in-idle wakeup, then ends the stay).
IdleStream withInterrupts(const IdleStream &in, std::span<const workloads::IoInterrupt> irqs);

/// The spans of @p spec (point 0, @p seed) from the start until their busy + idle time
/// reaches @p durationNs (the span that crosses it is the last); an error (field
/// "background") when @p maxSpans spans do not reach it.
Result<IdleStream> streamCovering(const workloads::WorkloadSpec &spec, std::uint64_t seed, Ns durationNs,
                                  std::size_t maxSpans = MAX_BACKGROUND_SPANS);

} // namespace idlescope
