// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file duration_histogram_plot.h
 * How long the CPU stays idle: the stream's span idle durations (span start
 * to wakeup) in log-spaced bins, with each state's target residency as a
 * vertical line — the distribution every governor is trying to predict.
 */
#pragma once

#include "widgets/plots/counts_plot.h"

namespace idlescope {

class DurationHistogramPlot : public CountsPlot {
    Q_OBJECT
public:
    explicit DurationHistogramPlot(ViewState *view, QWidget *parent = nullptr);

protected:
    void setUp() override;
    void refill() override;
    QString tooltipAt(const QPointF &pos) const override;
    void applyPalette() override;

public:
    /// Text row (0 = top) of each target-residency label, in order of target residency (tests).
    QList<int> labelRows() const;
    /// The x axis title; @p clamped: the end bins hold spans beyond the bins' range, and it says so.
    static QString axisTitle(bool clamped);

private:
    /// Moves each state label down a row while it would overlap the one before on its row.
    void staggerLabels(double xlo, double xhi);

    QCPGraph *m_graph;
    QList<QCPAbstractItem *> m_items;
    QList<QPair<double, QCPItemText *>> m_labels; ///< target residency (ns) and its label
    QList<int> m_labelRows;
    DurationHistogram::Counts m_counts{};
};

} // namespace idlescope
