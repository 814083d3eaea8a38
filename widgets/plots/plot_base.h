// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file plot_base.h
 * Common frame of every idlescope plot: one QCustomPlot with a title, the
 * house theme, the current snapshot and the shared ViewState. Data updates
 * only mark the plot dirty; a single-shot timer rebuilds the series once and
 * queues one replot (rpQueuedReplot), so a burst of range, cursor,
 * snapshot and size changes costs one redraw.
 */
#pragma once

#include "widgets/plots/qcp.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QTimer>
#include <QWidget>

namespace idlescope {

class ViewState;

class PlotBase : public QWidget {
    Q_OBJECT
public:
    PlotBase(const QString &title, ViewState *view, QWidget *parent = nullptr);

    /// The QCustomPlot (for export: savePng/savePdf/toPixmap, and for tests).
    QCustomPlot *customPlot() const { return m_plot; }
    /// The hover text at widget position @p pos: empty in the axis margins (where the
    /// time axis would give times outside the data, e.g. negative), else tooltipAt().
    QString hoverText(const QPointF &pos) const;
    QString title() const { return m_title; }
    /// Change the title shown above the plot.
    void setTitle(const QString &title);

    /// Rebuild from a new snapshot (null clears the plot).
    void setSnapshot(SnapshotPtr snapshot);
    SnapshotPtr snapshot() const { return m_snap; }

    /// Data points currently handed to QCustomPlot, over all plottables.
    int pointCount() const;

    /// Rebuild the series now if dirty and replot synchronously (measurements, export, tests).
    void refreshNow();

protected:
    /// Refill every plottable from m_snap and the view state; called at most once per redraw.
    virtual void rebuild() = 0;
    /// Tooltip text for a mouse position in widget pixels; empty for none.
    virtual QString tooltipAt(const QPointF &pos) const;

    /// Mark the series stale and schedule one rebuild + replot.
    void markDirty();
    /// Marks the plot dirty when the QCustomPlot is resized (its width is the decimation's columns).
    bool eventFilter(QObject *watched, QEvent *event) override;
    /// Schedule a replot without rebuilding (items moved).
    void scheduleReplot();

    /// Style helpers shared by the subclasses.
    void styleAxis(QCPAxis *axis, const QString &label);
    void styleAxisRect(QCPAxisRect *rect);
    /// @p c at strength @p alpha over white, as an opaque colour (cheap to fill).
    static QColor tint(const QColor &c, double alpha);

    /// Axis rect width in pixels (the number of decimation columns).
    int columns() const;

    ViewState *m_view;
    SnapshotPtr m_snap;
    QCustomPlot *m_plot;

private:
    void flush();

    QString m_title;
    QCPTextElement *m_titleElement = nullptr;
    QTimer m_timer;
    bool m_dirty = true;
};

} // namespace idlescope
