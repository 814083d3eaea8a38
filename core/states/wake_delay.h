// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file wake_delay.h
 * How long a CPU takes to run code again after a wakeup event, per idle state.
 *
 * The table's exit_latency is the kernel's worst case, and on Arm the device
 * tree's entry + exit latency (drivers/cpuidle/dt_idle_states.c uses
 * wakeup-latency-us when given, else entry-latency-us + exit-latency-us). The
 * governors must keep reading it; what a woken task waits is the state's own
 * wake delay (IdleState::wakeDelayNs, the device tree's exit-latency-us on
 * Arm) plus, when the event comes while the CPU is still entering the state,
 * the rest of the entry (IdleState::entryLatencyNs): the device-tree binding's
 * worst case, entry + exit, is a wakeup at the very start of the entry.
 */
#pragma once

#include "core/states/idle_state_table.h"

#include <algorithm>
#include <array>
#include <cstddef>

namespace idlescope {

/// The state's wake delay once the entry is complete (its exit latency without one of its own).
inline Ns baseWakeDelayNs(const IdleState &s)
{
    return s.wakeDelayNs != NO_WAKE_DELAY ? s.wakeDelayNs : s.exitLatencyNs;
}

/// The delay of a wakeup event @p sleptNs after the CPU began to enter @p s.
inline Ns wakeDelayNs(const IdleState &s, Ns sleptNs)
{
    return baseWakeDelayNs(s) + std::max<Ns>(0, s.entryLatencyNs - sleptNs);
}

/**
 * The same for an entry of a reference replay, whose measured residency is the
 * time to the event plus the table's exit latency (cpuidle_enter_state()'s
 * accounting in ReferenceReplay::account()).
 */
inline Ns replayedWakeDelayNs(const IdleStateTable &table, int state, Ns residencyNs)
{
    const IdleState &s = table[state];
    return wakeDelayNs(s, std::max<Ns>(0, residencyNs - s.exitLatencyNs));
}

/**
 * What a replay's entries cost in wake-ups, summed entry by entry from its
 * sink: the time spent waking (every entry ends with an exit), the time spent
 * entering each state, and how far the real clock runs behind the replay's,
 * which advances by the table's exit latency after each entry where the CPU
 * really took the wake delay. A run's duration on the real clock is the
 * replay's plus clockShiftNs.
 */
struct WakeTotals {
    Ns wakingNs = 0;
    Ns clockShiftNs = 0;
    /// Per state, the time its entries spent entering it: the entry latency, or the time to the
    /// wakeup when it came first (the rest of the entry is then in the wake delay). The CPU runs
    /// its way into the state then; it is not in it (core/energy/energy.h prices it so).
    std::array<Ns, CPUIDLE_STATE_MAX> enteringNs{};

    /// One entry of @p table: its state and measured residency; returns its wake delay.
    Ns add(const IdleStateTable &table, int state, Ns residencyNs)
    {
        const IdleState &s = table[state];
        const Ns slept = std::max<Ns>(0, residencyNs - s.exitLatencyNs);
        const Ns d = wakeDelayNs(s, slept);
        wakingNs += d;
        clockShiftNs += d - s.exitLatencyNs;
        enteringNs[static_cast<std::size_t>(state)] += std::min(s.entryLatencyNs, slept);
        return d;
    }
};

} // namespace idlescope
