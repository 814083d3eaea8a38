// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_run.h
 * Running a built governor: the governor host replays the whole stream in
 * its own process and sends back every decision at once; this side watches
 * it, and turns a crash (its signal), an endless loop (no progress within
 * the timeout) or a refusal into an Error naming the entry it happened at.
 */
#pragma once

#include "core/common/error.h"
#include "core/common/kernel_types.h"
#include "core/states/idle_state_table.h"
#include "core/stream/idle_span.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace idlescope::source_governor {

/// The cpuidle core and idle loop a governor file runs with, by kernel version.
struct KernelCore {
    int major = 7;
    int minor = 0;
    bool pollTimeV5_5() const { return major < 5 || (major == 5 && minor < 11); }
    /// v7.0: do_idle() reads tick_nohz_idle_got_tick() after every idle
    /// entry, and cpuidle_select() skips the governor on one-state drivers.
    bool v7() const { return major >= 7; }
    std::string name() const { return std::to_string(major) + "." + std::to_string(minor); }
};

/// "6.19", "v6.19", "7.0"; the versions the kit covers (5.10 ... 7.0) and later.
Result<KernelCore> parseKernelCore(const std::string &text);

struct HostDecisions {
    std::vector<std::uint8_t> bytes; ///< host_protocol.h decision bytes, without the end record
    std::int64_t entries = 0;
    Ns endNowNs = 0;
    std::string log;                 ///< what the governor printed (pr_*())
};

/// Seconds without progress after which a governor is stopped as hung.
inline constexpr int DEFAULT_SOURCE_TIMEOUT_S = 10;

/**
 * Replays @p stream on @p table with the governor in @p sharedObject (from
 * buildSourceGovernor()) in the governor host. @p label names the governor
 * in errors. @p cancel (optional) stops the host.
 */
Result<HostDecisions> runInHost(const std::string &sharedObject, const std::string &label, const KernelCore &core,
                                const IdleStateTable &table, const IdleStream &stream, Ns latencyLimitNs,
                                int timeoutSeconds = DEFAULT_SOURCE_TIMEOUT_S,
                                const std::atomic<bool> *cancel = nullptr);

} // namespace idlescope::source_governor
