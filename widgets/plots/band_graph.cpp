// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/band_graph.h"

namespace idlescope {

BandGraph::BandGraph(QCPAxis *keyAxis, QCPAxis *valueAxis) : QCPGraph(keyAxis, valueAxis)
{
    setLineStyle(QCPGraph::lsStepLeft);
}

void BandGraph::drawFill(QCPPainter *painter, QVector<QPointF> *lines) const
{
    const QCPGraph *lowGraph = channelFillGraph();
    if (!lowGraph || painter->brush().style() == Qt::NoBrush || painter->brush().color().alpha() == 0
        || lineStyle() != lsStepLeft || lowGraph->lineStyle() != lsStepLeft) {
        QCPGraph::drawFill(painter, lines);
        return;
    }
    const QCPAxis *key = keyAxis();
    const QCPAxis *value = valueAxis();
    if (!key || !value || key->orientation() != Qt::Horizontal) {
        QCPGraph::drawFill(painter, lines);
        return;
    }
    QVector<QRectF> rects;
    if (!stepBandRects(
            *lowGraph->data(), *data(), [key](double k) { return key->coordToPixel(k); },
            [value](double v) { return value->coordToPixel(v); }, rects)) {
        QCPGraph::drawFill(painter, lines); // not one band: QCustomPlot's general channel fill
        return;
    }
    // Aliased: columns a fraction of a pixel apart would otherwise leave
    // faint seams where two antialiased edges meet; axis-aligned edges lose nothing.
    const bool antialiased = painter->antialiasing();
    painter->setAntialiasing(false);
    painter->setPen(Qt::NoPen);
    painter->drawRects(rects.constData(), static_cast<int>(rects.size()));
    painter->setAntialiasing(antialiased);
}

} // namespace idlescope
