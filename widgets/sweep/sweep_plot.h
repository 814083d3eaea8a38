// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file sweep_plot.h
 * The sweep figure (the cpuidle_wakeup plots of the kernel threads): the
 * swept parameter on x (logarithmic when the steps were), and stacked, sharing
 * it, above %, below % and the idle miss ratio, one line with markers per
 * governor in its colour. A click on a marker emits pointClicked.
 */
#pragma once

#include "widgets/plots/plot_base.h"
#include "widgets/sweep/sweep_job.h"

namespace idlescope {

class SweepPlot : public PlotBase {
    Q_OBJECT
public:
    explicit SweepPlot(QWidget *parent = nullptr);

    /// Shows @p result (a failed or cancelled one clears the plot); @p logX: logarithmic x.
    void setResult(const SweepResult &result, bool logX);
    const SweepResult &result() const { return m_result; }
    /// The x of point @p point in axis units (µs for an _us parameter).
    double xOf(int point) const;
    /// The pixel position of governor @p governor's marker at @p point in metric @p metric's panel.
    QPointF markerPixel(int metric, int governor, int point) const;

signals:
    /// Point @p point of the sweep was clicked.
    void pointClicked(int point);

protected:
    void rebuild() override;
    QString tooltipAt(const QPointF &pos) const override;

private:
    SweepResult m_result;
    bool m_logX = false;
    QList<QCPAxisRect *> m_rects; ///< one per SWEEP_METRICS entry
};

/// The axis title of @p axis ("interval (µs)", "menu-6.14 INTERVALS").
QString sweepAxisTitle(const SweepRequest &request);
/// A held value of the swept parameter in its axis unit (µs, %, Hz; a tunable as it is).
double sweepAxisValue(const SweepRequest &request, qint64 held);

} // namespace idlescope
