// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/miss_ratio_plot.h"

#include "widgets/plots/time_ticker.h"
#include "widgets/view_state.h"

#include <algorithm>

namespace idlescope {

MissRatioPlot::MissRatioPlot(ViewState *view, QWidget *parent)
    : TimePlot(tr("Cumulative idle-miss ratio  (above + below) / entries"), view, parent)
{
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(50);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setNumberFormat(QStringLiteral("f"));
    m_plot->yAxis->setNumberPrecision(0);
    m_plot->yAxis->grid()->setSubGridVisible(true);
    styleAxis(m_plot->yAxis, tr("miss ratio (%)"));
    // A margin both ways: a governor at 0 % drew on the x axis and one at 98.7 % on the frame's
    // top edge, both invisible. The 0 and 100 % grid lines now lie inside the frame.
    m_plot->yAxis->setRange(MISS_RATIO_AXIS_LOW, MISS_RATIO_AXIS_HIGH);
    // A usable height: ~65 px of axis for 0..100 % (the splitter's share left it ~40 px).
    m_plot->setMinimumHeight(MIN_HEIGHT_PX);
}

void MissRatioPlot::decimate(const TimeWindow &window)
{
    if (m_seriesGeneration != m_snap->generation) {
        if (seriesSetupChanged() || m_plot->graphCount() != m_snap->governorCount()) {
            m_plot->clearGraphs();
            for (int g = 0; g < m_snap->governorCount(); ++g) {
                QCPGraph *graph = m_plot->addGraph();
                graph->setPen(
                    QPen(m_snap->governors[static_cast<std::size_t>(g)].color, 1)); // width 1: fast cosmetic path
                graph->setAdaptiveSampling(false);
            }
        }
        // Runs shared with the previous snapshot keep their decimated points.
        std::vector<CachedSeries> old = std::move(m_points);
        m_points.clear();
        for (int g = 0; g < m_snap->governorCount(); ++g)
            m_points.push_back(adoptCached(old, m_snap->governors[static_cast<std::size_t>(g)].run));
        m_seriesGeneration = m_snap->generation;
    }
    std::vector<std::size_t> stale;
    for (std::size_t g = 0; g < m_points.size(); ++g) {
        const GovernorResult::RunPtr &shared = m_snap->governors[g].run;
        if (!m_points[g].isFor(shared, window)) {
            m_points[g].setSource(shared, window);
            stale.push_back(g);
        }
    }
    decimateEach(stale.size(), [&](std::size_t k) {
        const std::size_t g = stale[k];
        CachedSeries &cache = m_points[g];
        const GovernorRun &run = *cache.run;
        const RunCounts &counts = m_snap->governors[g].counts;
        const auto [first, last] = visibleIndexRange(run.startNs, window.startNs, window.endNs, true);
        decimateMinMax(
            run.startNs, first, last, window, [&](std::size_t i) { return missRatioPercent(counts, i); }, cache.points,
            &m_snap->governors[g].lod.missRatio);
    });
}

void MissRatioPlot::fill(Ns clipNs)
{
    for (std::size_t g = 0; g < m_points.size(); ++g)
        setGraphData(m_plot->graph(static_cast<int>(g)), m_points[g].points, clipNs);
}

std::pair<int, qint64> MissRatioPlot::entryAt(const QPointF &pos) const
{
    if (!m_snap)
        return {-1, -1};
    double best = PICK_PX * 2;
    std::pair<int, qint64> hit{-1, -1};
    for (int g = 0; g < m_snap->governorCount(); ++g) {
        const qint64 i = nearestEntry(g, timeAt(pos.x()));
        if (i < 0)
            continue;
        const double ratio =
            missRatioPercent(m_snap->governors[static_cast<std::size_t>(g)].counts, static_cast<std::size_t>(i));
        const double dy = std::fabs(m_plot->yAxis->coordToPixel(ratio) - pos.y());
        if (dy < best) {
            best = dy;
            hit = {g, i};
        }
    }
    return hit;
}

QString MissRatioPlot::tooltipAt(const QPointF &pos) const
{
    if (!m_snap)
        return {};
    const Ns t = std::max<Ns>(0, timeAt(pos.x())); // the run starts at 0
    QString text = tr("at %1").arg(formatNs(static_cast<double>(t)));
    for (int g = 0; g < m_snap->governorCount(); ++g) {
        const GovernorRun &run = *m_snap->governors[static_cast<std::size_t>(g)].run;
        const std::int64_t i = lastIndexAtOrBefore(run.startNs, t);
        if (i < 0)
            continue;
        const auto misses =
            m_snap->governors[static_cast<std::size_t>(g)].counts.missesThrough(static_cast<std::size_t>(i));
        text += tr("<br><span style='color:%1'>\u25a0</span> %2: %3 % (%4 of %5)")
                    .arg(m_snap->governors[static_cast<std::size_t>(g)].color.name(), m_snap->name(g))
                    .arg(100.0 * misses / static_cast<double>(i + 1), 0, 'f', 1)
                    .arg(misses)
                    .arg(i + 1);
    }
    return text;
}

} // namespace idlescope
