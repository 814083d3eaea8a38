// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file data_export.h
 * Simulation data as files, written atomically:
 *  - one GovernorRun's per-entry columns as CSV (one row per idle entry) or
 *    JSON (column arrays plus summary);
 *  - every governor's summary of a snapshot as JSON (ReplaySummary per state
 *    plus the comparison totals) or CSV (the comparison table).
 *
 * Entry CSV columns: entry, span, start_ns (from the run start), state,
 * state_name, residency_ns, predicted_ns (-1 when none), sleep_length_ns,
 * stop_tick, above, below, got_tick, poll_time_limit, tick_stopped,
 * woken_by_wakeup, timer_wake (the span ended at its timer), latency_cost_ns.
 *
 * An entries file stands alone: the CSV opens with "# " lines (the governor,
 * then what scenario_context.h names: table and edits, HZ, latency limit,
 * workload with seed, changed tunables, and a trace's caveats) before the
 * header; the JSON has "governor", "workload", "hz", "latency_limit_ns" and
 * those lines as "context".
 */
#pragma once

#include "core/common/error.h"
#include "core/replay/governor_run.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QString>
#include <QStringList>

#include <string>

namespace idlescope {

/// What an entries file was computed from (exportContext()).
struct ExportContext {
    QString governor;           ///< the run's name in the window: "menu-6.14", an instance's label
    QString workload;           ///< the workload's description
    int hz = 0;                 ///< the tick rate replayed
    qint64 latencyLimitNs = -1; ///< -1: none
    QStringList lines;          ///< "Governor: …", scenarioContext(), a trace's caveats
};

/// The context of governor @p g's entries in @p snap.
ExportContext exportContext(const SimulationSnapshot &snap, int g);

/// The entry CSV header line (no newline).
inline constexpr const char *RUN_CSV_HEADER =
    "entry,span,start_ns,state,state_name,residency_ns,predicted_ns,sleep_length_ns,stop_tick,above,"
    "below,got_tick,poll_time_limit,tick_stopped,woken_by_wakeup,timer_wake,latency_cost_ns";

/// Appends the CSV row of entry @p i (with newline) to @p out.
void appendRunCsvRow(std::string &out, const GovernorRun &run, const IdleStateTable &table, const IdleStream &stream,
                     std::size_t i);

/// One run's entries; @p context's lines go first ("# " lines in the CSV).
Status exportRunCsv(const GovernorRun &run, const IdleStateTable &table, const IdleStream &stream, const QString &path,
                    const ExportContext &context = {});
Status exportRunJson(const GovernorRun &run, const IdleStateTable &table, const IdleStream &stream, const QString &path,
                     const ExportContext &context = {});
/// Governor @p g's entries of @p snap with their context, as JSON for a ".json" @p path, else CSV.
Status exportEntries(const SimulationSnapshot &snap, int g, const QString &path);

/// JSON text of every run's summary and totals in @p snap (see exportSummariesJson).
QByteArray summariesJson(const SimulationSnapshot &snap);
/// {"format_version": 1, "target", "workload", "governors": [{"variant", "settings", "color",
///  "idles", "idle_misses", "idle_miss_ratio", "belows", "aboves", "latency_cost_ns",
///  "spans", "end_now_ns", "states": [{"index", "name", "usage", "time_ns", "above", "below"}]}]}
Status exportSummariesJson(const SimulationSnapshot &snap, const QString &path);
/// The comparison table as CSV (comparison_table_model.h columns).
Status exportSummariesCsv(const SnapshotPtr &snap, const QString &path);

} // namespace idlescope
