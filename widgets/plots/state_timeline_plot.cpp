// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/state_timeline_plot.h"

#include "widgets/plots/band_graph.h"
#include "widgets/plots/time_ticker.h"
#include "widgets/view_state.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace idlescope {

namespace {
/// Vertical space between lanes, in state units.
constexpr double LANE_GAP = 0.8;
/// Title, time axis and margins around the lanes, in pixels, before the first layout.
constexpr int DECORATION_PX = 84;
/// Pixels after the state names on the right, before the plot's edge.
constexpr int STATE_LABEL_PAD_PX = 8;
/// The tallest the lanes grow to name every state of every lane (beyond it, fewer names).
constexpr double EVERY_STATE_MAX_PX = 420;
} // namespace

StateTimelinePlot::StateTimelinePlot(ViewState *view, QWidget *parent)
    : TimePlot(tr("Selected idle state"), view, parent)
{
    styleAxis(m_plot->yAxis, QString());
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->grid()->setVisible(true);
    m_baseLabelFont = m_plot->yAxis->tickLabelFont();
    // State names on the right, governor names on the left.
    styleAxis(m_plot->yAxis2, QString());
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->grid()->setVisible(false);
    m_plot->yAxis2->setTickLength(0, 0);
    m_plot->yAxis2->setSubTickLength(0, 0);
    m_plot->yAxis2->setBasePen(Qt::NoPen);
    m_plot->yAxis2->setTickLabelColor(plotPalette().reference);
    // Room after the state names: a PDF's glyphs run a little wider than the screen's metrics
    // that size the margin, and the exported figure cut the last letters of "snooze".
    m_plot->yAxis2->setPadding(STATE_LABEL_PAD_PX);
    connect(m_plot, &QCustomPlot::afterLayout, this, &StateTimelinePlot::fitLaneLabels);
}

void StateTimelinePlot::applyPalette()
{
    // The state names are quieter than the governors' (the frame made them ink).
    m_plot->yAxis2->setTickLabelColor(plotPalette().reference);
    if (!m_snap)
        return;
    for (std::size_t g = 0; g < m_lanes.size() && g < m_snap->governors.size(); ++g)
        if (m_lanes[g].high)
            m_lanes[g].high->setBrush(QBrush(tint(m_snap->governors[g].color, 0.16)));
}

double StateTimelinePlot::laneLabelPointSize() const
{
    return m_plot->yAxis->tickLabelFont().pointSizeF();
}

void StateTimelinePlot::fitLaneLabels()
{
    if (!m_snap || m_lanes.empty())
        return;
    // Lane pitch in pixels: ten governors in the default window leave ~9 px each.
    const double pitch = std::max(1, m_states - 1) + LANE_GAP;
    const double axisPx = m_plot->yAxis->axisRect()->height();
    const double pxPerUnit = axisPx / std::max(1e-9, m_plot->yAxis->range().size());
    const double lanePx = pitch * pxPerUnit;
    // An export lays the plot out at its own size (toPixmap(), toPainter() set a viewport of
    // it): the window's least height is not the figure's business (it left the window's
    // plots 4 px off after an SVG export).
    if (m_plot->viewport() == m_plot->rect())
        keepLanesReadable(m_plot->height() - axisPx);
    const double base = m_baseLabelFont.pointSizeF() > 0 ? m_baseLabelFont.pointSizeF() : 9.0;
    const double baseHeight = QFontMetricsF(m_baseLabelFont).height();
    // Shrink the font to the lane, not below a readable size; then label every step-th lane
    // (a label may be a pixel taller than its lane: a font's height includes its leading).
    // Up to four lanes, sized so that state names a state apart fit too (keepLanesReadable()).
    // So are more lanes when a state has a smallest label's height (keepLanesReadable()).
    QFont smallest = m_baseLabelFont;
    smallest.setPointSizeF(MIN_LABEL_POINT_SIZE);
    const bool everyState = m_snap->governorCount() <= 4 || pxPerUnit + 0.5 >= QFontMetricsF(smallest).height();
    const double fitPx = everyState ? std::min(lanePx, pxPerUnit) : lanePx;
    const double size = std::clamp(base * fitPx / baseHeight, MIN_LABEL_POINT_SIZE, base);
    QFont f = m_baseLabelFont;
    f.setPointSizeF(size);
    const double labelPx = QFontMetricsF(f).height() - 1;
    const int step = std::max(1, static_cast<int>(std::ceil(labelPx / std::max(1.0, lanePx))));
    // State names: every stride-th state of a lane, where a label fits between two.
    const double statePx = pxPerUnit;
    const int stride = statePx >= labelPx ? 1 : static_cast<int>(std::ceil(labelPx / std::max(0.1, statePx)));
    if (step == m_labelStep && stride == m_stateStride && std::abs(size - m_labelPointSize) < 0.25)
        return;
    m_labelStep = step;
    m_stateStride = stride;
    m_labelPointSize = size;
    applyLaneLabels();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void StateTimelinePlot::keepLanesReadable(double decorationPx)
{
    // At the smallest label size, every lane carries its governor's name, and up to four
    // lanes also name their shallowest and deepest states (eight governors left every other
    // lane unnamed, and the states were named nowhere on the axis).
    QFont smallest = m_baseLabelFont;
    smallest.setPointSizeF(MIN_LABEL_POINT_SIZE);
    const double labelPx = QFontMetricsF(smallest).height();
    const double pitch = std::max(1, m_states - 1) + LANE_GAP;
    double pxPerUnit = labelPx / pitch;
    if (m_snap->governorCount() <= 4)
        pxPerUnit = std::max(pxPerUnit, labelPx / std::max(1, m_states - 1));
    // Every state of every lane named, a label a state apart, while that keeps the plot
    // within EVERY_STATE_MAX_PX (Juno's five lanes named only their top state, five times).
    if (decorationPx + labelPx * m_plot->yAxis->range().size() <= EVERY_STATE_MAX_PX)
        pxPerUnit = std::max(pxPerUnit, labelPx);
    const int height = static_cast<int>(std::ceil(decorationPx + pxPerUnit * m_plot->yAxis->range().size()));
    if (std::abs(m_plot->minimumHeight() - height) > 1)
        m_plot->setMinimumHeight(std::max(120, height));
}

void StateTimelinePlot::applyLaneLabels()
{
    QFont f = m_baseLabelFont;
    if (m_labelPointSize > 0)
        f.setPointSizeF(m_labelPointSize);
    m_plot->yAxis->setTickLabelFont(f);
    // Rows are labelled by governor, as KernelShark labels CPUs; the state
    // scale of every lane is the same and is named in the title. Thin lanes:
    // every step-th label (the legend above lists them all in the same order).
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int g = 0; g < static_cast<int>(m_lanes.size()); g += m_labelStep)
        ticker->addTick(laneY(g, (m_states - 1) / 2.0), m_lanes[static_cast<std::size_t>(g)].dominant->name());
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis2->setTickLabelFont(f);
    QSharedPointer<QCPAxisTickerText> states(new QCPAxisTickerText);
    const int deepest = m_states - 1;
    for (int g = 0; g < static_cast<int>(m_lanes.size()); ++g) {
        if (m_stateStride > deepest) { // no room for two: the deepest, at the lane's ceiling
            states->addTick(laneY(g, deepest), QString::fromStdString(m_snap->table[deepest].name));
            continue;
        }
        // From the deepest down, so that the lane's ceiling is always named.
        for (int st = deepest; st >= 0; st -= m_stateStride)
            states->addTick(laneY(g, st), QString::fromStdString(m_snap->table[st].name));
    }
    m_plot->yAxis2->setTicker(states);
}

double StateTimelinePlot::laneY(int g, double s) const
{
    const int lanes = m_snap ? m_snap->governorCount() : 1;
    const double height = std::max(1, m_states - 1) + LANE_GAP;
    return (lanes - 1 - g) * height + s; // first governor on top, as in the legend
}

int StateTimelinePlot::laneAt(double y) const
{
    if (!m_snap)
        return -1;
    const double height = std::max(1, m_states - 1) + LANE_GAP;
    const int fromBottom = static_cast<int>(std::floor((y + LANE_GAP / 2) / height));
    const int g = m_snap->governorCount() - 1 - fromBottom;
    return g >= 0 && g < m_snap->governorCount() ? g : -1;
}

void StateTimelinePlot::setupLanes()
{
    m_plot->clearGraphs();
    for (QCPAbstractItem *item : std::as_const(m_laneItems))
        m_plot->removeItem(item);
    m_laneItems.clear();
    // Runs shared with the previous snapshot keep their decimated points.
    std::vector<CachedSeries> oldDominant, oldLow, oldHigh, oldInIdle;
    for (Lane &lane : m_lanes) {
        oldDominant.push_back(std::move(lane.dominantPts));
        oldLow.push_back(std::move(lane.lowPts));
        oldHigh.push_back(std::move(lane.highPts));
        oldInIdle.push_back(std::move(lane.inIdlePts));
    }
    m_lanes.assign(static_cast<std::size_t>(m_snap->governorCount()), Lane{});
    m_states = m_snap->table.count();
    for (int g = 0; g < m_snap->governorCount(); ++g) {
        const QColor c = m_snap->governors[static_cast<std::size_t>(g)].color;
        Lane &lane = m_lanes[static_cast<std::size_t>(g)];
        const GovernorResult::RunPtr &run = m_snap->governors[static_cast<std::size_t>(g)].run;
        lane.dominantPts = adoptCached(oldDominant, run);
        lane.lowPts = adoptCached(oldLow, run);
        lane.highPts = adoptCached(oldHigh, run);
        lane.inIdlePts = adoptCached(oldInIdle, run);
        lane.low = m_plot->addGraph();
        lane.high = new BandGraph(m_plot->xAxis, m_plot->yAxis);
        lane.dominant = m_plot->addGraph();
        for (QCPGraph *graph : {lane.low, lane.high, lane.dominant}) {
            graph->setLineStyle(QCPGraph::lsStepLeft);
            graph->setAdaptiveSampling(false); // already one point per pixel column
            graph->setPen(Qt::NoPen);
        }
        lane.high->setBrush(QBrush(tint(c, 0.16)));
        lane.high->setChannelFillGraph(lane.low);
        lane.low->setVisible(false);       // only the band's lower edge: it draws nothing itself
        lane.dominant->setPen(QPen(c, 1)); // width 1: the raster engine's fast cosmetic path
        lane.dominant->setName(m_snap->name(g));
        lane.inIdle = m_plot->addGraph();
        lane.inIdle->setLineStyle(QCPGraph::lsNone);
        lane.inIdle->setAdaptiveSampling(false);
        lane.inIdle->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, c, c, 5));
        lane.inIdle->setName(tr("%1: ended by an in-idle interrupt").arg(m_snap->name(g)));
        for (int s : {0, std::max(1, m_states - 1)}) { // lane floor and ceiling
            auto *line = new QCPItemStraightLine(m_plot);
            line->setPen(QPen(plotPalette().faint, 1, Qt::DotLine));
            // Under the lanes: drawn over them (items come after the graphs on "main"), the
            // dots hid a lane that sat on its floor, and an exported figure showed dotted lanes.
            line->setLayer(QStringLiteral("grid"));
            line->point1->setCoords(0, laneY(g, s));
            line->point2->setCoords(1, laneY(g, s));
            m_laneItems << line;
        }
    }
    applyLaneLabels(); // fitLaneLabels() adjusts them once the layout is known
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setRange(-0.4, laneY(0, std::max(1, m_states - 1)) + 0.4);
    m_plot->yAxis2->setRange(m_plot->yAxis->range());
    keepLanesReadable(DECORATION_PX); // the layout's own decoration once it is known (fitLaneLabels)
    const std::string shallow = m_snap->table[0].name;
    const std::string deep = m_snap->table[m_states - 1].name;
    setTitle(tr("Selected idle state \u2014 each lane from %1 (bottom) to %2 (top)")
                 .arg(QString::fromStdString(shallow), QString::fromStdString(deep)));
}

void StateTimelinePlot::prepareAxes()
{
    // The state names on the right axis set the right margin, and so the width the lanes
    // are decimated for: new lanes and their labels are set up, fitted to the lane height
    // of a first layout (heights do not depend on the labels) and laid out again before
    // the columns are counted. Fitting them only after the replot's layout decimated a
    // fresh plot for its label-less width (tst_time_plot_cache).
    if (seriesSetupChanged())
        setupLanes();
    layOut();
    fitLaneLabels();
    layOut();
}

bool StateTimelinePlot::streamHasInIdleWakeups()
{
    if (m_inIdleChecked != m_snap->stream) {
        m_inIdleChecked = m_snap->stream;
        m_hasInIdle = m_inIdleChecked
                      && std::any_of(m_inIdleChecked->begin(), m_inIdleChecked->end(),
                                     [](const IdleSpan &s) { return !s.needResched; });
    }
    return m_hasInIdle;
}

void StateTimelinePlot::decimate(const TimeWindow &window)
{
    const bool marks = streamHasInIdleWakeups();
    std::vector<int> stale;
    for (int g = 0; g < m_snap->governorCount(); ++g) {
        const GovernorResult::RunPtr &shared = m_snap->governors[static_cast<std::size_t>(g)].run;
        Lane &lane = m_lanes[static_cast<std::size_t>(g)];
        const double base = laneY(g, 0);
        if (lane.dominantPts.isFor(shared, window, base))
            continue; // lowPts, highPts and inIdlePts always come with it
        for (CachedSeries *c : {&lane.dominantPts, &lane.lowPts, &lane.highPts, &lane.inIdlePts}) {
            c->setSource(shared, window, base);
            c->points.clear();
        }
        stale.push_back(g);
    }
    decimateEach(stale.size(), [&](std::size_t k) {
        const int g = stale[k];
        Lane &lane = m_lanes[static_cast<std::size_t>(g)];
        const GovernorRun &run = *lane.dominantPts.run;
        const double base = lane.dominantPts.offset;
        for (const StateColumn &c : summariseStates(run.startNs, run.state, run.residencyNs, window, true,
                                                    &m_snap->governors[static_cast<std::size_t>(g)].lod.states)) {
            // Inside the window a column starts at its pixel; the neighbours keep their own time.
            const Ns x = (c.column < 0 || c.column >= window.columns) ? c.firstNs : window.columnStartNs(c.column);
            lane.dominantPts.points.push_back({x, base + c.dominantState});
            lane.lowPts.points.push_back({x, base + c.minState});
            lane.highPts.points.push_back({x, base + c.maxState});
        }
        if (!marks)
            return;
        // Under the lane's floor, between it and the lane below.
        const double markY = base - LANE_GAP / 3;
        for (std::size_t i : flaggedEntryPerColumn(run.startNs, run.flags, ENTRY_IN_IDLE_WAKE, window))
            lane.inIdlePts.points.push_back({run.startNs[i], markY});
    });
}

void StateTimelinePlot::fill(Ns clipNs)
{
    for (Lane &lane : m_lanes) {
        setGraphData(lane.dominant, lane.dominantPts.points, clipNs);
        setGraphData(lane.low, lane.lowPts.points, clipNs);
        setGraphData(lane.high, lane.highPts.points, clipNs);
        setGraphData(lane.inIdle, lane.inIdlePts.points, clipNs);
    }
}

std::pair<int, qint64> StateTimelinePlot::entryAt(const QPointF &pos) const
{
    const int g = laneAt(m_plot->yAxis->pixelToCoord(pos.y()));
    if (g < 0)
        return {-1, -1};
    return {g, nearestEntry(g, timeAt(pos.x()))};
}

QString StateTimelinePlot::tooltipAt(const QPointF &pos) const
{
    const auto [g, i] = entryAt(pos);
    if (g < 0 || i < 0)
        return {};
    const GovernorRun &run = *m_snap->governors[static_cast<std::size_t>(g)].run;
    const auto k = static_cast<std::size_t>(i);
    QString miss = run.has(k, ENTRY_ABOVE)   ? tr(" — above (too deep)")
                   : run.has(k, ENTRY_BELOW) ? tr(" — below (too shallow)")
                                             : QString();
    return tr("<b>%1</b> entry %2<br>at %3: <b>%4</b> for %5%6")
        .arg(m_snap->name(g))
        .arg(i)
        .arg(formatNs(static_cast<double>(run.startNs[k])))
        .arg(QString::fromStdString(m_snap->table[run.state[k]].name))
        .arg(formatNs(static_cast<double>(run.residencyNs[k])))
        .arg(miss);
}

} // namespace idlescope
