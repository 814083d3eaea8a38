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
 *
 * The rows of a run of more than backgroundRows() entries sorted by a column
 * other than time or CPU (a new sort, or a new filter or run under it) are made
 * on a worker (entries_order.h): the rows shown stay as they were, isBusy() is true
 * and busyChanged() says so, until the new permutation arrives and replaces
 * them at once (rowsReplaced()). A newer request cancels the running one;
 * cancelPending() drops it and keeps what is shown. run(), filter(),
 * sortColumn() are what was asked for; the rows, entryAt() and rowOf() are what
 * is shown, of shownRun().
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"
#include "widgets/trace/entries_order.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <memory>
#include <vector>

namespace idlescope {

class EntriesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Cpu, State, Residency, Prediction, Miss, End, ColumnCount };

    explicit EntriesModel(QObject *parent = nullptr);
    /// Stops a running worker (it holds its own inputs, so it is not waited for).
    ~EntriesModel() override;

    /// A new snapshot; keeps the run (by variant) and the filter when it still exists.
    void setSnapshot(SnapshotPtr snapshot);
    /// Show run @p g of the snapshot (-1 none).
    void setRun(int g);
    int run() const { return m_want.run; }
    void setFilter(const EntryFilter &filter);
    const EntryFilter &filter() const { return m_want.filter; }

    int sortColumn() const { return m_want.column; }
    Qt::SortOrder sortOrder() const { return m_want.order; }
    /// The run (of the snapshot given last) whose rows are on screen, -1 none; differs
    /// from run() while busy, and shows a previous snapshot until its rows arrive.
    int shownRun() const { return m_shown.snap == m_want.snap ? m_shown.run : -1; }

    /// True while a new permutation is being made on a worker.
    bool isBusy() const { return m_job != nullptr; }
    /// How far it has come, 0..1 (0 when idle).
    double progress() const;
    /// Drop the running request: the rows shown stay, and so do their run, filter and order.
    void cancelPending();
    /// Runs with more entries than this get their rows on a worker (default 100000; tests lower it).
    void setBackgroundRows(std::size_t entries) { m_backgroundRows = entries; }
    std::size_t backgroundRows() const { return m_backgroundRows; }

    /// The entry index shown on @p row, or -1.
    std::int64_t entryAt(int row) const;
    /// The row showing entry @p entry, or -1 (filtered out).
    int rowOf(std::int64_t entry) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

signals:
    /// A worker started (true) or the last request ended, done or cancelled (false).
    void busyChanged(bool busy);
    /// New rows are shown (after a model reset): a filter, order or run took effect.
    void rowsReplaced();

private:
    /// The rows' inputs: which run, the filter, the order.
    struct Request {
        SnapshotPtr snap;
        int run = -1;
        EntryFilter filter;
        int column = Time;
        Qt::SortOrder order = Qt::AscendingOrder;
    };
    struct Job;

    /// Make the rows of m_want: at once when small (or entry order), else on a worker.
    void refilter();
    void install(const Request &request, std::vector<std::uint32_t> rows);
    void jobDone(Job *job);
    const GovernorRun *shownRunData() const;

    Request m_want;                    ///< what was asked for last
    Request m_shown;                   ///< what m_rows are (its snapshot kept alive while shown)
    std::vector<std::uint32_t> m_rows; ///< entry indices, in the shown order
    std::size_t m_backgroundRows = 100000;
    std::shared_ptr<Job> m_job; ///< the running request, null when idle
};

} // namespace idlescope
