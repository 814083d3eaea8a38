// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file simulation_snapshot.h
 * The immutable result of one simulation: the table and stream that were
 * replayed and one GovernorResult per selected governor, in display order
 * (its run, colour and everything built from it). SimulationRunner emits it as
 * std::shared_ptr<const SimulationSnapshot>; every view rebuilds from it and
 * may keep the pointer as long as it likes (nothing in it ever changes).
 *
 * Stable API shared with widgets/inspector, widgets/comparison, widgets/export
 * and widgets/session: add members at the end, never change one's meaning.
 */
#pragma once

#include "core/formats/wult_csv.h"
#include "core/machine/machine.h"
#include "core/replay/governor_run.h"
#include "core/states/idle_state_table.h"
#include "core/states/power_model.h"
#include "core/stats/run_counts.h"
#include "core/stream/idle_span.h"
#include "widgets/runner/governor_result.h"
#include "widgets/runner/scenario_spec.h"
#include "widgets/runner/trace_workload.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope {

/// A governor that failed with no earlier run to keep (a source file that
/// crashed, hung or would not build in its first run) and what it said.
struct GovernorFailure {
    std::string variant;
    std::vector<TunableSetting> settings;
    QString error; ///< as in SimulationSnapshot::errors
};

struct SimulationSnapshot {
    /// Increases by one with every snapshot a runner emits (first is 1).
    std::uint64_t generation = 0;

    /// The spec that produced this snapshot (tick_hz, edits and latency limit applied).
    ScenarioSpec spec;

    /// The table replayed: spec.target.table with the measured wake delays of
    /// spec.wakeDelaysPath, when given, in place of its own.
    IdleStateTable table;
    /// The states spec.wakeDelaysPath measured, as read for this run (empty without a file):
    /// the Target group says which state's wake delay is the file's.
    std::vector<MeasuredWakeDelay> measuredWakeDelays;
    /// The workload's stream; shared, never modified. spec.latencyLimitNs (when >= 0) replaced its
    /// latency_req_ns column in the replay (runGovernor()'s latencyLimitNs), so pass it to reasoningAt().
    std::shared_ptr<const IdleStream> stream;
    /// The clock its rows are on (clockOf(*stream)), which prices every run's duration: asked
    /// once per stream, not once per governor and re-run.
    StreamClock streamClock = StreamClock::Own;

    /// One result per governor that ran, in display order: its run (shared between snapshots
    /// when its inputs did not change or its replay repeated it), name, colour and what was built from it
    /// (governor_result.h, which also says what a hand-made snapshot may leave empty).
    std::vector<GovernorResult> governors;

    /// Scenario description for titles and exports.
    QString targetId;            ///< e.g. "pseries-p10"
    QString workloadDescription; ///< e.g. "IPI wakeups every 100 us, 200000 spans"

    /// Governors that were asked for but could not run (unknown variant, bad setting).
    QStringList errors;
    /// The source governors among them with no run to show: the next snapshot on the same
    /// inputs and the same file says the same again instead of running it again (one stuck
    /// in a loop would hold up every re-simulation by its timeout).
    std::vector<GovernorFailure> failures;

    /// Wall time of the simulation on the worker (ms), for the status bar.
    double simulationMs = 0.0;

    /// Histogram of the stream's span idle durations, over any prefix of the spans.
    DurationHistogram durations;
    /// The workload's clock, which every simulated run's startNs is on (span_clock.h):
    /// spanClockNs[row] is the start of stream row @p row on it (ns from x = 0), the trace's
    /// timestamps for a kernel trace, else the stream's own time (the same vector as
    /// streamSpanStartNs); streamSpanStartNs[row] the start on the stream's own time
    /// (spanDriftNs()). Null in hand-made test snapshots.
    std::shared_ptr<const std::vector<Ns>> spanClockNs;
    std::shared_ptr<const std::vector<Ns>> streamSpanStartNs;
    /// For a kernel trace: the CPU replayed and its import (null otherwise). x = 0 is
    /// trace->originNs on the trace's clock.
    std::shared_ptr<const TraceCpuSource> trace;

    /// The table's power data: a table file's power_mw / entry_exit_energy_uj /
    /// active_power_mw (power_json.h); empty (no power data) for a built-in table.
    PowerModel power;
    /// A closed-loop workload (closed_loop_workload.h): the table on as many CPUs as the loop
    /// needs, which every GovernorResult::closedLoop ran on. Its runs keep no entries (a loop's
    /// spans are made as it goes, another for each governor): only their summaries, totals and
    /// throughput are filled. Null for every other workload.
    std::shared_ptr<const Machine> closedLoopMachine;
    /// Which of closedLoopMachine's CPUs ran a background beside the loop, in compare's words
    /// (scenario::backgroundNote(): "CPUs 1..5 run the background 'idle'"); "" when none did.
    QString closedLoopBackground;

    /// "trace time" or "stream time": the axis title's clock.
    QString clockName() const { return trace ? QStringLiteral("trace time") : QStringLiteral("stream time"); }

    int governorCount() const { return static_cast<int>(governors.size()); }
    /// The name of governor @p g in every view (legend, lanes, table rows, inspector, exports).
    QString name(int g) const { return QString::fromStdString(governors[static_cast<std::size_t>(g)].displayName()); }

    /// True when every governor's counts and plot summaries are built (a runner's snapshots
    /// always; a hand-made one may leave them empty, and the plots and legend then show nothing).
    bool summarised() const
    {
        return std::all_of(governors.begin(), governors.end(), [](const GovernorResult &g) { return g.summarised(); });
    }

    /// True for a closed-loop workload (GovernorResult::closedLoop set).
    bool isClosedLoop() const
    {
        return std::any_of(governors.begin(), governors.end(),
                           [](const GovernorResult &g) { return g.closedLoop.has_value(); });
    }

    /// Index into governors of the governor named @p name (GovernorResult::displayName(): a
    /// variant id, or a second instance's label), or -1.
    int indexOf(std::string_view name) const
    {
        for (std::size_t i = 0; i < governors.size(); ++i)
            if (governors[i].displayName() == name)
                return static_cast<int>(i);
        return -1;
    }

    /// Index of the oracle reference run, or -1 when it was not selected.
    int oracleIndex() const { return indexOf("oracle"); }

    /// Length of the run in ns (end of the longest run, relative to its start).
    Ns durationNs() const
    {
        Ns d = 0;
        for (const GovernorResult &g : governors)
            if (const GovernorRun &r = *g.run; r.size() > 0)
                d = std::max(d, r.startNs.back() + r.residencyNs.back());
        return d;
    }
};

using SnapshotPtr = std::shared_ptr<const SimulationSnapshot>;

} // namespace idlescope
