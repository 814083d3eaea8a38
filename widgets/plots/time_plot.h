// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file time_plot.h
 * A plot whose x axis is run time (ns since the start of the run, as double
 * keys, converted here at the plotting boundary). It follows the shared
 * ViewState: the visible range (wheel zooms around the mouse, drag pans,
 * Shift+drag zooms to a rubber band, double-click zooms out), the playback
 * cursor (data after it is hidden while playing) and the selected entry
 * (its dashed line is placed again on every rebuild, so it follows the
 * entry into a new snapshot).
 *
 * Subclasses decimate the visible window once per (snapshot, range, width)
 * into cached points and then only clip those at the cursor on each frame,
 * so playback never rescans the run.
 */
#pragma once

#include "core/stats/decimate.h"
#include "widgets/plots/plot_base.h"

#include <cstddef>
#include <functional>
#include <limits>
#include <vector>

namespace idlescope {

class TimePlot : public PlotBase {
    Q_OBJECT
public:
    TimePlot(const QString &title, ViewState *view, QWidget *parent = nullptr);

    /// Left margin shared by every time plot so their x axes line up (px).
    static constexpr int LEFT_MARGIN = 104;

    /// Where the dashed selection line is drawn (ns since run start), -1 when hidden (tests).
    qint64 selectionLineNs() const;
    /// The selection line's colour: the selected governor's (tests).
    QColor selectionLineColor() const;
    /// The x axis title for @p snap: which clock the lanes are on (trace or stream time).
    static QString timeAxisTitle(const SimulationSnapshot &snap);
    /// The x axis title shown (tests).
    QString timeAxisLabel() const;
    /// What a closed loop's time plot says instead of a timeline (one line; wrapWords() fits it).
    static QString noTimelineText();

signals:
    /// The user clicked an entry (also forwarded to ViewState::selectEntry()).
    void entryClicked(int governorIndex, qint64 entryIndex);

protected:
    void rebuild() final;
    /// Called by rebuild() before the columns are counted: a subclass whose axes change
    /// with the snapshot (labels that widen a margin) sets them up here and lays the plot
    /// out again (layOut()), so that the window is decimated for the width it is drawn at.
    virtual void prepareAxes() {}
    /// Lays the plot out now (what a replot does first), without drawing.
    void layOut();
    /// Decimate the visible window into the subclass's cache.
    virtual void decimate(const TimeWindow &window) = 0;
    /// Hand the cached points with t <= clipNs to the plottables.
    virtual void fill(Ns clipNs) = 0;
    /// The entry under a pixel position, or {-1, -1}.
    virtual std::pair<int, qint64> entryAt(const QPointF &pos) const;

    /// Calls @p decimateOne(k) for k in [0, n), on the global thread pool
    /// when n > 1: after a change that re-runs every governor each run's
    /// series are decimated afresh, milliseconds each at a million entries,
    /// while the pool is idle. The calling thread takes items too, so a busy
    /// pool (a simulation running) makes it serial, never makes it wait.
    /// @p decimateOne must only compute points (no QCustomPlot), each k into
    /// its own cache.
    static void decimateEach(std::size_t n, const std::function<void(std::size_t)> &decimateOne);
    /// Copies decimated points with t <= clipNs into a graph (keys as double ns).
    static void setGraphData(QCPGraph *graph, const std::vector<DecimatedPoint> &pts, Ns clipNs,
                             double valueScale = 1.0);
    /// The time (ns since run start) of a pixel x.
    Ns timeAt(double pixelX) const;
    /// Nearest entry of run @p g to time @p t, or -1 (binary search over startNs).
    qint64 nearestEntry(int g, Ns t) const;
    /// What a subclass's plottables and items are set up from, apart from the
    /// data: the variants, their colours and the state table. Equal between
    /// two snapshots (a slider release), the plottables can stay and only
    /// their data is refilled: recreating graphs, lines and labels costs a
    /// replot fresh text layout and allocation for nothing.
    QString seriesSetupKey() const;
    /// Whether m_snap's plottables must be set up afresh: its seriesSetupKey() differs from
    /// the one of the snapshot asked about before. Asked again for the same snapshot (the
    /// same generation), false.
    bool seriesSetupChanged();
    /// Pixel distance that counts as "on" a point for clicks and hover.
    static constexpr double PICK_PX = 6.0;

private:
    void onRangeChanged(qint64 startNs, qint64 endNs);
    void onCursorChanged(qint64 ns);
    void onEntrySelected(int g, qint64 entry);
    /// Put the dashed selection line at the view state's selected entry in m_snap (hidden when none).
    void updateSelectionLine();
    void mousePress(QMouseEvent *e);
    void mouseMoveDrag(QMouseEvent *e);
    void mouseRelease(QMouseEvent *e);
    void wheel(QWheelEvent *e);

    QCPItemStraightLine *m_cursorLine = nullptr;
    QCPItemStraightLine *m_selectionLine = nullptr;
    /// Said in the plot area when a run has no timeline to draw (a closed loop).
    QCPItemText *m_noTimeline = nullptr;
    // Decimation cache key.
    std::uint64_t m_cachedGeneration = 0;
    Ns m_cachedStart = -1;
    Ns m_cachedEnd = -1;
    int m_cachedColumns = -1;
    // seriesSetupChanged()'s last snapshot: its generation and seriesSetupKey().
    std::uint64_t m_setupGeneration = 0;
    QString m_setupKey;
    // Drag state.
    bool m_dragging = false;
    bool m_moved = false;
    QPointF m_pressPos;
    qint64 m_pressStart = 0;
    qint64 m_pressEnd = 0;
};

} // namespace idlescope
