// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/duration_histogram_plot.h"

#include "widgets/plots/count_ticker.h"
#include "widgets/plots/time_ticker.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <vector>

namespace idlescope {

DurationHistogramPlot::DurationHistogramPlot(ViewState *view, QWidget *parent)
    : CountsPlot(tr("Idle durations of the stream"), view, parent), m_graph(m_plot->addGraph())
{
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LogNsTicker));
    styleAxis(m_plot->xAxis, tr("duration; dashed: target residency"));
    styleAxis(m_plot->yAxis, tr("spans"));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    m_plot->xAxis->grid()->setSubGridVisible(false);
    m_graph->setLineStyle(QCPGraph::lsStepLeft);
    applyPalette();
    offerLogScale();
}

void DurationHistogramPlot::applyPalette()
{
    // The stream's own histogram: neutral, in the frame's colours.
    m_graph->setPen(QPen(plotPalette().line, 1.2));
    m_graph->setBrush(QBrush(plotPalette().fill));
}

void DurationHistogramPlot::setUp()
{
    for (QCPAbstractItem *item : std::as_const(m_items))
        m_plot->removeItem(item);
    m_items.clear();
    m_labels.clear();
    for (const ResidencyLine &r : addResidencyLines(Qt::Vertical)) {
        const double x = r.ns;
        auto *label = new QCPItemText(m_plot);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(x, 0.02);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(3, 0, 0, 0));
        // The axis caption says what the dashed lines are; the state name alone
        // keeps neighbouring lines' labels (C1, C1E at 2 and 4 us) apart.
        label->setText(QString::fromStdString(r.state->name));
        label->setColor(plotPalette().muted);
        m_items << r.line << label;
        m_labels << qMakePair(x, label);
    }
    std::stable_sort(m_labels.begin(), m_labels.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
}

void DurationHistogramPlot::refill()
{
    m_counts = m_snap->durations.upTo(spansUpToCursor());
    // Show the decades that hold data, one bin of margin each side.
    int lo = DurationBins::COUNT, hi = -1;
    for (int b = 0; b < DurationBins::COUNT; ++b)
        if (m_counts[static_cast<std::size_t>(b)] > 0) {
            lo = std::min(lo, b);
            hi = std::max(hi, b);
        }
    QVector<double> keys, values;
    double top = 1;
    for (int b = 0; b < DurationBins::COUNT; ++b) {
        keys << DurationBins::lowerEdge(b);
        values << static_cast<double>(m_counts[static_cast<std::size_t>(b)]);
        top = std::max(top, values.back());
    }
    keys << DurationBins::lowerEdge(DurationBins::COUNT);
    values << 0;
    m_graph->setData(keys, values, true);
    if (hi < 0) { // nothing yet: a 10 us .. 1 ms frame
        lo = 2 * DurationBins::BINS_PER_DECADE;
        hi = 4 * DurationBins::BINS_PER_DECADE;
    }
    // Whole decades around the data and every target residency, one decade of margin.
    double xlo = DurationBins::lowerEdge(lo) / 10, xhi = DurationBins::lowerEdge(hi + 1) * 10;
    for (int s = 0; s < m_snap->table.count(); ++s)
        if (m_snap->table[s].targetResidencyNs > 0) {
            xlo = std::min(xlo, static_cast<double>(m_snap->table[s].targetResidencyNs) / 10);
            xhi = std::max(xhi, static_cast<double>(m_snap->table[s].targetResidencyNs) * 10);
        }
    xlo = std::pow(10.0, std::floor(std::log10(xlo)));
    xhi = std::pow(10.0, std::ceil(std::log10(xhi)));
    m_plot->xAxis->setRange(xlo, xhi);
    setCountRange(m_plot->yAxis, top);
    staggerLabels(xlo, xhi);
}

void DurationHistogramPlot::staggerLabels(double xlo, double xhi)
{
    // Target residencies a few us apart (C1E, C3, C6, C7s on Intel) put their
    // names over each other on one line. Each label takes the first row on
    // which it clears the one before; a row is a line lower (top padding).
    // Pixel positions are those of the log axis at the plot's current width
    // (the layout itself is redone by the replot that follows).
    m_labelRows.clear();
    if (m_labels.isEmpty())
        return;
    const QFontMetrics fm(m_labels.first().second->font());
    const double width = std::max(50, m_plot->width() - 90); // less the y axis and margins
    const double lx = std::log10(xlo), span = std::log10(xhi) - lx;
    std::vector<double> rowEnd;
    for (const auto &[x, label] : std::as_const(m_labels)) {
        const double px = (std::log10(x) - lx) / span * width;
        std::size_t row = 0;
        while (row < rowEnd.size() && rowEnd[row] > px)
            ++row;
        if (row == rowEnd.size())
            rowEnd.push_back(0);
        rowEnd[row] = px + fm.horizontalAdvance(label->text()) + 3 + 4; // padding and a gap
        label->setPadding(QMargins(3, static_cast<int>(row) * fm.height(), 0, 0));
        m_labelRows << static_cast<int>(row);
    }
}

QList<int> DurationHistogramPlot::labelRows() const
{
    return m_labelRows;
}

QString DurationHistogramPlot::tooltipAt(const QPointF &pos) const
{
    if (!m_snap || !m_plot->axisRect()->rect().contains(pos.toPoint()))
        return {};
    const double x = m_plot->xAxis->pixelToCoord(pos.x());
    const int b = DurationBins::binOf(static_cast<Ns>(x));
    return tr("%1 \u2013 %2: %3 spans")
        .arg(formatNs(DurationBins::lowerEdge(b)), formatNs(DurationBins::lowerEdge(b + 1)))
        .arg(m_counts[static_cast<std::size_t>(b)]);
}

} // namespace idlescope
