// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file idle_state_table.h
 * A cpuidle driver's state table as the governors see it: struct
 * cpuidle_driver's states[] plus the per-CPU disable bits of
 * dev->states_usage[] (include/linux/cpuidle.h).
 */
#pragma once

#include "core/common/error.h"
#include "core/common/kernel_types.h"

#include <string>
#include <vector>

namespace idlescope {

/// IdleState::wakeDelayNs when the table gives no wake delay of its own.
inline constexpr Ns NO_WAKE_DELAY = -1;

/// Anything above an hour of exit latency or target residency is a unit mistake
/// (seconds or microseconds typed as nanoseconds), not a real idle state:
/// validate() refuses it, and editors check typed values against it.
inline constexpr Ns MAX_STATE_TIME_NS = 3600LL * NSEC_PER_SEC;

/// One idle state (struct cpuidle_state plus its per-CPU disable bit).
struct IdleState {
    std::string name;         ///< e.g. "POLL", "C1E", "CEDE"
    std::string desc;         ///< free text, as in sysfs "desc"
    Ns exitLatencyNs = 0;     ///< exit_latency_ns
    Ns targetResidencyNs = 0; ///< target_residency_ns
    bool polling = false;     ///< CPUIDLE_FLAG_POLLING: a busy-poll loop, not a hardware state
    bool disabled = false;    ///< states_usage[i].disable (sysfs "disable")
    /// Time from a wakeup event to the CPU running code again after this state (the real
    /// wake-up, which the closed loop, throughput and energy charge); NO_WAKE_DELAY uses
    /// exitLatencyNs. Governors never read it: they see the kernel's exit_latency.
    Ns wakeDelayNs = NO_WAKE_DELAY;
    /// Time to enter the state (a device tree's entry-latency-us): a wakeup that comes
    /// before the entry is complete waits for it (wake_delay.h). 0 when not known.
    Ns entryLatencyNs = 0;

    bool operator==(const IdleState &) const = default;
};

/**
 * Ordered states, shallow to deep, with the tick rate of the machine.
 * Holds at most CPUIDLE_STATE_MAX states; validate() says whether the table
 * is one the kernel would register. Mutators return a Status naming the
 * offending state and field and leave the table unchanged on error.
 */
class IdleStateTable {
public:
    std::string id;     ///< short identifier, e.g. "intel-skx"
    std::string source; ///< where the values come from (kernel file, version)
    /// Where the states' wake delays come from (JSON "wake_delay_note"), empty when none is given.
    std::string wakeDelayNote;
    int tickHz = 250; ///< CONFIG_HZ
    std::vector<IdleState> states;

    int count() const { return static_cast<int>(states.size()); }
    const IdleState &operator[](int i) const { return states[static_cast<size_t>(i)]; }

    /// TICK_NSEC for tickHz.
    Ns tickNsec() const { return tickNsecForHz(tickHz); }

    /// Errors: no states, more than CPUIDLE_STATE_MAX, negative or huge values (a wake
    /// delay may be NO_WAKE_DELAY),
    /// a polling state that is not state 0, a target residency shorter than the
    /// state before it, a repeated state name, tick rate outside 24..10000 Hz.
    Status validate() const;

    /// Editing API; each call validates the result and rolls back on error.
    Status addState(const IdleState &state, int position);
    Status removeState(int index);
    Status moveState(int from, int to);
    Status setDisabled(int index, bool disabled);
    Status setExitLatencyNs(int index, Ns value);
    Status setTargetResidencyNs(int index, Ns value);
    Status setTickHz(int hz);

    /// Index of the first enabled state, or -1 when every state is disabled.
    int firstEnabled() const;

    /// Every field equal, names and provenance included.
    bool operator==(const IdleStateTable &) const = default;
};

/// Whether every governor decides alike on @p a and @p b: the same tick rate and,
/// state by state, the same exit latency, target residency, polling flag and
/// disable bit (names, descriptions and provenance are not read by governors).
bool decideAlike(const IdleStateTable &a, const IdleStateTable &b);

/// Whether a run's wake-ups cost alike on @p a and @p b: state by state the same exit
/// latency, wake delay and entry latency (core/states/wake_delay.h), so that totals summed
/// entry by entry on one hold on the other.
bool wakeAlike(const IdleStateTable &a, const IdleStateTable &b);

} // namespace idlescope
