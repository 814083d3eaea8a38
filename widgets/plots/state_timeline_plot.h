// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file state_timeline_plot.h
 * Selected idle state over time: one lane per governor (KernelShark-style
 * rows), shallow at the bottom of a lane and deep at its top. Each pixel
 * column is summarised in core (summariseStates): a step line in the
 * governor's colour follows the state that holds most of the column's time,
 * and a light band spans the shallowest to the deepest state entered in the
 * column, so occasional flips stay visible without hiding the main choice.
 * Governor names label the lanes on the left, state names on the right.
 * On a stream with in-idle wakeups, a small mark under a lane's floor shows
 * each pixel column with an entry that an interrupt waking no task ended
 * (the CPU stayed in the idle loop and selected again).
 */
#pragma once

#include "widgets/plots/series_cache.h"
#include "widgets/plots/text_ticks.h"
#include "widgets/plots/time_plot.h"

namespace idlescope {

class StateTimelinePlot : public TimePlot {
    Q_OBJECT
public:
    explicit StateTimelinePlot(ViewState *view, QWidget *parent = nullptr);

    /// Every how many lanes a governor label is drawn (1: all; more when lanes are thin).
    int laneLabelStep() const { return m_labelStep; }
    /// Point size of the lane labels (shrinks for thin lanes, down to MIN_LABEL_POINT_SIZE).
    double laneLabelPointSize() const;
    static constexpr double MIN_LABEL_POINT_SIZE = 6.5;
    /// The governor names on the left axis, top lane last (tests).
    QStringList laneLabels() const { return textTickLabels(m_plot->yAxis); }
    /// The state names on the right axis, in tick order (tests).
    QStringList stateLabels() const { return textTickLabels(m_plot->yAxis2); }
    /// Every how many states a lane's state names are drawn (more than the deepest: only that one).
    int stateLabelStride() const { return m_stateStride; }

protected:
    void prepareAxes() override;
    void decimate(const TimeWindow &window) override;
    void fill(Ns clipNs) override;
    std::pair<int, qint64> entryAt(const QPointF &pos) const override;
    QString tooltipAt(const QPointF &pos) const override;
    void applyPalette() override;

private:
    void setupLanes();
    /// y of state @p s in lane @p g.
    double laneY(int g, double s) const;
    int laneAt(double y) const;
    /// Shrink the lane labels, then skip some, so that they never overlap (after each layout).
    void fitLaneLabels();
    void applyLaneLabels();
    /// Sets the minimum height at which the labels fit, around @p decorationPx of title and axes.
    void keepLanesReadable(double decorationPx);

    /// Whether the snapshot's stream has any in-idle wakeup (a row with need_resched 0).
    bool streamHasInIdleWakeups();

    struct Lane {
        QCPGraph *dominant = nullptr;
        QCPGraph *low = nullptr;
        QCPGraph *high = nullptr;
        QCPGraph *inIdle = nullptr; ///< marks: entries ended by an in-idle interrupt
        CachedSeries dominantPts, lowPts, highPts, inIdlePts;
    };
    std::vector<Lane> m_lanes;
    std::shared_ptr<const IdleStream> m_inIdleChecked; ///< the stream streamHasInIdleWakeups() looked at
    bool m_hasInIdle = false;
    QList<QCPAbstractItem *> m_laneItems;
    int m_states = 1;
    int m_labelStep = 1;
    int m_stateStride = 1;
    double m_labelPointSize = 0; ///< 0: the axis's own size
    QFont m_baseLabelFont;
};

} // namespace idlescope
