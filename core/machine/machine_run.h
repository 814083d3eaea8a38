// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file machine_run.h
 * The results of one run on a machine, per CPU and per state, in the shape of
 * /sys/devices/system/cpu/cpuN/cpuidle/stateK/{usage,time,above,below}; the
 * same type holds a simulated governor's run and the kernel's own recorded
 * choices (a trace's "recorded" run), so that every view and format treats
 * them alike. total() sums the CPUs as one sums the sysfs files.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/replay/reference_replay.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace idlescope {

/// One idle entry on the machine's common time axis, kept for the cluster view.
struct IdleInterval {
    Ns startNs = 0;
    Ns endNs = 0;
    std::int32_t state = 0;
};

/// What a CpuRun's intervals hold (24 bytes an entry, kept only when asked for).
enum class IntervalKind : std::uint8_t {
    None,    ///< none kept
    Entries, ///< every entry for its measured residency, on the stream's clock: the cluster view, the lanes
    /// every entry's time in its state (without its entering and its exit, the CPU runs then), on the
    /// run's real clock: a closed loop's and its background's, from which energy.h charges a cluster
    InState,
};

/// The counters of one CPU (or of all CPUs summed, cpu = -1).
struct CpuRun {
    int cpu = -1;
    int stateCount = 0;
    std::array<StateStats, CPUIDLE_STATE_MAX> states{}; ///< usage, time, above, below per state
    std::int64_t entries = 0;
    std::int64_t spans = 0;
    std::int64_t wakeups = 0; ///< spans ended by a non-timer event
    /// I/Os of the io jobs completed on this CPU (CpuStream::ioOps), whatever the governor: an
    /// open-loop run does the same work, only its duration differs; -1 without io jobs.
    std::int64_t ioOps = -1;
    /// The duration the I/Os were done in: this CPU's, or for a sum the longest of its CPUs with
    /// io jobs (the others, background or interrupt CPUs, do none of the I/Os).
    Ns ioDurationNs = 0;
    Ns latencyCostNs = 0; ///< wake delay (wake_delay.h) of the state left at each of those wakeups
    Ns durationNs = 0;    ///< time the run covers (busy + idle); the largest CPU's for a sum
    Ns wakingNs = 0;      ///< time spent waking up: every entry's wake delay (a replay's only)
    /// Per state, the time spent entering it (WakeTotals::enteringNs; a replay's only): inside
    /// states[].timeNs, but the CPU is running then, not in the state.
    std::array<Ns, CPUIDLE_STATE_MAX> enteringNs{};
    /// states[].timeNs holds the table's exit latency per entry (a replay's accounting, which the
    /// governors read) on top of the time in the state; false for a trace's recorded counters.
    bool timeHasExitLatency = false;
    std::vector<IdleInterval> intervals;            ///< only when asked for; sorted, disjoint
    IntervalKind intervalKind = IntervalKind::None; ///< what intervals hold

    std::int64_t above() const;
    std::int64_t below() const;
    Ns idleNs() const;
    /// (above + below) / entries, 0 without entries.
    double missRatio() const;
    /// IOPS: ioOps over ioDurationNs in seconds; 0 without a duration. Only meaningful with
    /// ioOps >= 0.
    double iops() const;
    /// Adds @p other's counters (not its intervals); duration becomes the larger.
    void add(const CpuRun &other);
};

/// Why a CPU of the workload has no results.
struct SkippedCpu {
    int cpu = 0;
    std::string reason;
};

struct MachineRun {
    std::string name;  ///< governor variant id, or "recorded"
    std::string label; ///< e.g. "recorded (menu)"; empty means name
    /// Where above/below come from: "simulated", "recorded (cpu_idle_miss)" or
    /// "recomputed (...)" (trace_stats.h's missSourceName()).
    std::string missSource = "simulated";
    std::vector<CpuRun> cpus;        ///< CPUs with results, by CPU number
    std::vector<SkippedCpu> skipped; ///< the others, with the reason
    /// The machine's CPUs without results had nothing to run throughout (a closed loop's): a
    /// cluster is idle exactly when its CPUs in the run all are (energy.h).
    bool othersIdle = false;
    /// A trace's recorded run only: every complete entry of each CPU, the replayed rows or
    /// not, over the CPU's whole trace (cpus counts the replayed rows only, as the
    /// simulated runs do). Empty for other runs.
    std::vector<CpuRun> wholeTrace;

    /// Sum over cpus, as sysfs would show it summed; cpu = -1.
    CpuRun total() const;
    /// The CPU's results, or nullptr.
    const CpuRun *find(int cpu) const;
};

} // namespace idlescope
