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
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/workloads/workload_spec.h"

#include <optional>

namespace idlescope::workloads {

struct IoInterruptRoute {
    int cpu = 0;          ///< the CPU that takes every completion interrupt
    Ns hardirqNs = 0;     ///< CPU time of one interrupt there
};

/// The route of @p root when it is an `io` generator (alone, not in an overlay or a mix)
/// whose interrupts land on another CPU than the submitter's (irq=cpu0, or irq=auto for
/// sata, emmc, mtd); nullopt otherwise (the completions wake the submitting CPU only).
std::optional<IoInterruptRoute> ioInterruptRoute(const WorkloadNode &root);

} // namespace idlescope::workloads
