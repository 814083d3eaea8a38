// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file miss_histogram_plot.h
 * The kernel's per-state "above" and "below" counters side by side, bars
 * grouped by governor: above = the state was too deep (the CPU woke before
 * its target residency), below = a deeper state would have fit. Both panels
 * share one scale so their heights compare.
 */
#pragma once

#include "widgets/plots/counts_plot.h"

namespace idlescope {

class MissHistogramPlot : public CountsPlot {
    Q_OBJECT
public:
    explicit MissHistogramPlot(ViewState *view, QWidget *parent = nullptr);

    /// Bar heights as shown: [governor][state] of above (or below) entries.
    QVector<QVector<double>> values(bool above) const;

protected:
    void setUp() override;
    void refill() override;
    QString tooltipAt(const QPointF &pos) const override;

private:
    QCPAxisRect *m_rects[2] = {nullptr, nullptr};
    QCPBarsGroup *m_groups[2] = {nullptr, nullptr};
    QList<QCPBars *> m_bars[2];
};

} // namespace idlescope
