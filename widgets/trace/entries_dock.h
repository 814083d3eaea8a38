// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file entries_dock.h
 * The entries list (content of a QDockWidget): every entry of one run
 * (entries_model.h) with filters for miss kind, state, residency range and
 * what ended the entry; clicking a row selects that entry in every view
 * (ViewState::selectEntry), and a selection made elsewhere scrolls to its
 * row (switching the list to that run). A sort or filter of a long run is
 * made on a worker (entries_model.h): meanwhile the old order stays on screen
 * under a busy cursor, with a progress bar and a Cancel button.
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"
#include "widgets/trace/entries_model.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;
class QTableView;

namespace idlescope {

class ViewState;

class EntriesDock : public QWidget {
    Q_OBJECT
public:
    explicit EntriesDock(ViewState *view, QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    EntriesModel *model() const { return m_model; }
    QTableView *tableView() const { return m_table; }
    QComboBox *runBox() const { return m_runBox; }
    QComboBox *missBox() const { return m_missBox; }
    /// "123 of 4567 entries" (tests).
    QString countText() const;
    /// Shown while the model makes new rows on a worker (tests).
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }

private:
    /// The filters above the table (their boxes, the sort's progress), the table, the layout.
    void setupUi();
    void createFilters();
    void createTable();
    void createConnections();
    void applyFilter();
    void updateCount();
    /// A selection made elsewhere: the list switches to run @p g and shows @p entry's row.
    void followSelection(int g, qint64 entry);
    /// The selected entry's row made current when the run shown is its run (never a switch).
    void showSelectedRow();
    void fillCombos();
    void showBusy(bool busy);
    /// The filter boxes set to @p filter (after a cancel), without filtering again.
    void showFilter(const EntryFilter &filter);

    ViewState *m_view;
    SnapshotPtr m_snap;
    EntriesModel *m_model;
    QTableView *m_table;
    QComboBox *m_runBox;
    QComboBox *m_missBox;
    QComboBox *m_stateBox;
    QComboBox *m_endBox;
    QSpinBox *m_minUs;
    QSpinBox *m_maxUs;
    QLabel *m_count;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QTimer *m_progressTimer;
    bool m_filling = false;
};

} // namespace idlescope
