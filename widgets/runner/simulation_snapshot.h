// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file simulation_snapshot.h
 * The immutable result of one simulation: the table and stream that were
 * replayed and one GovernorRun per selected governor, in display order, each
 * with its colour. SimulationRunner emits it as
 * std::shared_ptr<const SimulationSnapshot>; every view rebuilds from it and
 * may keep the pointer as long as it likes (nothing in it ever changes).
 *
 * Stable API shared with widgets/inspector, widgets/comparison, widgets/export
 * and widgets/session: add members at the end, never change one's meaning.
 */
#pragma once

#include "core/replay/governor_run.h"
#include "core/stats/run_counts.h"
#include "core/states/idle_state_table.h"
#include "core/stream/idle_span.h"
#include "widgets/runner/scenario_spec.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace idlescope {

struct SimulationSnapshot {
    /// Increases by one with every snapshot a runner emits (first is 1).
    std::uint64_t generation = 0;

    /// The spec that produced this snapshot (tick_hz, edits and latency limit applied).
    ScenarioSpec spec;

    /// The table replayed (= spec.target.table).
    IdleStateTable table;
    /// The stream replayed, after the latency limit was applied; shared, never modified.
    std::shared_ptr<const IdleStream> stream;

    /// One run per governor that ran, in display order; runs[i].variant names it.
    std::vector<GovernorRun> runs;
    /// colors[i] is the colour of runs[i] in every view.
    std::vector<QColor> colors;
    /// atDefaults[i]: runs[i] used only kernel-default tunables (no badge).
    std::vector<bool> atDefaults;

    /// Scenario description for titles and exports.
    QString targetId;              ///< e.g. "pseries-p10"
    QString workloadDescription;   ///< e.g. "IPI wakeups every 100 us, 200000 spans"

    /// Governors that were asked for but could not run (unknown variant, bad setting).
    QStringList errors;

    /// Wall time of the simulation on the worker (ms), for the status bar.
    double simulationMs = 0.0;

    /// counts[i]: prefix totals of runs[i] (per-state usage/above/below/time up to any entry).
    std::vector<RunCounts> counts;
    /// Histogram of the stream's span idle durations, over any prefix of the spans.
    DurationHistogram durations;

    int governorCount() const { return static_cast<int>(runs.size()); }

    /// Index into runs of @p variant, or -1.
    int indexOf(std::string_view variant) const
    {
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (runs[i].variant == variant)
                return static_cast<int>(i);
        return -1;
    }

    /// Index of the oracle reference run, or -1 when it was not selected.
    int oracleIndex() const { return indexOf("oracle"); }

    /// Length of the run in ns (end of the longest run, relative to its start).
    Ns durationNs() const
    {
        Ns d = 0;
        for (const GovernorRun &r : runs)
            if (r.size() > 0)
                d = std::max(d, r.startNs.back() + r.residencyNs.back());
        return d;
    }
};

using SnapshotPtr = std::shared_ptr<const SimulationSnapshot>;

} // namespace idlescope
