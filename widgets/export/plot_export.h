// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file plot_export.h
 * A QCustomPlot view as a PNG (raster), PDF or SVG (vector) file. The plot is
 * rendered to memory first and then written atomically (write-then-rename), so a
 * failed export never leaves a truncated file. SVG goes through
 * QSvgGenerator, PDF through QPdfWriter (vector_figure.h).
 */
#pragma once

#include "core/common/error.h"

#include <QByteArray>
#include <QString>

#include <optional>

class QCustomPlot;
class QWidget;

namespace idlescope {

enum class PlotFormat { Png, Pdf, Svg };

/// The format for a file name's suffix (.png, .pdf, .svg; any case), or nothing.
std::optional<PlotFormat> plotFormatForPath(const QString &path);

/// The bytes of @p plot drawn at @p width x @p height pixels (0: its current
/// size); @p scale multiplies the PNG resolution (2.0 for high-DPI figures).
QByteArray renderPlot(QCustomPlot &plot, PlotFormat format, int width = 0, int height = 0, double scale = 1.0);

/// Renders and writes @p plot to @p path, the format taken from the suffix.
/// Errors: unknown suffix, nothing rendered, the file cannot be written.
Status exportPlot(QCustomPlot &plot, const QString &path, int width = 0, int height = 0, double scale = 1.0);

/// Any widget (e.g. the inspector) as a PNG via QWidget::grab().
Status exportWidgetPng(QWidget &widget, const QString &path);

/// File-dialog filter for plots: "PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)".
QString plotFileFilter();

} // namespace idlescope
