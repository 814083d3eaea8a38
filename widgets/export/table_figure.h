// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file table_figure.h
 * A table of core's writer (table_writer.h) drawn as a figure for a slide: the
 * caption of every figure export above it (figure_export.h: a title saying the
 * scenario and the time the numbers count, the context lines), then a header
 * row of the column names, a row per table row with its numbers right-aligned
 * as the markdown's alignment says, and beside each row's first cell a swatch
 * of the row's colour (the governor's, as in the plots' legends). PDF of one
 * page or SVG (vector_figure.h), the text kept as text: a search in the PDF or
 * the SVG finds every label and number.
 */
#pragma once

#include "core/common/table_writer.h"
#include "widgets/export/figure_export.h"

#include <QByteArray>
#include <QColor>
#include <QList>

namespace idlescope {

/// @p t under @p caption as a PDF or SVG document (empty for PNG); @p rowColours[i] is row
/// i's swatch (none for an invalid colour or a row past the list).
QByteArray renderTableFigure(const table::Table &t, const QList<QColor> &rowColours, PlotFormat format,
                             const FigureCaption &caption);

} // namespace idlescope
