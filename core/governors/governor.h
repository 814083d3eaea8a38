// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor.h
 * The governor interface: a C++ transcription of struct cpuidle_governor
 * (include/linux/cpuidle.h) — enable, select, reflect — and nothing more.
 *
 * The kernel helpers a governor calls during select are handed over as plain
 * values in SelectContext (they have no side effects in the reference replay),
 * except tick_nohz_idle_got_tick(), whose read-and-clear side effect lives in
 * CpuidleDevice. Learning happens at the next select, as in menu_update() and
 * teo_update(). Implementations never allocate in select() or reflect().
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/common/kernel_version.h"
#include "core/governors/cpuidle_device.h"
#include "core/governors/reasoning.h"
#include "core/states/idle_state_table.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace idlescope {

/// Which cpuidle_poll_time() the variant's kernel has (drivers/cpuidle/cpuidle.c).
enum class PollTimeRule {
    V5_5,  ///< v5.5–v5.10: TR of the first enabled state after state 0, else TICK_NSEC
    V5_11, ///< v5.11+: first enabled state with TR >= 10 us, clamped to TICK_NSEC/16
};

/// What a variant reproduces; static data, one per variant id.

struct VariantInfo {
    const char *id;      ///< e.g. "menu-6.14"
    const char *family;  ///< "menu", "teo", "ladder", "haltpoll", "oracle"
    const char *kernel;  ///< kernel version or patch reproduced, e.g. "v6.14"
    KernelVersion base;  ///< the release `kernel` names (a patch's base): lists sort by it
    const char *summary; ///< one line for lists and tooltips
    PollTimeRule pollTime = PollTimeRule::V5_11;
    /// v7.0's do_idle() reads tick_nohz_idle_got_tick() after every reflect.
    bool idleLoopReadsGotTick = false;
};

/// One row of a family's variant table: what the variant reproduces and the
/// options (a family's own struct) that make it so.
template <class Options>
struct VariantRow {
    VariantInfo info;
    Options options;
};

/// The VariantInfo column of a family's table (rows with an `info` member,
/// one per variant), as the contiguous list registry.h hands out.
template <class Row, std::size_t N>
constexpr std::array<VariantInfo, N> variantInfos(const Row (&rows)[N])
{
    std::array<VariantInfo, N> infos{};
    for (std::size_t i = 0; i < N; ++i)
        infos[i] = rows[i].info;
    return infos;
}

/// What the kernel helpers return at this select (see the replay README).
struct SelectContext {
    Ns nowNs = 0;             ///< local_clock()
    Ns sleepLengthNs = 0;     ///< tick_nohz_get_sleep_length() return value
    Ns deltaNextNs = 0;       ///< its delta_next output (next tick or timer, whichever first)
    Ns latencyReqNs = 0;      ///< cpuidle_governor_latency_req()
    Ns tickNsec = 0;          ///< TICK_NSEC
    bool tickStopped = false; ///< tick_nohz_tick_stopped()
    int util = 0;             ///< sched_cpu_util(), capacity 1024
    /// Not a kernel input: how long this entry will really last if nothing
    /// else ends it (time to the wakeup). Only the oracle may read it.
    Ns oracleIdleNs = 0;
};

/// A select() result: the state index and the value left in *stop_tick.
struct Selection {
    int stateIndex = 0;
    bool stopTick = true;
    /// The idle duration the governor expected, -1 where it has none: menu's
    /// own prediction (predicted_ns before the state loop re-assigns it to a
    /// target residency), teo's duration_ns (for v5.14+ mostly the sleep
    /// length: teo predicts no idle time), the oracle's known duration.
    Ns predictedNs = -1;
};

/// A named numeric parameter a user may change (GUI sliders, --set NAME=VALUE).
struct TunableInfo {
    const char *name; ///< kernel spelling, e.g. "INTERVALS", "RESIDENCY_THRESHOLD_NS"
    const char *description;
    const char *unit; ///< "ns", "samples", "ratio", "count", ...
    std::int64_t kernelDefault;
    std::int64_t minValue;
    std::int64_t maxValue;
};

class Governor {
public:
    virtual ~Governor() = default;

    virtual const VariantInfo &variant() const = 0;

    /// ->enable(): reset all per-CPU data for this table (a new stream or table).
    virtual void enable(const IdleStateTable &drv, CpuidleDevice &dev) = 0;

    /// ->select(): pick a state; always returns a valid index (0 as last resort).
    virtual Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) = 0;

    /// ->reflect(): the state that was entered; dev.lastResidencyNs is already set.
    virtual void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) = 0;

    /// Tunables of this family; values start at the kernel defaults.
    virtual std::span<const TunableInfo> tunables() const { return {}; }
    /// Current value of a tunable, or the kernel default if unknown.
    virtual std::int64_t tunable(std::string_view name) const;
    /// Set a tunable; false with a message for unknown names or out-of-range values.
    virtual bool setTunable(std::string_view name, std::int64_t value, std::string *error);
    /// True when every tunable has its kernel default.
    bool atKernelDefaults() const;

    /// What the last select() computed on the way (fixed size, no allocation).
    const Reasoning &reasoning() const { return m_reasoning; }
    /// Off: nothing will read reasoning() (a replay that keeps only the entries), so a
    /// governor may skip writing what only its record holds (teo's whole copy, menu's
    /// detector figures); reasoning() is then not current. Decisions never depend on it.
    /// On by default.
    void keepReasoning(bool keep) { m_keepReasoning = keep; }

protected:
    Reasoning m_reasoning;
    bool m_keepReasoning = true;
};

} // namespace idlescope
