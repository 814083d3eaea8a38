// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file time_share_plot.h
 * Share of idle time spent in each state (cpuidle_state_usage.time / total),
 * bars grouped by governor.
 */
#pragma once

#include "widgets/plots/counts_plot.h"

namespace idlescope {

class TimeSharePlot : public CountsPlot {
    Q_OBJECT
public:
    explicit TimeSharePlot(ViewState *view, QWidget *parent = nullptr);

protected:
    void setUp() override;
    void refill() override;
    QString tooltipAt(const QPointF &pos) const override;

private:
    QCPBarsGroup *m_group;
    QList<QCPBars *> m_bars;
};

} // namespace idlescope
