// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file vector_figure.h
 * A QCustomPlot view as a PDF or SVG document, in the plot's logical pixels,
 * with an optional header (a figure's caption) drawn above it; or any drawing
 * (a table) as the same documents.
 *
 * Two things the plain QCustomPlot::toPainter() route got wrong:
 * - PDF: QPdfWriter draws at 1200 dpi, so a 9 pt font was 150 device pixels
 *   in a window of logical pixels (every glyph ~17 times too large). The
 *   document is written at the plot's own logical DPI instead, the page
 *   sized in points from it.
 * - SVG: Qt's SVG generator ignores clipping (Qt 6.4), so data drawn past the
 *   axes (lines, bars of a zoomed view) ran over the labels and the edge.
 *   The SVG is drawn in passes, one per run of layerables that share a clip
 *   (a plottable's axis rect, an item clipped to its axis rect, or none), and
 *   each clipped pass is wrapped in an SVG clip path of its axis rect.
 */
#pragma once

#include "widgets/export/plot_export.h"

#include <QByteArray>
#include <QSize>
#include <QString>

#include <functional>

class QCustomPlot;
class QPainter;

namespace idlescope {

/// Draws what goes above the plot, in logical pixels from (0, 0).
using PaintHeader = std::function<void(QPainter &)>;

/// @p plot at @p size logical pixels below @p headerHeight pixels painted by @p header
/// (none when 0), as a PDF or SVG document titled @p title. Empty for PlotFormat::Png.
QByteArray renderVectorFigure(QCustomPlot &plot, PlotFormat format, QSize size, const QString &title,
                              int headerHeight = 0, const PaintHeader &header = {});

/// A drawing of @p size logical pixels at @p dpi, painted by @p paint from (0, 0), as a PDF
/// of one page or an SVG document titled @p title (a table drawn as a figure: table_figure.h).
/// Empty for PlotFormat::Png.
QByteArray renderVectorDrawing(PlotFormat format, QSize size, int dpi, const QString &title, const PaintHeader &paint);

} // namespace idlescope
