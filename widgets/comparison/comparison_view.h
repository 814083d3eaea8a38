// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file comparison_view.h
 * The comparison table beside the plots: a sortable view of
 * ComparisonTableModel with Copy (Markdown / CSV) and Export (a .csv or .md
 * file, written atomically) buttons. Clicking a row emits governorActivated.
 * The totals are the whole run's, as the kernel threads' tables are; a label
 * says so (the legend above the plots is the one that follows playback).
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QSortFilterProxyModel;
class QScrollArea;
class QTableView;

namespace idlescope {

class ComparisonTableModel;

/// @p label on two lines, broken at the '_' or space nearest its middle
/// ("idle_miss_ratio" -> "idle_miss_" / "ratio"); labels of 6 characters or
/// fewer, or without a break, unchanged. The on-screen column titles.
QString twoLineHeader(const QString &label);

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget *parent = nullptr);

    /// Shows the totals of @p snapshot (null clears).
    void setSnapshot(SnapshotPtr snapshot);

    ComparisonTableModel *model() const { return m_model; }
    QTableView *tableView() const { return m_view; }
    /// The label saying the totals are the whole run's (not the playback cursor's).
    QString scopeText() const;
    /// For a kernel trace: what it cannot tell (trace_disclosure.h), under the table; "" otherwise.
    QString traceNoteText() const;

    /// What the table was computed from (scenario_context.h); empty for a snapshot without a
    /// scenario (tests' hand-made ones).
    QStringList context() const;
    /// The table as Markdown / CSV, rows in the order shown (sorted as the view is), after
    /// the context: "- line" items and a blank line (Markdown), "# line" comments (CSV).
    QString markdown() const;
    QString csv() const;
    /// The rows as modelToJson(); with a context, {"context": [lines], "rows": [...]}.
    QString json() const;
    /// "No power data — how to add it": a link shown while the table has no power data; its
    /// tooltip says how (powerDataHowTo()), a click (or a click on an empty energy cell) emits
    /// powerDataRequested().
    QLabel *powerLink() const { return m_powerLink; }
    /// Where power data is set and in what form.
    static QString powerDataHowTo();
    /// Tall enough for the toolbar, the header and every row (a dock's initial size).
    QSize sizeHint() const override;

    /// Writes the table to @p path: Markdown for ".md"/".markdown", JSON (modelToJson) for
    /// ".json", CSV for ".csv". Returns an empty string on success, else the error message
    /// (an unknown suffix is one: nothing is written).
    QString exportTo(const QString &path) const;

public slots:
    void copyMarkdown();
    void copyCsv();
    /// Asks for a file name, then exportTo().
    void exportWithDialog();

signals:
    /// The user clicked the row of snapshot run @p governorIndex.
    void governorActivated(int governorIndex);
    /// "Copy as command" of the context menu (the window builds the command: it may ask first).
    void copyCommandRequested();
    /// The user asked where power data is set ("no power data" clicked): the window opens it.
    void powerDataRequested();

private:
    /// The table, the toolbar above it (the copies, the scope of its numbers, the power data
    /// link) and the trace's note below it; then what their clicks and menu do.
    void setupUi();
    void createTable();
    QHBoxLayout *createToolBar();
    QWidget *createTraceNote();
    void createConnections();

    ComparisonTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_scope = nullptr;
    QLabel *m_traceNote = nullptr;
    QScrollArea *m_noteScroll = nullptr; ///< holds m_traceNote, at most three lines tall
    QLabel *m_powerLink = nullptr;
};

} // namespace idlescope
