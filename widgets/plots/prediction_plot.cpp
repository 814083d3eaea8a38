// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/prediction_plot.h"

#include "core/governors/registry.h"
#include "widgets/plots/marker_graph.h"
#include "widgets/plots/time_ticker.h"
#include "widgets/view_state.h"

#include <QPainter>

#include <cmath>

namespace idlescope {

namespace {

/// Side of a prediction's filled dot and of a measurement's ring (logical px).
constexpr double DOT_SIZE = 5.0;
constexpr double RING_SIZE = 7.0;

/// A filled dot (prediction) or a faint ring (measurement) in colour @p c, in a square of @p size.
MarkerGraph::PaintMarker marker(const QColor &c, bool filled)
{
    return [c, filled](QPainter &p, double size) {
        if (filled) {
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawEllipse(QRectF(0.25, 0.25, size - 0.5, size - 0.5));
        } else {
            QColor ring = c;
            ring.setAlphaF(0.6f);
            p.setPen(QPen(ring, 1.0));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(QRectF(0.5, 0.5, size - 1.0, size - 1.0));
        }
    };
}

bool isTeoWithoutPrediction(const std::string &variant)
{
    const VariantInfo *v = findVariant(variant);
    if (!v || std::string_view(v->family) != "teo")
        return false;
    for (const VariantInfo &legacy : teoLegacyVariants())
        if (variant == legacy.id)
            return false; // teo-5.13 does estimate the idle time (early hits, recent intervals)
    return true;
}

} // namespace

PredictionDraw predictionDrawFor(const std::string &variant)
{
    if (variant == "oracle")
        return PredictionDraw::Known;
    if (isTeoWithoutPrediction(variant))
        return PredictionDraw::NoPrediction;
    return PredictionDraw::Dots;
}

QString predictionPlotTitle(bool anyTeo)
{
    const QString base = PredictionPlot::tr("Predicted idle duration (\u25cf) vs measured residency (\u25cb)");
    if (!anyTeo)
        return base;
    return base + PredictionPlot::tr("  \u00b7  teo: \u25cb only (teo predicts no duration)");
}

PredictionPlot::PredictionPlot(ViewState *view, QWidget *parent) : TimePlot(predictionPlotTitle(false), view, parent)
{
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LogNsTicker));
    styleAxis(m_plot->yAxis, tr("duration"));
    m_plot->yAxis->grid()->setSubGridVisible(false);
    m_plot->yAxis->setRange(1e3, 1e7);
}

void PredictionPlot::setupSeries()
{
    m_plot->clearGraphs();
    for (QCPAbstractItem *item : std::as_const(m_lineItems))
        m_plot->removeItem(item);
    m_lineItems.clear();
    // Runs shared with the previous snapshot keep their decimated points.
    std::vector<CachedSeries> oldPredicted, oldMeasured;
    for (Series &s : m_series)
        (s.predicted ? oldPredicted : oldMeasured).push_back(std::move(s.cache));
    m_series.clear();
    const int n = m_snap->governorCount();
    bool anyTeo = false;
    // Measured first (underneath), then predictions on top.
    for (int pass = 0; pass < 2; ++pass) {
        for (int g = 0; g < n; ++g) {
            const bool predicted = pass == 1;
            const GovernorRun &run = *m_snap->governors[static_cast<std::size_t>(g)].run;
            const PredictionDraw draw = predictionDrawFor(run.variant);
            anyTeo = anyTeo || draw == PredictionDraw::NoPrediction;
            // The oracle's "prediction" is the measurement; teo's duration_ns
            // is the sleep length, not a prediction (drawn it would read as a
            // misprediction of every IPI wakeup).
            if (predicted && draw != PredictionDraw::Dots)
                continue;
            const QColor c = m_snap->governors[static_cast<std::size_t>(g)].color;
            // Pre-rendered markers: a blit per point (and per pixel at most), where a
            // drawn ellipse costs a Bezier flattening per point per frame.
            new MarkerGraph(m_plot->xAxis, m_plot->yAxis, predicted ? DOT_SIZE : RING_SIZE, marker(c, predicted));
            m_series.push_back(Series{g, predicted,
                                      adoptCached(predicted ? oldPredicted : oldMeasured,
                                                  m_snap->governors[static_cast<std::size_t>(g)].run)});
        }
    }
    // Target residency of every state deeper than a 0 target (log axis).
    Ns lo = 1000, hi = 10000000;
    for (const ResidencyLine &r : addResidencyLines(Qt::Horizontal)) {
        const double y = r.ns;
        auto *label = new QCPItemText(m_plot);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.005, y);
        label->setBrush(QBrush(QColor(plotPalette().background.red(), plotPalette().background.green(),
                                      plotPalette().background.blue(), 210)));
        label->setPadding(QMargins(2, 0, 2, 1));
        label->setText(tr("%1 target residency %2").arg(QString::fromStdString(r.state->name), formatNs(y)));
        label->setColor(plotPalette().muted);
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        label->setFont(f);
        label->setClipToAxisRect(true);
        m_lineItems << r.line << label;
        hi = std::max(hi, r.state->targetResidencyNs * 20);
    }
    const Ns tick = m_snap->table.tickNsec();
    hi = std::max(hi, tick * 2);
    m_plot->yAxis->setRange(static_cast<double>(lo) / 2, static_cast<double>(hi));
    setTitle(predictionPlotTitle(anyTeo));
}

void PredictionPlot::decimate(const TimeWindow &window)
{
    if (seriesSetupChanged())
        setupSeries();
    std::vector<Series *> stale;
    for (Series &s : m_series) {
        const GovernorResult::RunPtr &shared = m_snap->governors[static_cast<std::size_t>(s.governor)].run;
        if (!s.cache.isFor(shared, window)) {
            s.cache.setSource(shared, window);
            stale.push_back(&s);
        }
    }
    decimateEach(stale.size(), [&](std::size_t k) {
        Series &s = *stale[k];
        const GovernorRun &run = *s.cache.run;
        const auto [first, last] = visibleIndexRange(run.startNs, window.startNs, window.endNs, false);
        const std::vector<Ns> &col = s.predicted ? run.predictedNs : run.residencyNs;
        // A log axis cannot show 0 or "no prediction" (-1).
        const RunLod &lod = m_snap->governors[static_cast<std::size_t>(s.governor)].lod;
        decimateMinMax(
            run.startNs, first, last, window, [&](std::size_t i) { return col[i]; },
            [&](std::size_t i) { return col[i] > 0; }, s.cache.points, s.predicted ? &lod.predicted : &lod.residency);
    });
}

void PredictionPlot::fill(Ns clipNs)
{
    for (std::size_t k = 0; k < m_series.size(); ++k)
        setGraphData(m_plot->graph(static_cast<int>(k)), m_series[k].cache.points, clipNs);
}

std::pair<int, qint64> PredictionPlot::entryAt(const QPointF &pos) const
{
    if (!m_snap)
        return {-1, -1};
    // Nearest drawn point within PICK_PX, over every series.
    double best = PICK_PX * PICK_PX;
    std::pair<int, qint64> hit{-1, -1};
    const Ns t = timeAt(pos.x());
    for (const Series &s : m_series) {
        const qint64 i = nearestEntry(s.governor, t);
        if (i < 0)
            continue;
        const GovernorRun &run = *m_snap->governors[static_cast<std::size_t>(s.governor)].run;
        const auto k = static_cast<std::size_t>(i);
        const Ns v = s.predicted ? run.predictedNs[k] : run.residencyNs[k];
        if (v <= 0)
            continue;
        const double dx = m_plot->xAxis->coordToPixel(static_cast<double>(run.startNs[k])) - pos.x();
        const double dy = m_plot->yAxis->coordToPixel(static_cast<double>(v)) - pos.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            hit = {s.governor, i};
        }
    }
    return hit;
}

QString PredictionPlot::tooltipAt(const QPointF &pos) const
{
    const auto [g, i] = entryAt(pos);
    if (g < 0)
        return {};
    const GovernorRun &run = *m_snap->governors[static_cast<std::size_t>(g)].run;
    const auto k = static_cast<std::size_t>(i);
    QString predicted;
    switch (predictionDrawFor(run.variant)) {
    case PredictionDraw::Known: predicted = tr("knew %1").arg(formatNs(static_cast<double>(run.predictedNs[k]))); break;
    case PredictionDraw::NoPrediction: predicted = tr("no prediction (teo chooses from hits and intercepts)"); break;
    case PredictionDraw::Dots:
        predicted = run.predictedNs[k] < 0 ? tr("no prediction")
                                           : tr("predicted %1").arg(formatNs(static_cast<double>(run.predictedNs[k])));
        break;
    }
    const IdleState &st = m_snap->table[run.state[k]];
    QString miss = run.has(k, ENTRY_ABOVE)   ? tr("<br><b>above</b>: state too deep")
                   : run.has(k, ENTRY_BELOW) ? tr("<br><b>below</b>: a deeper state would have fit")
                                             : QString();
    return tr("<b>%1</b> entry %2 at %3<br>%4, measured %5<br>sleep length %6, chose <b>%7</b> (target residency "
              "%8)%9")
        .arg(m_snap->name(g))
        .arg(i)
        .arg(formatNs(static_cast<double>(run.startNs[k])), predicted,
             formatNs(static_cast<double>(run.residencyNs[k])), formatNs(static_cast<double>(run.sleepLengthNs[k])),
             QString::fromStdString(st.name), formatNs(static_cast<double>(st.targetResidencyNs)), miss);
}

} // namespace idlescope
