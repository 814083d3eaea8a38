// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/time_share_plot.h"

#include "widgets/plots/bar_at.h"
#include "widgets/plots/time_ticker.h"

namespace idlescope {

TimeSharePlot::TimeSharePlot(ViewState *view, QWidget *parent)
    : CountsPlot(tr("Idle time per state"), view, parent), m_group(new QCPBarsGroup(m_plot))
{
    styleAxis(m_plot->xAxis, QString());
    styleAxis(m_plot->yAxis, tr("share of idle time (%)"));
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->setRange(0, 105);
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(25);
    m_plot->yAxis->setTicker(ticker);
}

void TimeSharePlot::setUp()
{
    for (QCPBars *b : std::as_const(m_bars))
        m_plot->removePlottable(b);
    m_bars = makeGroupedBars(m_plot->axisRect(), m_group);
    m_plot->xAxis->setTicker(stateTicker());
    m_plot->xAxis->setRange(0.4, m_snap->table.count() + 0.6);
}

void TimeSharePlot::refill()
{
    for (int g = 0; g < m_snap->governorCount(); ++g) {
        const PrefixCounts c = countsUpToCursor(g);
        Ns total = 0;
        for (Ns t : c.timeNs)
            total += t;
        QVector<double> keys, values;
        for (int s = 0; s < m_snap->table.count(); ++s) {
            keys << s + 1;
            values << (total ? 100.0 * static_cast<double>(c.timeNs[static_cast<std::size_t>(s)])
                                   / static_cast<double>(total)
                             : 0.0);
        }
        m_bars[g]->setData(keys, values, true);
    }
    fitStateLabels(m_plot->xAxis, 1.0);
}

QString TimeSharePlot::tooltipAt(const QPointF &pos) const
{
    if (!m_snap)
        return {};
    for (int g = 0; g < m_bars.size(); ++g) {
        const int s = barAt(m_bars[g], pos);
        if (s < 0)
            continue;
        const PrefixCounts c = countsUpToCursor(g);
        const auto k = static_cast<std::size_t>(s);
        return tr("<b>%1</b>, %2: %3 in %4 entries (%5 %)")
            .arg(m_snap->name(g), QString::fromStdString(m_snap->table[s].name),
                 formatNs(static_cast<double>(c.timeNs[k])))
            .arg(c.usage[k])
            .arg(m_bars[g]->data()->at(s)->value, 0, 'f', 1);
    }
    return {};
}

} // namespace idlescope
