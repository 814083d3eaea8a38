// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file io_devices.h
 * The device profiles of 4 KiB random reads at queue depth 1, one source for
 * the open loop's `io` generator (generators_apps.cpp) and the closed loop's
 * `io` model (core/experiments/closed_loop.h): a device completes a request
 * base + an exponential tail after its submission (mean = base + tail). They
 * are modelled figures typical of each class of device, not measurements of
 * one device (docs/workloads.md); a user who has measured one gives
 * device=custom,base_us=...,tail_us=... instead.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/workloads/rng.h"

#include <cstdint>

namespace idlescope::workloads {

struct DeviceProfile {
    Ns baseNs; ///< fastest completion
    Ns tailNs; ///< mean of the exponential tail above it
};

/// The device names in the order of their profiles; "custom" (the last) has none.
inline constexpr const char *kDevices[] = {"nvme", "sata", "emmc", "mtd", "nullblk", "dmdelay", "custom"};
inline constexpr DeviceProfile kProfiles[] = {
    {70 * NSEC_PER_USEC, 15 * NSEC_PER_USEC},                         // NVMe SSD
    {150 * NSEC_PER_USEC, 40 * NSEC_PER_USEC},                        // SATA SSD
    {300 * NSEC_PER_USEC, 150 * NSEC_PER_USEC},                       // eMMC
    {700 * NSEC_PER_USEC, 300 * NSEC_PER_USEC},                       // raw NAND through MTD/UBI
    {3 * NSEC_PER_USEC, 1 * NSEC_PER_USEC},                           // null_blk, irqmode=1 (softirq completion)
    {51000 * NSEC_PER_USEC + 70 * NSEC_PER_USEC, 15 * NSEC_PER_USEC}, // dm-delay 51 ms in front of NVMe
};
/// The index of "custom" in kDevices: the user's base_us and tail_us.
inline constexpr std::int64_t IO_DEVICE_CUSTOM = 6;
/// The index of "mtd" in kDevices.
inline constexpr std::int64_t IO_DEVICE_MTD = 3;

/// waits=0 in either loop: a raw NAND read through MTD/UBI waits on the controller once per
/// NAND command, a 4 KiB read on 2 KiB pages being two pages of an array read and a transfer;
/// a block device waits once.
inline constexpr std::int64_t IO_MTD_WAITS = 4;

/// The device waits of one I/O on @p device (an index of kDevices, or -1 for the closed loop's
/// service_us=) with waits=@p waits: @p waits, or with 0 the device's own (4 for mtd, 1 for the
/// others). Both loops count an I/O's waits with it.
constexpr std::int64_t ioWaitsPerIo(std::int64_t device, std::int64_t waits)
{
    return waits > 0 ? waits : (device == IO_DEVICE_MTD ? IO_MTD_WAITS : 1);
}

/// Why both loops refuse wait_cpu_us with one wait per I/O (it would change nothing).
inline constexpr const char *IO_WAIT_CPU_NEEDS_WAITS =
    "wait_cpu_us acts only between two waits of one I/O: it needs waits > 1 (device=mtd has 4 by default, the "
    "others 1)";

/// The device time of wait @p wait (0-based) of an I/O of @p ioNs split into @p waits waits:
/// an even share each, the last taking the remainder of the division. Both loops split an
/// I/O with it.
constexpr Ns ioWaitNs(Ns ioNs, std::int64_t waits, std::int64_t wait)
{
    const Ns share = ioNs / waits;
    return wait + 1 < waits ? share : ioNs - share * (waits - 1);
}

/// Whether @p device's completions default to one interrupt vector routed to CPU 0 (irq=auto):
/// the single-vector controllers, SATA (AHCI), eMMC hosts and raw NAND (MTD). NVMe has a vector
/// per queue, affine to the submitting CPUs; null_blk completes in the submitter's softirq;
/// dm-delay sits here on NVMe; custom is the user's.
constexpr bool ioIrqOnCpu0ByDefault(std::int64_t device)
{
    return device == 1 || device == 2 || device == 3;
}

/// One request's device time: the profile's base plus an exponential tail, the one draw both
/// loops make per request (so the same seed gives the same device times).
inline Ns drawDeviceNs(Rng &rng, const DeviceProfile &p)
{
    return p.baseNs + rng.exponential(p.tailNs);
}

} // namespace idlescope::workloads
