// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file marker_graph.h
 * A scatter QCPGraph whose markers are one pre-rendered image, blitted the
 * cheap way. QCustomPlot's ssPixmap scatter draws a high-DPI pixmap scaled
 * down on every point (the raster engine's slow transformed blend) and
 * centres it by the pixmap's device size, so a 2x marker lands half a marker
 * up and left of its point. Here the marker is rendered once at the paint
 * device's own resolution (screen, or an export's scale), placed on whole
 * device pixels centred on the point, and drawn once per device position:
 * the decimated first/min/max/last of a dense pixel column often round to
 * the same pixel, and drawing the same image there again changes nothing
 * but the blending of translucent rings. Vector figures (PDF, SVG) get
 * every marker as shapes instead of an image.
 */
#pragma once

#include "widgets/plots/qcp.h"

#include <QPixmap>
#include <QPoint>
#include <QPointF>
#include <QVector>

#include <functional>

class QPainter;

namespace idlescope {

/**
 * Top-left device pixels of @p side x @p side markers centred on @p centres
 * (device coordinates, pixel i covering [i, i + 1)): the marker's middle
 * pixel is the one holding the centre, and it extends side / 2 pixels
 * before it. A centre that rounds to a
 * pixel already used earlier in the same pixel column is dropped (the input
 * comes sorted by x from a graph; unsorted input only drops fewer). Order is
 * kept, so what is drawn on top stays on top.
 */
QVector<QPoint> distinctMarkerPixels(const QVector<QPointF> &centres, int side);

class MarkerGraph : public QCPGraph {
    Q_OBJECT
public:
    /// Draws one marker into the square [0, size] x [0, size] (logical px) of a painter at any scale.
    using PaintMarker = std::function<void(QPainter &painter, double size)>;

    /// A scatter-only graph on @p keyAxis / @p valueAxis with markers @p size logical px wide.
    MarkerGraph(QCPAxis *keyAxis, QCPAxis *valueAxis, double size, PaintMarker paint);

    /// The marker at @p scale device pixels per logical pixel, as a pixmap of device pixel
    /// ratio @p deviceRatio (the paint device's); cached for the last pair asked.
    const QPixmap &markerAt(double scale, double deviceRatio) const;

protected:
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override;

private:
    double m_size;
    PaintMarker m_paint;
    mutable QPixmap m_marker;
    mutable double m_markerScale = 0.0;
    mutable double m_markerRatio = 0.0;
};

} // namespace idlescope
