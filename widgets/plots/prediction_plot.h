// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file prediction_plot.h
 * Predicted idle duration vs measured residency per entry, on a log axis:
 * per governor, the prediction as filled dots and the measured residency as
 * faint rings in the governor's colour, with every state's target residency
 * as a labelled horizontal line. Whatever sits above a line could have used
 * that state; a prediction above the line with a measurement below it is an
 * "above" miss. menu's dot is its own prediction (before the polling
 * override re-assigns predicted_ns), so a dot below the chosen state's line
 * shows an override, not a misprediction. teo (v5.14+) predicts no idle
 * duration (its duration_ns is the sleep length), so it gets rings only and
 * the title says so; the oracle's "prediction" is the measurement.
 */
#pragma once

#include "widgets/plots/series_cache.h"
#include "widgets/plots/time_plot.h"

#include <string>

namespace idlescope {

/// How a variant's Selection::predictedNs column is drawn.
enum class PredictionDraw {
    Dots,         ///< a prediction: filled dots (menu, teo-5.13; -1 entries skipped)
    NoPrediction, ///< teo v5.14+: duration_ns is not a prediction, not drawn
    Known,        ///< the oracle: the measurement itself, not drawn
};
PredictionDraw predictionDrawFor(const std::string &variant);
/// The plot's title; @p anyTeo adds why teo has rings only.
QString predictionPlotTitle(bool anyTeo);

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
        CachedSeries cache;
    };
    std::vector<Series> m_series;
    QList<QCPAbstractItem *> m_lineItems;
};

} // namespace idlescope
