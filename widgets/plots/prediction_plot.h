// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file prediction_plot.h
 * Predicted idle duration vs measured residency per entry, on a log axis:
 * per governor, the prediction as filled dots and the measured residency as
 * faint rings in the governor's colour, with every state's target residency
 * as a labelled horizontal line. Whatever sits above a line could have used
 * that state; a prediction above the line with a measurement below it is an
 * "above" miss.
 */
#pragma once

#include "widgets/plots/time_plot.h"

namespace idlescope {

class PredictionPlot : public TimePlot {
    Q_OBJECT
public:
    explicit PredictionPlot(ViewState *view, QWidget *parent = nullptr);

protected:
    void decimate(const TimeWindow &window) override;
    void fill(Ns clipNs) override;
    std::pair<int, qint64> entryAt(const QPointF &pos) const override;
    QString tooltipAt(const QPointF &pos) const override;

private:
    void setupSeries();

    struct Series {
        int governor;
        bool predicted; ///< else measured
        std::vector<DecimatedPoint> points;
    };
    std::vector<Series> m_series;
    std::uint64_t m_seriesGeneration = 0;
    QList<QCPAbstractItem *> m_lineItems;
};

} // namespace idlescope
