// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/marker_graph.h"

#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace idlescope {

QVector<QPoint> distinctMarkerPixels(const QVector<QPointF> &centres, int side)
{
    QVector<QPoint> out;
    out.reserve(centres.size());
    // Rows already used in the current pixel column: a decimated column has
    // at most four points (first, min, max, last), so a short list will do.
    QVector<int> rows;
    int column = 0;
    bool any = false;
    for (const QPointF &c : centres) {
        if (!std::isfinite(c.x()) || !std::isfinite(c.y()))
            continue;
        // Pixel i covers [i, i + 1): QCustomPlot's antialiased painters are
        // shifted by half a pixel so that a coordinate of i lands on pixel i's centre.
        const int x = static_cast<int>(std::floor(c.x()));
        const int y = static_cast<int>(std::floor(c.y()));
        if (!any || x != column) {
            column = x;
            rows.clear();
            any = true;
        } else if (rows.contains(y)) {
            continue;
        }
        rows.append(y);
        out.append(QPoint(x - side / 2, y - side / 2));
    }
    return out;
}

MarkerGraph::MarkerGraph(QCPAxis *keyAxis, QCPAxis *valueAxis, double size, PaintMarker paint)
    : QCPGraph(keyAxis, valueAxis), m_size(size), m_paint(std::move(paint))
{
    setLineStyle(QCPGraph::lsNone);
    setAdaptiveSampling(false); // the points are decimated per pixel column already
    // The style only tells QCustomPlot that there are scatters (and draws the
    // legend icon); drawScatterPlot() below draws them.
    setScatterStyle(QCPScatterStyle(markerAt(2.0, 2.0)));
}

const QPixmap &MarkerGraph::markerAt(double scale, double deviceRatio) const
{
    if (scale == m_markerScale && deviceRatio == m_markerRatio && !m_marker.isNull())
        return m_marker;
    // Odd device sizes keep the marker centred on its pixel.
    int side = std::max(1, static_cast<int>(std::lround(m_size * scale)));
    side += side % 2 == 0;
    QPixmap pm(side, side);
    pm.fill(Qt::transparent);
    {
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(side / m_size, side / m_size);
        m_paint(p, m_size);
    }
    pm.setDevicePixelRatio(deviceRatio);
    m_marker = pm;
    m_markerScale = scale;
    m_markerRatio = deviceRatio;
    return m_marker;
}

void MarkerGraph::drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                                  const QCPScatterStyle &style) const
{
    // A vector figure (PDF, SVG) has no device pixels to blit into: each
    // marker is drawn as shapes, crisp at any zoom of the document. Points
    // that round to one logical pixel are drawn once, as on screen.
    if (const QPaintEngine *engine = painter->paintEngine();
        engine
        && (engine->type() == QPaintEngine::Pdf || engine->type() == QPaintEngine::SVG
            || engine->type() == QPaintEngine::Picture)) {
        const int side = std::max(1, static_cast<int>(std::lround(m_size)));
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        for (const QPoint &d : distinctMarkerPixels(scatters, side)) {
            const QPointF centre(d.x() + side / 2 + 0.5, d.y() + side / 2 + 0.5);
            painter->save();
            painter->translate(centre.x() - m_size / 2, centre.y() - m_size / 2);
            m_paint(*painter, m_size);
            painter->restore();
        }
        painter->restore();
        return;
    }
    const QTransform t = painter->transform();
    // Rotated or sheared painters (no export does that) get QCustomPlot's own drawing.
    if (t.type() > QTransform::TxScale || !painter->device() || std::abs(t.m11()) != std::abs(t.m22())) {
        QCPGraph::drawScatterPlot(painter, scatters, style);
        return;
    }
    const double ratio = painter->device()->devicePixelRatioF();
    const double scale = ratio * std::abs(t.m11()); // device pixels per logical pixel
    const QPixmap &marker = markerAt(scale, ratio);
    QVector<QPointF> centres;
    centres.reserve(scatters.size());
    // Scale and translation only (checked above): map by hand, per point.
    const double sx = t.m11() * ratio, sy = t.m22() * ratio, dx = t.dx() * ratio, dy = t.dy() * ratio;
    for (const QPointF &p : scatters)
        centres.append(QPointF(p.x() * sx + dx, p.y() * sy + dy));
    painter->save();
    // Device coordinates (in units of the device's pixel ratio): whole
    // pixels for every marker, and a pixmap of the device's ratio is a plain blit.
    painter->resetTransform();
    for (const QPoint &d : distinctMarkerPixels(centres, marker.width()))
        painter->drawPixmap(QPointF(d.x() / ratio, d.y() / ratio), marker);
    painter->restore();
}

} // namespace idlescope
