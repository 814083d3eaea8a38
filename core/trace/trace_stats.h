// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_stats.h
 * The "recorded" view of an imported trace: per CPU and in total, per-state
 * usage / residency time / above / below (struct cpuidle_state_usage's
 * counters, as /sys/devices/system/cpu/cpuN/cpuidle/stateK shows them), the
 * wakeup-cause breakdown and an idle-duration histogram.
 *
 * above/below come from power:cpu_idle_miss when the trace has it
 * (MissSource::Recorded); otherwise, given a table, each entry is classified
 * with cpuidle_enter_state()'s rule (classifyMiss, v5.1+) using its measured
 * residency and the table's exit latency (MissSource::Recomputed, labelled as
 * such in every output); without either they stay 0 (MissSource::None).
 * Truncated entries are counted apart and left out of usage and time.
 * Spans are accounted as the replay stream sees them: exported, or dropped
 * with a reason (SpanDrop), which is what a simulated run covers.
 * When the trace has power:cpu_frequency, the running time at each frequency
 * is counted too (frequency_stats.h).
 */
#pragma once

#include "core/replay/reference_replay.h"
#include "core/states/idle_state_table.h"
#include "core/trace/frequency_stats.h"
#include "core/trace/trace_model.h"
#include "core/trace/trace_stream.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace idlescope::trace {

/// Histogram bins: [0] < 1 us, [k] in [2^(k-1), 2^k) us for k = 1..HIST_BINS-2, last >= 2^(HIST_BINS-2) us.
inline constexpr int HIST_BINS = 22;
/// Lower edge of bin @p k in ns (0 for bin 0).
Ns histogramLowerNs(int k);
int histogramBin(Ns durationNs);

enum class MissSource : std::uint8_t { None, Recorded, Recomputed };
const char *missSourceName(MissSource s);

/// The shortest and the longest residency of one state's entries (the mean is timeNs / usage).
struct ResidencyRange {
    Ns minNs = 0;
    Ns maxNs = 0;
};

struct CpuStats {
    int cpu = -1;                          ///< -1 for the total
    std::vector<StateStats> states;        ///< index = recorded state
    std::vector<ResidencyRange> residency; ///< index = recorded state; {0, 0} where usage is 0
    std::int64_t entries = 0;
    std::int64_t truncatedEntries = 0;
    std::int64_t spans = 0;
    std::int64_t exportedSpans = 0;   ///< spans in the replay stream (trace_stream.h)
    std::int64_t exportedRows = 0;    ///< their stream rows (one per in-idle wakeup more)
    SpanDrops droppedSpans{};         ///< the others, by reason: spans = exported + dropped
    std::int64_t exportedEntries = 0; ///< complete entries inside the exported spans
    Ns idleNs = 0;                    ///< sum of entry residencies
    Ns observedNs = 0;                ///< last - first event
    std::array<std::int64_t, WAKE_CAUSE_COUNT> causes{};
    std::map<std::string, std::int64_t> irqNames;   ///< Irq causes by handler name
    std::map<std::string, std::int64_t> timerNames; ///< HrTimer causes by callback
    std::array<std::int64_t, HIST_BINS> histogram{};
    std::int64_t statesBeyondTable = 0;          ///< entries whose state the table lacks
    std::vector<FrequencyResidency> frequencies; ///< running time per frequency (cpu_frequency), lowest first
};

/// Cluster-level idle: the time every CPU of a group was idle at once (the
/// window in which a cluster's shared power domain could be off), within the
/// part of the trace all of them observed.
struct ClusterStats {
    std::vector<int> cpus;
    Ns allIdleNs = 0;  ///< every CPU of the group inside a complete idle entry
    Ns observedNs = 0; ///< from the latest first event to the earliest last event of the group
};

struct TraceStats {
    std::vector<CpuStats> cpus; ///< CPUs with events
    CpuStats total;
    std::vector<ClusterStats> clusters; ///< as asked, or one of every CPU with idle entries
    MissSource missSource = MissSource::None;
    std::string tableId; ///< the table used to recompute above/below
};

/// Statistics of @p trace; @p table (may be null) recomputes above/below when the trace lacks cpu_idle_miss.
/// @p clusters: groups of CPUs for ClusterStats; empty: one group of every CPU with idle entries
/// (a trace does not say the topology). CPUs a trace lacks are left out of their group.
TraceStats computeStats(const TraceImport &trace, const IdleStateTable *table,
                        const std::vector<std::vector<int>> &clusters = {});

/// The time all of @p cpus were inside a complete idle entry at once, and the window they all observed.
ClusterStats clusterIdle(const TraceImport &trace, const std::vector<int> &cpus);

} // namespace idlescope::trace
