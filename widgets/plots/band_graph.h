// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file band_graph.h
 * The upper edge of a per-column band (a state timeline's shallowest to
 * deepest state per pixel column), filled down to a lower edge graph with
 * the same keys. Both are step-left series, so the band is a row of
 * axis-aligned rectangles: drawn as rectangle fills it costs a plain span
 * fill per column instead of QCustomPlot's channel fill, which converts
 * both edges to step lines, joins them into one polygon of four points per
 * column and scan-converts that on every replot. Where the two graphs do
 * not share their keys it falls back to the channel fill.
 */
#pragma once

#include "widgets/plots/qcp.h"

#include <QRectF>
#include <QVector>

#include <algorithm>

namespace idlescope {

/**
 * Pixel rectangles of a band between @p low and @p high step-left series
 * with the same keys, in pixels (@p keyToPixel, @p valueToPixel map a
 * coordinate), into @p out: entry i spans keys [key_i, key_(i+1)) and
 * values [low_i, high_i]; none where low_i == high_i; neighbours with the
 * same edges merge into one rectangle. False (and @p out empty) when the
 * two series do not have the same keys.
 */
template <typename KeyToPixel, typename ValueToPixel>
bool stepBandRects(const QCPGraphDataContainer &low, const QCPGraphDataContainer &high, KeyToPixel &&keyToPixel,
                   ValueToPixel &&valueToPixel, QVector<QRectF> &out);

class BandGraph : public QCPGraph {
    Q_OBJECT
public:
    /// The upper edge; setChannelFillGraph(lower edge) and a brush make the band.
    BandGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

protected:
    void drawFill(QCPPainter *painter, QVector<QPointF> *lines) const override;
};

template <typename KeyToPixel, typename ValueToPixel>
bool stepBandRects(const QCPGraphDataContainer &low, const QCPGraphDataContainer &high, KeyToPixel &&keyToPixel,
                   ValueToPixel &&valueToPixel, QVector<QRectF> &out)
{
    out.clear();
    if (low.size() != high.size())
        return false;
    auto l = low.constBegin();
    auto h = high.constBegin();
    for (; l != low.constEnd(); ++l, ++h)
        if (l->key != h->key)
            return false;
    l = low.constBegin();
    h = high.constBegin();
    // One rectangle per run of equal edges: [runStart, next key) x [lo, hi].
    bool open = false;
    double runStart = 0, lo = 0, hi = 0;
    const auto close = [&](double endKey) {
        if (open && hi != lo && endKey != runStart) {
            const double x0 = keyToPixel(runStart), x1 = keyToPixel(endKey);
            const double y0 = valueToPixel(lo), y1 = valueToPixel(hi);
            out.append(
                QRectF(QPointF(std::min(x0, x1), std::min(y0, y1)), QPointF(std::max(x0, x1), std::max(y0, y1))));
        }
        open = false;
    };
    double lastKey = 0;
    for (; l != low.constEnd(); ++l, ++h) {
        lastKey = l->key;
        if (open && l->value == lo && h->value == hi)
            continue;
        close(l->key);
        open = true;
        runStart = l->key;
        lo = l->value;
        hi = h->value;
    }
    // A step-left series ends at its last key: the open run reaches it.
    close(lastKey);
    return true;
}

} // namespace idlescope
