// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_run.h
 * Running a built governor: the governor host replays the whole stream in
 * its own process and sends back every decision as it makes it; this side
 * watches it, and turns a crash (its signal), an endless loop (no progress within
 * the timeout, whatever it prints, or a run past the time idlescope's own clock gives
 * it, whatever progress it reports), a flood of text, a system call its sandbox
 * forbids or a refusal into an Error naming the entry it happened at.
 */
#pragma once

#include "core/common/error.h"
#include "core/common/kernel_types.h"
#include "core/common/kernel_version.h"
#include "core/states/idle_state_table.h"
#include "core/stream/idle_span.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace idlescope::source_governor {

/// The kernels idlescope's shim follows: the one place the range is defined. Its cpuidle
/// core and idle loop are those of these versions; a later kernel may have changed them.
inline constexpr KernelVersion OLDEST_SHIM_KERNEL{5, 10};
inline constexpr KernelVersion NEWEST_SHIM_KERNEL{7, 0};

/// The cpuidle core and idle loop a governor file runs with, by kernel version.
struct KernelCore {
    int major = NEWEST_SHIM_KERNEL.major;
    int minor = NEWEST_SHIM_KERNEL.minor;
    bool pollTimeV5_5() const { return major < 5 || (major == 5 && minor < 11); }
    /// v7.0: do_idle() reads tick_nohz_idle_got_tick() after every idle
    /// entry, and cpuidle_select() skips the governor on one-state drivers.
    bool v7() const { return major >= 7; }
    KernelVersion version() const { return {major, minor}; }
    std::string name() const { return versionText(version()); }
};

/// "6.19", "v6.19", "7.0": OLDEST_SHIM_KERNEL to NEWEST_SHIM_KERNEL; an Error names the range.
Result<KernelCore> parseKernelCore(const std::string &text);

/// Seconds without progress (an entry, a phase, a slot or a decision: printing is none)
/// after which a governor is stopped as hung.
inline constexpr int DEFAULT_SOURCE_TIMEOUT_S = 10;

/// What the run of a stream may take in all, by idlescope's clock, past its timeout: this
/// much per stream row. Everything the host reports (the progress page, slots given back,
/// decisions) is written by the process the governor runs in, so the governor can forge
/// it; this limit depends on nothing it writes. 10 us a row is some 50 times what the
/// host takes (docs/performance.md), room for a loaded machine and a governor that prints.
inline constexpr Ns SOURCE_RUN_NS_PER_ROW = 10'000;

/// The wall-clock time a run of @p rows stream rows is given with @p timeoutSeconds.
inline constexpr Ns sourceRunLimitNs(int timeoutSeconds, std::size_t rows)
{
    return Ns{timeoutSeconds} * 1'000'000'000 + static_cast<Ns>(rows) * SOURCE_RUN_NS_PER_ROW;
}

/// What the host said after its last decision.
struct HostEnd {
    std::int64_t entries = 0;
    Ns endNowNs = 0;
    std::size_t decisionBytes = 0; ///< host_protocol.h decision bytes before the end record
    std::string log;               ///< what the governor printed (pr_*())
};

/**
 * The governor host replaying one stream with the governor in a shared
 * object (from buildSourceGovernor()). A thread of this object sends the
 * stream, keeps every decision byte as it arrives and watches the host, so
 * that the decisions can be played back while the host is still making the
 * next ones: the two replays, the host's and idlescope's, run side by side
 * instead of one after the other. The stream (its spans are copied into
 * the host's ring as it frees slots) and @p cancel must outlive the run; destroying a run
 * stops a host that is still running.
 */
class HostRun {
public:
    /// Starts the host; an Error when it cannot be started. @p label names the governor in errors.
    static Result<std::unique_ptr<HostRun>> start(const std::string &sharedObject, const std::string &label,
                                                  const KernelCore &core, const IdleStateTable &table,
                                                  const IdleStream &stream, Ns latencyLimitNs,
                                                  int timeoutSeconds = DEFAULT_SOURCE_TIMEOUT_S,
                                                  const std::atomic<bool> *cancel = nullptr);
    ~HostRun();
    HostRun(const HostRun &) = delete;
    HostRun &operator=(const HostRun &) = delete;

    /// The decision bytes from @p pos on that have arrived, waiting for one
    /// when none has; empty once the host has ended and every byte is read.
    /// The bytes stay where they are for the run's life.
    std::span<const std::uint8_t> bytesFrom(std::size_t pos);
    /// Waits for the host to end: its end record, or the Error that says
    /// why it ended without one (crash, hang, refusal, forbidden call, cancel).
    Result<HostEnd> finish();
    /// Once the host has confined itself (before its first decision): a warning naming the
    /// layers of its sandbox the kernel or a container did not allow; "" when all hold.
    std::string sandboxNotice() const;

    struct Watch;

private:
    explicit HostRun(std::unique_ptr<Watch> watch);
    std::unique_ptr<Watch> m_watch;
};

} // namespace idlescope::source_governor
