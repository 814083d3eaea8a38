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

#include "widgets/plots/plot_palette.h"
#include "widgets/plots/qcp.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QTimer>
#include <QWidget>

#include <vector>

namespace idlescope {

class ViewState;

class PlotBase;

/// @p text broken into lines at its spaces so that no line is wider than @p widthPx in
/// @p font (a word wider than that keeps a line of its own). A centred note on a plot is
/// one line otherwise, and a narrow plot cut it at both ends.
QString wrapWords(const QString &text, const QFont &font, int widthPx);

/// The fixed light style on @p plot while it lives, when @p plot is a PlotBase's (exports).
class ExportStyleScope {
public:
    explicit ExportStyleScope(QCustomPlot &plot);
    ~ExportStyleScope();
    ExportStyleScope(const ExportStyleScope &) = delete;
    ExportStyleScope &operator=(const ExportStyleScope &) = delete;

private:
    PlotBase *m_base;
};

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

    /// The colours the frame is drawn with now: the desktop's (plot_palette.h), or the fixed
    /// light style while an export draws the plot.
    const PlotPalette &plotPalette() const { return m_palette; }
    /// The fixed light style on (an export is drawn) or off (the desktop's palette again,
    /// replotted). The figure exports switch it around their drawing.
    void setExportStyle(bool on);
    /// The plot of @p plot when it is a PlotBase's, else null.
    static PlotBase *of(QCustomPlot &plot);

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
    /// @p c at strength @p alpha over the background, as an opaque colour (cheap to fill).
    QColor tint(const QColor &c, double alpha) const { return m_palette.tint(c, alpha); }
    /// The desktop's palette changed: the frame follows it.
    void changeEvent(QEvent *event) override;
    /// Colours of the subclass's own that m_palette sets (called after the frame's); the
    /// frame and every text and line drawn in one of the palette's colours follow already.
    virtual void applyPalette() {}

    /// A state's target residency as a line on the plot: the state, where the line lies (ns)
    /// and the line.
    struct ResidencyLine {
        const IdleState *state;
        double ns;
        QCPItemStraightLine *line;
    };
    /// A dashed grey line across the axis rect at the target residency of every state of
    /// m_snap's table that has one (a polling state's 0 has none): vertical lines at x = the
    /// residency for Qt::Vertical, horizontal ones at y for Qt::Horizontal. The caller labels
    /// them and removes them with its other items.
    std::vector<ResidencyLine> addResidencyLines(Qt::Orientation orientation);

    /// Axis rect width in pixels (the number of decimation columns).
    int columns() const;

    ViewState *m_view;
    SnapshotPtr m_snap;
    QCustomPlot *m_plot;

private:
    void flush();
    /// Every colour of the frame from m_palette (it was @p from): backgrounds, axes, grids,
    /// and each text element, text item and line that had one of @p from's colours; then
    /// applyPalette().
    void recolour(const PlotPalette &from);

    QString m_title;
    QCPTextElement *m_titleElement = nullptr;
    QTimer m_timer;
    bool m_dirty = true;
    PlotPalette m_palette = PlotPalette::light();
    bool m_exportStyle = false;
};

} // namespace idlescope
