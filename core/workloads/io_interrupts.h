// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file io_interrupts.h
 * Where the I/O generator's completion interrupts land on a machine. The
 * stream of the `io` generator is the submitting CPU's: it sleeps until the
 * completion wakes its task. Whether the hard interrupt itself runs there
 * depends on the controller: NVMe has a vector per queue, affine to the CPUs
 * that submit to it, and null_blk completes in the submitter's softirq, but a
 * single-vector controller (an eMMC host, AHCI, a NAND controller) has one
 * interrupt, which Linux routes to CPU 0 unless irqbalance or smp_affinity
 * moves it: that CPU is then woken once per completion of every submitter,
 * and the submitter by the wakeup it sends (blk-mq's completion IPI or the
 * task's wakeup).
 *
 * An `io` generator inside an overlay or a mix routes its completions the
 * same way: the times are those of its own events (an overlay keeps every
 * component's events in place; a mix moves a member's spans, and so its
 * completions, to where the mix plays them), so a composed workload's
 * interrupt CPU sees exactly the completions of its io generators and none
 * of the other components' wakeups.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/workloads/workload_spec.h"

#include <optional>
#include <vector>

namespace idlescope::workloads {

struct IoInterruptRoute {
    int cpu = 0;      ///< the CPU that takes every completion interrupt
    Ns hardirqNs = 0; ///< CPU time of one interrupt there
};

/// One routed completion interrupt: when it comes, on the submitting CPU's stream axis (span k's
/// busy part starts at the end of span k-1), and the handler time it costs the interrupt CPU.
struct IoInterrupt {
    Ns atNs = 0;
    Ns handlerNs = 0;
};

/// The route of @p generator when it is an `io` generator node whose interrupts land on another
/// CPU than the submitter's (irq=cpu0, or irq=auto for sata, emmc, mtd); nullopt otherwise (the
/// completions wake the submitting CPU only, or the node is no io generator).
std::optional<IoInterruptRoute> ioInterruptRoute(const WorkloadNode &generator);

/// The CPU that takes the completion interrupts of the io generators of the tree @p root (alone,
/// in an overlay or in a mix; every route is CPU 0), nullopt when none is routed away from its
/// submitter.
std::optional<int> ioInterruptCpu(const WorkloadNode &root);

/// The device waits of one I/O of the `io` generator node @p generator (its waits, or the
/// device's: 4 for mtd, 1 for the others); 0 when the node is no io generator.
std::int64_t ioWaitsPerIo(const WorkloadNode &generator);

/// Sorts @p irqs by time; interrupts of the same time keep their order.
void sortByTime(std::vector<IoInterrupt> &irqs);

/// generateStream() that also gives, sorted, the routed completion interrupts of the tree's io
/// generators up to the end of the stream (@p interrupts is replaced). The spans are the same.
/// The spans of point @p point with the run seed @p seed from the start until their busy + idle
/// time reaches @p durationNs (the span that crosses it is the last; durationNs < 0: no limit) or
/// until there are @p maxSpans of them, whichever comes first. With @p interrupts, it also gets
/// the routed completions, as generateStreamWithInterrupts() gives them. With @p ioOps, it also
/// gets the I/Os the tree's io generators complete within the stream (an I/O is complete at
/// the completion of its last device wait), or -1 when the tree has no io generator.
IdleStream generateStreamCovering(const WorkloadSpec &spec, int point, std::uint64_t seed, Ns durationNs,
                                  std::size_t maxSpans, std::vector<IoInterrupt> *interrupts = nullptr,
                                  std::int64_t *ioOps = nullptr);

IdleStream generateStreamWithInterrupts(const WorkloadSpec &spec, int point, std::uint64_t seed, std::size_t spans,
                                        std::vector<IoInterrupt> &interrupts);

} // namespace idlescope::workloads
