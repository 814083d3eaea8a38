// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_event.h
 * One kernel trace event reduced to what idle reconstruction needs. Every
 * reader (ftrace text, trace-cmd report, perf script, trace-cmd .dat through
 * libtraceevent) produces these; the reconstructor consumes them and never
 * sees the source format. Plain data: events are copied into a small reorder
 * window, so names are interned ids, not views into a line.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace idlescope::trace {

/// The tracepoints the importer understands (include/trace/events/{power,timer,irq,ipi,sched}.h).
enum class EventKind : std::uint8_t {
    CpuIdle,       ///< power:cpu_idle        arg = state (-1 for PWR_EVENT_EXIT), target = cpu_id
    CpuIdleMiss,   ///< power:cpu_idle_miss   arg = state, flag = below (1) / above (0), target = cpu_id
    HrtimerStart,  ///< timer:hrtimer_start   ptr, nameId = function, timeNs = expires (CLOCK_MONOTONIC)
    HrtimerExpire, ///< timer:hrtimer_expire_entry  ptr, nameId = function, timeNs = now
    HrtimerCancel, ///< timer:hrtimer_cancel  ptr
    TimerExpire,   ///< timer:timer_expire_entry (timer wheel; runs from the tick's softirq)
    TickStop,      ///< timer:tick_stop       flag = success
    IrqHandler,    ///< irq:irq_handler_entry arg = irq, nameId = handler name
    Softirq,       ///< irq:softirq_entry     arg = vec
    IpiSend,       ///< ipi:ipi_send_cpu / ipi_send_cpumask / ipi_raise (sender side), mask = targets
    IpiEntry,      ///< ipi:ipi_entry, irq_vectors:*_entry IPI vectors (receiver side)
    SchedWakeup,   ///< sched:sched_wakeup(_new)  arg = pid, target = target_cpu
    SchedSwitch,   ///< sched:sched_switch    arg = prev_pid, target = next_pid
    CpuFrequency,  ///< power:cpu_frequency   arg = state (kHz), target = cpu_id
};
inline constexpr int EVENT_KIND_COUNT = 14;

/// Up to 256 CPUs as a bit set (IPI targets).
struct CpuMask {
    static constexpr int MAX_CPUS = 256;
    std::array<std::uint64_t, MAX_CPUS / 64> words{};

    void set(int cpu)
    {
        if (cpu >= 0 && cpu < MAX_CPUS)
            words[static_cast<std::size_t>(cpu / 64)] |= std::uint64_t{1} << (cpu % 64);
    }
    bool test(int cpu) const
    {
        return cpu >= 0 && cpu < MAX_CPUS && (words[static_cast<std::size_t>(cpu / 64)] >> (cpu % 64)) & 1;
    }
};

/// A normalised event. Unused fields stay zero.
struct TraceEvent {
    Ns ts = 0;               ///< trace clock, ns
    std::int64_t line = 0;   ///< 1-based source line (text formats), 0 for .dat records
    std::int64_t record = 0; ///< 1-based record number (.dat, libtracecmd's order), 0 for text
    int cpu = -1;            ///< CPU whose buffer logged the event
    EventKind kind = EventKind::CpuIdle;
    bool flag = false;
    std::int64_t arg = 0;
    std::int64_t target = 0;
    std::int32_t nameId = -1; ///< index into the importer's name table, -1 for none
    std::uint64_t ptr = 0;    ///< hrtimer address (hashed or raw; only compared)
    Ns timeNs = 0;            ///< hrtimer expires / now
    CpuMask mask;             ///< IpiSend targets
};

/// power:cpu_idle's state value for an exit (PWR_EVENT_EXIT = (u32)-1).
inline constexpr std::int64_t PWR_EVENT_EXIT = 4294967295LL;

} // namespace idlescope::trace
