// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file host_protocol.h
 * What idlescope and the governor host (app/governor_host, the process that
 * runs a governor built from source) say to each other. The host runs the
 * whole reference replay itself, so that the process boundary costs nothing
 * per entry: the table goes in once (stdin, a socket), the stream in slots
 * of a ring of shared memory (fd 4) that the host replays in place as they
 * are filled, every decision comes back in one stream of its own (a pipe on
 * fd 5: stdout and stderr are the governor's text, kept apart from it), and a
 * page of shared memory (fd 3) says which entry the governor is in, for a
 * crash or a hang, and how far the host could confine itself (its sandbox,
 * app/governor_host/sandbox.h). Both ends are the same build on the same
 * machine: native byte order.
 */
#pragma once

#include "core/stream/idle_span.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace idlescope::source_governor {

inline constexpr char HOST_MAGIC[8] = {'I', 'S', 'G', 'H', 'O', 'S', 'T', '4'};
inline constexpr int HOST_PROGRESS_FD = 3;
inline constexpr int HOST_RING_FD = 4;
inline constexpr int HOST_DECISION_FD = 5;
/// Exit status of a host that refused to run (its reason is on stderr).
inline constexpr int HOST_EXIT_REFUSED = 3;
/// Exit status of a host whose governor made a system call the sandbox forbids
/// (HostProgress::deniedSyscall names it).
inline constexpr int HOST_EXIT_SANDBOX = 4;
/// Prefix of the host's own messages on stderr (the governor's pr_*() output has none).
inline constexpr const char *HOST_ERROR_PREFIX = "idlescope-governor-host: ";
/// The start of the host's refusal of a file with no initcall registering a governor:
/// nothing to show (a window does not keep the add), unlike a governor that fails.
inline constexpr const char *HOST_NO_GOVERNOR = "the file registers no governor";

struct HostHeader {
    char magic[8];
    std::int32_t tickHz;
    std::int32_t stateCount;
    std::int32_t pollRule;             ///< IDLESCOPE_POLL_RULE_* (cpuidle_abi.h)
    std::int32_t idleLoopReadsGotTick; ///< v7.0 do_idle()
    std::int32_t skipSelectOneState;   ///< v7.0 cpuidle_select(): no governor call for one state
    std::int32_t reserved;
    std::int64_t latencyLimitNs; ///< ReferenceReplay's latency limit, -1 for the spans' own
    std::int64_t spanCount;
};

struct HostState {
    std::int64_t exitLatencyNs;
    std::int64_t targetResidencyNs;
    std::int32_t polling;
    std::int32_t disabled;
    char name[16];
};

/// The spans go through the ring as IdleSpan's own bytes, RING_SLOT_SPANS to a slot
/// (the last one holds the rest): idlescope copies the next spans into a free slot and
/// then sends one byte (RING_FILLED) on stdin for it; the host replays the slots in turn
/// where they are, and sends one byte back on the same socket once it is done with a
/// slot, which makes it free. Neither side copies the spans through the kernel, and the
/// ring is small enough to stay in the cache.
inline constexpr std::size_t RING_SLOT_SPANS = 4096;
inline constexpr std::size_t RING_SLOTS = 8;
inline constexpr std::size_t RING_BYTES = RING_SLOTS * RING_SLOT_SPANS * sizeof(IdleSpan);
inline constexpr std::uint8_t RING_FILLED = 'F';
inline constexpr std::uint8_t RING_FREED = 'R';
static_assert(std::is_trivially_copyable_v<IdleSpan> && std::is_standard_layout_v<IdleSpan>);
static_assert(sizeof(IdleSpan) == 40 && offsetof(IdleSpan, util) == 32 && alignof(IdleSpan) == 8);
static_assert(sizeof(HostHeader) % 8 == 0 && sizeof(HostState) % 8 == 0);

/// One byte per entry: the state, the stop_tick left, and whether the
/// governor changed dev->poll_limit_ns (then its new value follows, 8 bytes).
inline constexpr std::uint8_t DECISION_STATE_MASK = 0x0f;
inline constexpr std::uint8_t DECISION_STOP_TICK = 0x10;
inline constexpr std::uint8_t DECISION_POLL_LIMIT = 0x20;
/// After the last decision: this byte, then entries and end_now_ns (int64 each).
inline constexpr std::uint8_t DECISION_END = 0xff;

enum class HostPhase : std::int32_t { Loading = 0, Enable, Select, Reflect, Done };

/// HostProgress::sandbox: what the host could put in place before it loaded the governor.
inline constexpr std::int32_t SANDBOX_LIMITS = 1;     ///< rlimits: memory, CPU, file size, processes
inline constexpr std::int32_t SANDBOX_NAMESPACES = 2; ///< no network, a root holding the governor only
inline constexpr std::int32_t SANDBOX_FILTER = 4;     ///< the seccomp system call filter
inline constexpr std::int32_t SANDBOX_SET = 8;        ///< the host got as far as confining itself

/// The memory the governor host may map (RLIMIT_AS), its CPU time (RLIMIT_CPU).
inline constexpr std::int64_t HOST_MEMORY_LIMIT = std::int64_t{1} << 30;
inline constexpr std::int64_t HOST_CPU_LIMIT_S = 3600;
/// The largest built governor the host loads (and the build keeps): the host's private root
/// is a tmpfs sized from it. A kernel governor builds to some 100 KiB.
inline constexpr std::int64_t HOST_OBJECT_LIMIT = std::int64_t{64} << 20;

/// Written by the host as it goes, read by idlescope after a crash or a hang.
struct HostProgress {
    std::atomic<std::int64_t> entry;          ///< 0-based over the whole run
    std::atomic<std::int64_t> span;           ///< stream row
    std::atomic<std::int32_t> phase;          ///< HostPhase
    std::atomic<std::int32_t> sandbox;        ///< SANDBOX_* bits
    std::atomic<std::int32_t> namespaceErrno; ///< why SANDBOX_NAMESPACES is missing
    std::atomic<std::int32_t> filterErrno;    ///< why SANDBOX_FILTER is missing
    std::atomic<std::int32_t> deniedSyscall;  ///< the forbidden system call's number (HOST_EXIT_SANDBOX)
    std::atomic<std::int32_t> reserved;
};

} // namespace idlescope::source_governor
