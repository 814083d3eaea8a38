// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file figure_export.h
 * A plot exported as a figure that can be read on its own: a title line (the
 * plot's name and the scenario) and a legend of the governors' colours are
 * drawn above the QCustomPlot view, and a PNG is rendered at least
 * MIN_FIGURE_PNG_WIDTH pixels wide (the view's own size, often ~450 px in the
 * window, is scaled up, so fonts and lines keep their proportions). PDF and
 * SVG are vector output of the same layout. Files are written atomically
 * (plot_export.h).
 */
#pragma once

#include "core/common/error.h"
#include "widgets/export/plot_export.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QColor>
#include <QList>
#include <QString>

class QCustomPlot;
class QWidget;

namespace idlescope {

/// Narrowest PNG a figure export writes (pixels).
inline constexpr int MIN_FIGURE_PNG_WIDTH = 1200;

/// One governor in a figure's legend.
struct LegendEntry {
    QString name;  ///< e.g. "menu-6.14"
    QColor color;  ///< its colour in every view
};

/// What is drawn above the plot.
struct FigureCaption {
    QString title;             ///< e.g. "Selected state over time — pseries-p10, IPI wakeups every 100 us"
    QList<LegendEntry> legend; ///< in display order; empty: no legend line
};

/// The governors of @p snapshot (variant names and colours) in display order.
QList<LegendEntry> legendFor(const SimulationSnapshot &snapshot);

/// The figure's bytes: @p caption above @p plot drawn at the plot's current size
/// (800x500 when it has none); a PNG is scaled to at least MIN_FIGURE_PNG_WIDTH px.
QByteArray renderFigure(QCustomPlot &plot, PlotFormat format, const FigureCaption &caption);

/// Renders and writes the figure to @p path (format from the suffix: .png, .pdf, .svg).
/// Errors: unknown suffix, nothing rendered, the file cannot be written.
Status exportFigure(QCustomPlot &plot, const QString &path, const FigureCaption &caption);

/// Asks for a file name and exports the figure; a message box on failure.
void exportFigureWithDialog(QCustomPlot &plot, QWidget *parent, const QString &suggestedName,
                            const FigureCaption &caption);

} // namespace idlescope
