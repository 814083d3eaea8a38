// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file counts_plot.h
 * Base of the statistics plots (histograms, time share): they show totals of
 * the entries up to the playback cursor (the whole run when there is no
 * cursor), read from the snapshot's per-chunk prefix counts in O(4096) per
 * governor, so they grow live while the stream plays.
 */
#pragma once

#include "core/stats/run_counts.h"
#include "widgets/plots/plot_base.h"

namespace idlescope {

class CountsPlot : public PlotBase {
    Q_OBJECT
public:
    CountsPlot(const QString &title, ViewState *view, QWidget *parent = nullptr);

    /// The plot's "Logarithmic count axis" action (its context menu), or null for
    /// plots of shares. Log lets 4 misses stand beside 197 k.
    QAction *logScaleAction() const { return m_logScale; }
    bool isLogScale() const;
    void setLogScale(bool on);
    /// What the plot says instead of bars when it has no entries to count (a closed loop); ""
    /// while it draws them. For tests.
    QString emptyText() const;
    /// What a closed loop's statistics plot says (one line; wrapWords() fits it to the plot).
    static QString closedLoopText();

protected:
    /// Nothing without a snapshot; setUp() once per snapshot (its generation), then refill().
    void rebuild() final;
    /// The plottables and items of m_snap's governors and table; once per snapshot.
    virtual void setUp() = 0;
    /// The totals up to the cursor into what setUp() made; on every rebuild.
    virtual void refill() = 0;

    /// Entries of governor @p g that started at or before the cursor.
    std::size_t entriesUpToCursor(int g) const;
    /// Totals of governor @p g up to the cursor.
    PrefixCounts countsUpToCursor(int g) const;
    /// Stream spans that started at or before the cursor.
    std::size_t spansUpToCursor() const;

    /// Ticker with the state names at 1..n.
    QSharedPointer<QCPAxisTickerText> stateTicker() const;
    /// Turns @p axis's state names by 45 degrees when they do not fit side by
    /// side (nine Intel states in a narrow dock), by 90 when even that would
    /// overlap, and names only every k-th state when upright names would
    /// still touch; level otherwise. The axis
    /// spans @p widthShare of the plot's width. Call on every rebuild: the
    /// width changes with the window (and the layout is only redone by the
    /// replot that follows, so the plot's width is read, not the axis's).
    void fitStateLabels(QCPAxis *axis, double widthShare) const;
    /// Offer the log-scale action (in the plot's context menu); plots of counts call it.
    void offerLogScale();
    /// A count axis from 0 to @p top: linear with whole-number ticks, or on the log
    /// scale 0.5 .. 2 top with decade ticks (a bar of 1 stands half a decade tall).
    void setCountRange(QCPAxis *axis, double top) const;
    /// Creates one QCPBars per governor on @p rect, grouped; returns them in governor order.
    QList<QCPBars *> makeGroupedBars(QCPAxisRect *rect, QCPBarsGroup *group);

private:
    QAction *m_logScale = nullptr;
    QCPItemText *m_noEntries = nullptr;  ///< why there are no bars, over the middle of the plot
    std::uint64_t m_setUpGeneration = 0; ///< the snapshot setUp() last ran for
};

} // namespace idlescope
