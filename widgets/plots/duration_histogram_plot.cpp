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
    styleAxis(m_plot->xAxis, axisTitle(false));
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
    // The end bins also count what lies beyond them (binOf() clamps): said, not drawn as if not.
    const bool clamped = m_counts.front() > 0 || m_counts.back() > 0;
    if (const QString t = axisTitle(clamped); m_plot->xAxis->label() != t)
        m_plot->xAxis->setLabel(t);
    xlo = std::pow(10.0, std::floor(std::log10(xlo)));
    xhi = std::pow(10.0, std::ceil(std::log10(xhi)));
    m_plot->xAxis->setRange(xlo, xhi);
    // As many decade labels as fit the width ("100 µs" the widest, and a gap): every n-th.
    if (auto *ticker = dynamic_cast<LogNsTicker *>(m_plot->xAxis->ticker().data())) {
        const QFontMetrics fm(m_plot->xAxis->tickLabelFont());
        const double labelPx = fm.horizontalAdvance(QStringLiteral("100 \u00b5s")) + 2 * fm.averageCharWidth();
        const double width = m_plot->axisRect()->width() > 50 ? m_plot->axisRect()->width() : m_plot->width() - 90;
        // Two labelled ticks n decades apart are width * n / decades pixels apart.
        const double decades = std::log10(xhi / xlo);
        ticker->setLabelEvery(static_cast<int>(std::ceil(decades * labelPx / std::max(50.0, width) - 1e-9)));
    }
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
        // A label that would run past the frame's right edge ("cpu-slee") goes left of its line.
        const double w = fm.horizontalAdvance(label->text()) + 3;
        const bool flip = px + w > width;
        const double from = flip ? px - w : px;
        std::size_t row = 0;
        while (row < rowEnd.size() && rowEnd[row] > from)
            ++row;
        if (row == rowEnd.size())
            rowEnd.push_back(-1e9);
        rowEnd[row] = (flip ? px : px + w) + 4; // and a gap
        label->setPositionAlignment(flip ? Qt::AlignRight | Qt::AlignTop : Qt::AlignLeft | Qt::AlignTop);
        const int top = static_cast<int>(row) * fm.height();
        label->setPadding(flip ? QMargins(0, top, 3, 0) : QMargins(3, top, 0, 0));
        m_labelRows << static_cast<int>(row);
    }
}

QString DurationHistogramPlot::axisTitle(bool clamped)
{
    if (!clamped)
        return tr("duration; dashed: target residency");
    return tr("duration; dashed: target residency; the end bins also count spans under %1 or over %2")
        .arg(formatNs(DurationBins::lowerEdge(0)), formatNs(DurationBins::lowerEdge(DurationBins::COUNT)));
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
    // The end bins hold everything beyond them too (DurationBins::binOf() clamps).
    const qint64 n = m_counts[static_cast<std::size_t>(b)];
    if (b == 0)
        return tr("under %1: %2 spans").arg(formatNs(DurationBins::lowerEdge(1))).arg(n);
    if (b == DurationBins::COUNT - 1)
        return tr("%1 and over: %2 spans").arg(formatNs(DurationBins::lowerEdge(b))).arg(n);
    return tr("%1 \u2013 %2: %3 spans")
        .arg(formatNs(DurationBins::lowerEdge(b)), formatNs(DurationBins::lowerEdge(b + 1)))
        .arg(n);
}

} // namespace idlescope
