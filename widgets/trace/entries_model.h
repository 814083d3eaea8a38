// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file entries_model.h
 * One row per entry of one run of a snapshot (a simulated governor or the
 * kernel's recorded choices): time on the workload's clock, CPU, state,
 * residency, prediction, miss kind and what ended it; filtered by miss kind,
 * state, residency range and cause, sortable by any column.
 *
 * The rows are a vector of entry indices into the run's columns (4 bytes a
 * row); every cell is formatted when the view asks for it, never stored, so
 * that ten million entries cost 40 MB and a filter one pass over the flags.
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <vector>

namespace idlescope
{

/// What ended an entry, read from its flags (GovernorRun::flags).
enum class EntryEnd : std::uint8_t { Timer, Wakeup, Tick, PollLimit, Other };
inline constexpr int ENTRY_END_COUNT = 5;
const char *entryEndName(EntryEnd e);
EntryEnd entryEnd(std::uint8_t flags);

struct EntryFilter {
    std::uint8_t missMask = 0; ///< ENTRY_ABOVE and/or ENTRY_BELOW: only those misses; 0 = every entry
    int state = -1; ///< only this state, -1 any
    Ns minResidencyNs = -1; ///< residency >= this, -1 no bound
    Ns maxResidencyNs = -1; ///< residency <= this, -1 no bound
    int end = -1; ///< only this EntryEnd, -1 any
};

class EntriesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Cpu, State, Residency, Prediction, Miss, End, ColumnCount };

    explicit EntriesModel(QObject *parent = nullptr);

    /// A new snapshot; keeps the run (by variant) and the filter when it still exists.
    void setSnapshot(SnapshotPtr snapshot);
    /// Show run @p g of the snapshot (-1 none).
    void setRun(int g);
    int run() const { return m_run; }
    void setFilter(const EntryFilter &filter);
    const EntryFilter &filter() const { return m_filter; }

    /// The entry index shown on @p row, or -1.
    std::int64_t entryAt(int row) const;
    /// The row showing entry @p entry, or -1 (filtered out).
    int rowOf(std::int64_t entry) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void refilter();
    const GovernorRun *currentRun() const;

    SnapshotPtr m_snap;
    int m_run = -1;
    EntryFilter m_filter;
    std::vector<std::uint32_t> m_rows; ///< entry indices, in the shown order
    int m_sortColumn = Time;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace idlescope
