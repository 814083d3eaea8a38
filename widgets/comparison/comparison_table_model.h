// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file comparison_table_model.h
 * The comparison table: one row per governor of a SimulationSnapshot, in
 * display order, with the columns of the linux-pm test reports (gov, idles,
 * idle_misses, idle_miss_ratio, belows, aboves), above/below as percentages,
 * the latency cost (core/stats/governor_totals.h), the throughput and energy
 * (core/stats/run_throughput.h, printed as `idlescope-cli compare --throughput`
 * prints them; "no power data" for a table without), a closed loop's operations
 * per second, added latency and energy over the loop's window (compare --closed-loop's
 * cells), then one usage column per state (compare's usage_<state>: "usage_WFI").
 *
 * Roles: DisplayRole text for people; EditRole the raw value (qint64 counts
 * and ns, double ratios and percentages, the variant id), used for sorting
 * and CSV; DecorationRole the governor colour (column 0); ToolTipRole;
 * TextAlignmentRole; FontRole (bold: the lowest idle_misses and latency cost);
 * GovernorIndexRole the row's index into SimulationSnapshot::runs.
 * Horizontal headers: DisplayRole names, EditRole the exports' names (idlescope-cli compare's:
 * governor, entries, above, below, latency_cost_us, usage_<state>, ...; latency_cost_us's
 * EditRole value is in µs), ToolTipRole help.
 */
#pragma once

#include "core/stats/governor_totals.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QAbstractTableModel>

#include <vector>

namespace idlescope {

/// The role of a cell that has no value (energy without power data, a recorded run's
/// throughput): its reason, in words. The exports write such a cell empty in CSV and null in
/// JSON (comparison_export.h), never the "—" or "no power data" shown on screen in a numeric
/// column, and say the reason once above the table (comparison_export.h).
inline constexpr int NoValueReasonRole = Qt::UserRole + 40;

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        GovColumn,
        IdlesColumn,
        IdleMissesColumn,
        IdleMissRatioColumn,
        BelowsColumn,
        AbovesColumn,
        AbovePercentColumn,
        BelowPercentColumn,
        LatencyCostColumn,
        ThroughputColumn, ///< wakeups no timer announced per second of the run (compare's wakeups_per_s)
        EnergyColumn,     ///< idle + entry/exit energy (compare's idle_energy_J), or "no power data"
        /// A closed-loop workload's (closed_loop_workload.h) operations per second and the
        /// latency added per operation, mean and p99: compare --closed-loop's ops_per_s,
        /// added_latency_mean_us and _p99_us; "—" for any other workload.
        OpsColumn,
        AddedMeanColumn,
        AddedP99Column,
        /// A closed loop's energy_J (every CPU and cluster term over the slowest run's window,
        /// closedLoopScope()) and energy_per_op_uJ: compare --closed-loop's cells; a closed
        /// loop's only (an open-loop run is priced over its own time, idle_energy_J).
        LoopEnergyColumn,
        LoopEnergyPerOpColumn,
        FirstStateColumn, ///< usage of state 0; state i is FirstStateColumn + i
    };
    static constexpr int GovernorIndexRole = Qt::UserRole + 1;

    explicit ComparisonTableModel(QObject *parent = nullptr);

    /// Rebuilds every row from @p snapshot (null clears the table).
    void setSnapshot(SnapshotPtr snapshot);
    SnapshotPtr snapshot() const { return m_snapshot; }

    /// Whether @p column has anything to say about this snapshot: the closed-loop columns
    /// only for a closed loop. The view hides, and exports leave out, the others.
    bool columnApplies(int column) const;

    /// runs[row]'s throughput and energy (a recorded run's idle energy only), or null out of range.
    const RunThroughput *throughput(int row) const;

    /// True when a row's energy reads "no power data" (its idle energy is not priced): what the
    /// comparison's "how to add it" link is for. False for an empty table, and for a board's
    /// closed loop or trace, whose clusters' power prices every row.
    bool lacksPowerData() const;

    /// The totals behind row @p row (display order).
    const GovernorTotals &totals(int row) const { return m_totals[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    QVariant rawValue(int row, int column) const;
    /// True for a trace's recorded run (no run time: no throughput; its idle energy is priced).
    bool isRecorded(int row) const;
    QString displayText(int row, int column) const;
    /// compare --closed-loop's cell of runs[row] in its column @p name, or "" (no closed loop).
    /// Why cell (@p row, @p column) has no value (NoValueReasonRole), or none when it has one.
    QVariant noValueReason(int row, int column) const;
    QString closedLoopText(int row, const char *name) const;
    QString toolTip(int row, int column) const;
    bool isBest(int row, int column) const;

    SnapshotPtr m_snapshot;
    std::vector<GovernorTotals> m_totals;
    std::vector<RunThroughput> m_throughput;
    std::vector<double> m_energyPerOpUJ; ///< a closed loop's energy_per_op_uJ per row (NaN: none)
    int m_stateCount = 0;
};

} // namespace idlescope
