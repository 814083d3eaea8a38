// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/sweep/sweep_plot.h"

#include "core/workloads/workload.h"
#include "widgets/runner/spec_workload.h"

#include <algorithm>

namespace idlescope {

namespace {

const char *const METRIC_TITLES[SWEEP_METRIC_COUNT] = {"above %", "below %", "miss ratio"};

const workloads::ParamInfo *sweptParam(const SweepRequest &r)
{
    if (r.axis.kind != SweepAxisChoice::Kind::Workload)
        return nullptr;
    const workloads::GeneratorInfo *g = workloadGenerator(r.scenario.workload);
    const int i = g ? g->paramIndex(r.axis.param.toStdString()) : -1;
    return i < 0 ? nullptr : &g->params[static_cast<std::size_t>(i)];
}

} // namespace

QString sweepAxisTitle(const SweepRequest &r)
{
    if (r.axis.kind == SweepAxisChoice::Kind::Tunable)
        return QStringLiteral("%1 %2").arg(QString::fromStdString(r.axis.governor), r.axis.param);
    const workloads::ParamInfo *p = sweptParam(r);
    if (!p)
        return r.axis.param;
    switch (p->unit) {
    case workloads::ParamUnit::Us: return QStringLiteral("%1 (\u00b5s)").arg(r.axis.param);
    case workloads::ParamUnit::Percent: return QStringLiteral("%1 (%)").arg(r.axis.param);
    case workloads::ParamUnit::Hz: return QStringLiteral("%1 (Hz)").arg(r.axis.param);
    default: return r.axis.param;
    }
}

double sweepAxisValue(const SweepRequest &r, qint64 held)
{
    const workloads::ParamInfo *p = sweptParam(r);
    // Us, Percent and Hz are held in thousandths of the unit their name says.
    const bool scaled = p && p->unit != workloads::ParamUnit::Count && p->unit != workloads::ParamUnit::Choice;
    return scaled ? static_cast<double>(held) / 1000.0 : static_cast<double>(held);
}

SweepPlot::SweepPlot(QWidget *parent) : PlotBase(tr("Sweep"), nullptr, parent)
{
    // Three panels stacked under the title, sharing the x axis.
    auto *group = new QCPMarginGroup(m_plot);
    for (int m = 0; m < SWEEP_METRIC_COUNT; ++m) {
        // The first panel is the plot's own axis rect (under the title), the others go below it.
        QCPAxisRect *rect = m == 0 ? m_plot->axisRect() : new QCPAxisRect(m_plot);
        if (m > 0)
            m_plot->plotLayout()->addElement(m + 1, 0, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
        styleAxisRect(rect);
        styleAxis(rect->axis(QCPAxis::atLeft), tr(METRIC_TITLES[m]));
        styleAxis(rect->axis(QCPAxis::atBottom), {});
        m_rects << rect;
    }
    // The legend lives in the top panel's inset (QCustomPlot puts it in its first axis rect).
    m_plot->legend->setBrush(QBrush(QColor(255, 255, 255, 220)));
    m_plot->legend->setBorderPen(QPen(plotPalette().subTick));
    m_plot->legend->setFont(font());
    m_plot->setAutoAddPlottableToLegend(false);
    m_rects.front()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    connect(m_plot, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable *, int dataIndex, QMouseEvent *) {
        if (dataIndex >= 0 && dataIndex < m_result.pointCount())
            emit pointClicked(dataIndex);
    });
}

void SweepPlot::setResult(const SweepResult &result, bool logX)
{
    m_result = result;
    m_logX = logX;
    setTitle(result.ok() ? tr("Sweep of %1").arg(sweepAxisTitle(result.request)) : tr("Sweep"));
    markDirty();
}

double SweepPlot::xOf(int point) const
{
    return sweepAxisValue(m_result.request, m_result.request.values[static_cast<std::size_t>(point)]);
}

QPointF SweepPlot::markerPixel(int metric, int governor, int point) const
{
    QCPAxisRect *rect = m_rects[metric];
    return {rect->axis(QCPAxis::atBottom)->coordToPixel(xOf(point)),
            rect->axis(QCPAxis::atLeft)->coordToPixel(m_result.value(metric, governor, point))};
}

void SweepPlot::rebuild()
{
    m_plot->clearPlottables();
    const bool have = m_result.ok() && m_result.pointCount() > 0;
    for (int m = 0; m < SWEEP_METRIC_COUNT; ++m) {
        QCPAxisRect *rect = m_rects[m];
        QCPAxis *x = rect->axis(QCPAxis::atBottom);
        QCPAxis *y = rect->axis(QCPAxis::atLeft);
        x->setScaleType(m_logX ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (have && m_result.pointCount() <= 12) {
            // Few values: a tick and a label at each value swept, nothing in between.
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (int p = 0; p < m_result.pointCount(); ++p)
                ticker->addTick(xOf(p), QString::number(xOf(p), 'g', 6));
            x->setTicker(ticker);
        } else if (m_logX) {
            x->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        } else {
            x->setTicker(QSharedPointer<QCPAxisTicker>::create());
        }
        // Only the bottom panel names the axis; the others share it.
        x->setLabel(m == SWEEP_METRIC_COUNT - 1 && have ? sweepAxisTitle(m_result.request) : QString());
        if (!have)
            continue;
        double top = 0;
        for (int g = 0; g < static_cast<int>(m_result.governors.size()); ++g) {
            auto *graph = new QCPGraph(x, y);
            const QColor c(m_result.governorColors[static_cast<std::size_t>(g)]);
            graph->setName(QString::fromStdString(m_result.governors[static_cast<std::size_t>(g)]));
            graph->setPen(QPen(c, 1.6));
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 7));
            QVector<double> xs, ys;
            for (int p = 0; p < m_result.pointCount(); ++p) {
                xs << xOf(p);
                ys << m_result.value(m, g, p);
                top = std::max(top, ys.back());
            }
            graph->setData(xs, ys, true);
        }
        const double lo = xOf(0);
        const double hi = xOf(m_result.pointCount() - 1);
        const double pad = m_logX ? 0 : (hi - lo) * 0.04;
        x->setRange(m_logX ? lo / 1.15 : lo - pad, m_logX ? hi * 1.15 : hi + pad);
        y->setRange(0, top > 0 ? top * 1.1 : 1);
    }
    // Which line is which governor: a legend inside the top panel.
    m_plot->legend->setVisible(have);
    if (have) {
        m_plot->legend->clearItems();
        for (int i = 0; i < m_plot->graphCount() && i < static_cast<int>(m_result.governors.size()); ++i)
            m_plot->legend->addItem(new QCPPlottableLegendItem(m_plot->legend, m_plot->graph(i)));
    }
}

QString SweepPlot::tooltipAt(const QPointF &pos) const
{
    if (!m_result.ok())
        return {};
    for (int m = 0; m < SWEEP_METRIC_COUNT; ++m)
        for (int g = 0; g < static_cast<int>(m_result.governors.size()); ++g)
            for (int p = 0; p < m_result.pointCount(); ++p)
                if (QLineF(markerPixel(m, g, p), pos).length() <= 6)
                    return tr("%1 at %2 = %3: %4 %5 (click: open this point)")
                        .arg(QString::fromStdString(m_result.governors[static_cast<std::size_t>(g)]),
                             sweepAxisTitle(m_result.request))
                        .arg(xOf(p))
                        .arg(tr(METRIC_TITLES[m]))
                        .arg(m_result.value(m, g, p), 0, 'g', 4);
    return {};
}

} // namespace idlescope
