// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/miss_histogram_plot.h"

#include "widgets/plots/bar_at.h"
#include "widgets/plots/count_ticker.h"

#include <cmath>

namespace idlescope {

MissHistogramPlot::MissHistogramPlot(ViewState *view, QWidget *parent)
    : CountsPlot(tr("Misses per state"), view, parent)
{
    // Row 1 becomes a 2x2 grid: captions over two axis rects.
    m_plot->plotLayout()->remove(m_plot->axisRect());
    auto *grid = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 0, grid);
    const QString captions[2] = {tr("above \u2014 too deep"), tr("below \u2014 too shallow")};
    for (int k = 0; k < 2; ++k) {
        auto *caption = new QCPTextElement(m_plot, captions[k]);
        caption->setTextColor(plotPalette().muted);
        caption->setMargins(QMargins(0, 2, 0, 0));
        grid->addElement(0, k, caption);
        m_rects[k] = new QCPAxisRect(m_plot);
        grid->addElement(1, k, m_rects[k]);
        styleAxisRect(m_rects[k]);
        styleAxis(m_rects[k]->axis(QCPAxis::atBottom), QString());
        styleAxis(m_rects[k]->axis(QCPAxis::atLeft), k == 0 ? tr("entries") : QString());
        m_rects[k]->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
        m_rects[k]->axis(QCPAxis::atBottom)->grid()->setVisible(false);
        m_groups[k] = new QCPBarsGroup(m_plot);
    }
    grid->setRowStretchFactor(0, 0.001);
    offerLogScale();
}

void MissHistogramPlot::setUp()
{
    for (int k = 0; k < 2; ++k) {
        for (QCPBars *b : std::as_const(m_bars[k]))
            m_plot->removePlottable(b);
        m_bars[k] = makeGroupedBars(m_rects[k], m_groups[k]);
        m_rects[k]->axis(QCPAxis::atBottom)->setTicker(stateTicker());
        m_rects[k]->axis(QCPAxis::atBottom)->setRange(0.4, m_snap->table.count() + 0.6);
    }
}

QVector<QVector<double>> MissHistogramPlot::values(bool above) const
{
    QVector<QVector<double>> out;
    if (!m_snap)
        return out;
    for (int g = 0; g < m_snap->governorCount(); ++g) {
        const PrefixCounts c = countsUpToCursor(g);
        QVector<double> row;
        for (int s = 0; s < m_snap->table.count(); ++s)
            row << static_cast<double>(above ? c.above[static_cast<std::size_t>(s)]
                                             : c.below[static_cast<std::size_t>(s)]);
        out << row;
    }
    return out;
}

void MissHistogramPlot::refill()
{
    double top = 1;
    QVector<double> keys;
    for (int s = 0; s < m_snap->table.count(); ++s)
        keys << s + 1;
    for (int k = 0; k < 2; ++k) {
        const QVector<QVector<double>> v = values(k == 0);
        for (int g = 0; g < v.size(); ++g) {
            m_bars[k][g]->setData(keys, v[g], true);
            for (double x : v[g])
                top = std::max(top, x);
        }
    }
    for (QCPAxisRect *r : m_rects) {
        setCountRange(r->axis(QCPAxis::atLeft), top);
        fitStateLabels(r->axis(QCPAxis::atBottom), 0.5);
    }
}

QString MissHistogramPlot::tooltipAt(const QPointF &pos) const
{
    if (!m_snap)
        return {};
    for (int k = 0; k < 2; ++k) {
        for (int g = 0; g < m_bars[k].size(); ++g) {
            const int s = barAt(m_bars[k][g], pos);
            if (s < 0)
                continue;
            const PrefixCounts c = countsUpToCursor(g);
            const std::int64_t n = k == 0 ? c.above[static_cast<std::size_t>(s)] : c.below[static_cast<std::size_t>(s)];
            const std::int64_t usage = c.usage[static_cast<std::size_t>(s)];
            return tr("<b>%1</b>, %2: %3 %4 of %5 entries (%6 %)")
                .arg(m_snap->name(g), QString::fromStdString(m_snap->table[s].name))
                .arg(n)
                .arg(k == 0 ? tr("above") : tr("below"))
                .arg(usage)
                .arg(usage ? 100.0 * static_cast<double>(n) / static_cast<double>(usage) : 0.0, 0, 'f', 1);
        }
    }
    return {};
}

} // namespace idlescope
