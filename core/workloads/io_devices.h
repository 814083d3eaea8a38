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
