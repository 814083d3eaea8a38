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
    void rebuild() override;
    QString tooltipAt(const QPointF &pos) const override;

private:
    QCPGraph *m_graph;
    QList<QCPAbstractItem *> m_items;
    std::uint64_t m_itemsGeneration = 0;
    DurationHistogram::Counts m_counts{};
};

} // namespace idlescope
