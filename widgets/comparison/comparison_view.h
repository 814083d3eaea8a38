// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file comparison_view.h
 * The comparison table beside the plots: a sortable view of
 * ComparisonTableModel with Copy (Markdown / CSV) and Export (a .csv, .md or
 * .json file through core's table writer, or a .pdf / .svg figure of the table;
 * written atomically) buttons. Clicking a row emits governorActivated.
 * The totals are the whole run's, as the kernel threads' tables are; a label
 * says so (the legend above the plots is the one that follows playback).
 */
#pragma once

#include "widgets/export/figure_export.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QSortFilterProxyModel;
class QScrollArea;
class QTableView;

namespace idlescope {

class ComparisonTableModel;
struct ComparisonSelection;

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
    /// The table as Markdown / CSV / JSON (comparison_export.h), after the context: "- line"
    /// items and a blank line (Markdown), "# line" comments (CSV), {"context", "rows"} (JSON).
    QString markdown() const;
    QString csv() const;
    QString json() const;
    /// A figure's title (the scenario and the time the totals count) and context lines.
    FigureCaption figureCaption() const;
    /// The table drawn as a PDF or SVG figure (table_figure.h), each label beside its colour.
    QByteArray figure(PlotFormat format) const;
    /// "No power data — how to add it": a link shown while the table has no power data; its
    /// tooltip says how (powerDataHowTo()), a click (or a click on an empty energy cell) emits
    /// powerDataRequested().
    QLabel *powerLink() const { return m_powerLink; }
    /// Where power data is set and in what form.
    static QString powerDataHowTo();
    /// Tall enough for the toolbar, the header and every row (a dock's initial size).
    QSize sizeHint() const override;

    /// Writes the table to @p path: Markdown for ".md"/".markdown", JSON for ".json", CSV for
    /// ".csv", a figure for ".pdf" and ".svg". Returns an empty string on success, else the error message
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
    /// The rows in the order shown (sorted as the view is) and the columns shown.
    ComparisonSelection shownSelection() const;

    ComparisonTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_scope = nullptr;
    QLabel *m_traceNote = nullptr;
    QScrollArea *m_noteScroll = nullptr; ///< holds m_traceNote, at most three lines tall
    QLabel *m_powerLink = nullptr;
};

} // namespace idlescope
