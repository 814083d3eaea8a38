// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario.h
 * What to simulate, as one plain value that every front end fills in: the
 * command line from its options, the window from its panels. A Scenario names
 * the table (one CPU) or the machine (every CPU), where the idle spans come
 * from, the governor instances with their tunables, the PM QoS latency limit
 * and the tick rate. The functions beside it (scenario_stream.h,
 * scenario_trace.h) resolve it into what the engine replays, so that the CLI
 * and the GUI cannot resolve the same scenario two ways.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/machine/machine.h"
#include "core/replay/governor_run.h"
#include "core/states/idle_state_table.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace idlescope::scenario {

/// Where the idle spans come from.
enum class WorkloadKind {
    Generator,  ///< one generator of core/workloads, its parameters written out in the text
    Spec,       ///< a workload spec in the command line's grammar (a + b, mix(...))
    ClosedLoop, ///< a closed loop (compare --closed-loop): its spans are made as it runs
    Csv,        ///< a conformance stream file
    Trace,      ///< a kernel trace: one CPU of it, or every CPU on a machine
};

/// A trace workload's "cpu" meaning the CPU with the most stream rows (lowest on a tie):
/// compare --trace's default, the window's "CPU with the most idle spans".
inline constexpr int TRACE_BEST_CPU = -1;

/// The spans a generated workload has unless told (idlescope-cli's --spans default).
inline constexpr std::int64_t DEFAULT_SPANS = 10000;
/// The most spans one generated stream may have (--spans and the window's field).
inline constexpr std::int64_t MAX_SPANS = 10000000;

struct WorkloadSource {
    WorkloadKind kind = WorkloadKind::Spec;
    /// Generator and Spec: the workload spec text (core/workloads/workload_spec.h);
    /// ClosedLoop: the closed loop's text. Empty for a file.
    std::string text;
    std::string path;                   ///< Csv and Trace: the file
    std::int64_t spans = DEFAULT_SPANS; ///< Generator and Spec: spans generated (1..MAX_SPANS)
    Ns durationNs = 0;                  ///< on a machine: the time every CPU covers instead (0: by spans)
    /// Generator, Spec and ClosedLoop: the base seed (>= 0; signed so that a front end can
    /// hand over what it was given and let the resolution refuse it with the others).
    std::int64_t seed = 1;
    int cpu = TRACE_BEST_CPU; ///< Trace on one CPU: the CPU replayed
    /// Csv and Trace: the file's stamp when it was opened (a front end's cache key; "" unknown).
    std::string fileStamp;
    /// Generator: the seeding of sessions saved before the window shared seededStream().
    bool legacySeeding = false;
};

/// One governor column: a variant, under its own label when a second instance.
struct GovernorInstance {
    std::string variant;                  ///< registry id, e.g. "menu-6.14"
    std::string label;                    ///< "" for the variant's own instance
    std::vector<TunableSetting> settings; ///< tunables that differ from the kernel default

    const std::string &name() const { return label.empty() ? variant : label; }
};

/// Everything a run depends on.
struct Scenario {
    /// One CPU's table, used when there is no machine.
    IdleStateTable table;
    /// Every CPU with its cluster's table (a whole-machine run); unset for one CPU.
    std::optional<Machine> machine;
    WorkloadSource workload;
    std::vector<GovernorInstance> governors; ///< in display order
    /// PM QoS resume-latency limit on every span (ns), or -1 to keep the stream's column.
    Ns latencyLimitNs = -1;
    /// The tick rate (CONFIG_HZ) over the table's or machine's own, when set.
    std::optional<int> tickHz;
    /// A wult datapoints.csv whose measured wake latencies set the states' wake delays over
    /// the table's or machine's own (core/formats/wult_csv.h), or "" for none.
    std::string wakeDelaysPath;
};

} // namespace idlescope::scenario
