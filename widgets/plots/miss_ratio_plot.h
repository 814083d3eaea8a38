// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file miss_ratio_plot.h
 * Cumulative idle-miss ratio over time, one line per governor:
 * (above + below) / entries over all entries up to each point, in percent —
 * the "idle miss ratio" column of the kernel threads, as it builds up.
 */
#pragma once

#include "widgets/plots/series_cache.h"
#include "widgets/plots/time_plot.h"

namespace idlescope {

class MissRatioPlot : public TimePlot {
    Q_OBJECT
public:
    explicit MissRatioPlot(ViewState *view, QWidget *parent = nullptr);
    /// The plot's minimum height: title and time axis around ~65 px of 0..100 % (the prediction plot above needs its share too).
    static constexpr int MIN_HEIGHT_PX = 140;
    /// The value axis' range in %: 0 and 100 % lie inside it, so that a line at either shows.
    static constexpr double MISS_RATIO_AXIS_LOW = -6;
    static constexpr double MISS_RATIO_AXIS_HIGH = 106;

protected:
    void decimate(const TimeWindow &window) override;
    void fill(Ns clipNs) override;
    QString tooltipAt(const QPointF &pos) const override;
    std::pair<int, qint64> entryAt(const QPointF &pos) const override;

private:
    std::vector<CachedSeries> m_points; ///< [g]: run g's ratio, decimated
    std::uint64_t m_seriesGeneration = 0;
};

} // namespace idlescope
