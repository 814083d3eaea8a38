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
#include <QStringList>

class QCustomPlot;
class QWidget;

namespace idlescope {

/// Narrowest PNG a figure export writes (pixels).
inline constexpr int MIN_FIGURE_PNG_WIDTH = 1200;

/// One governor in a figure's legend.
struct LegendEntry {
    QString name; ///< e.g. "menu-6.14"
    QColor color; ///< its colour in every view
};

/// What is drawn above the plot.
struct FigureCaption {
    QString title;             ///< e.g. "Selected state over time — pseries-p10, IPI wakeups every 100 us"
    QList<LegendEntry> legend; ///< in display order; empty: no legend line
    QStringList context;       ///< smaller lines under the title: scenario_context.h
};

/// The size of an exported figure. The plot keeps the window's width in logical pixels
/// (so its fonts and lines keep their proportions) and is scaled to @p pngWidth pixels.
struct FigureShape {
    int pngWidth = 0;  ///< PNG width in pixels; 0: the window's size scaled to >= MIN_FIGURE_PNG_WIDTH
    double aspect = 0; ///< width / height of the whole figure, caption included (16/9 for slides); 0: the window's
};

/// 1920 x 1080 and 3840 x 2160: slides.
inline constexpr FigureShape SLIDE_FHD{1920, 16.0 / 9.0};
inline constexpr FigureShape SLIDE_UHD{3840, 16.0 / 9.0};

/// The governors of @p snapshot (variant names and colours) in display order.
QList<LegendEntry> legendFor(const SimulationSnapshot &snapshot);

/// The figure's bytes: @p caption above @p plot drawn at the plot's current size
/// (800x500 when it has none); a PNG is scaled to at least MIN_FIGURE_PNG_WIDTH px.
QByteArray renderFigure(QCustomPlot &plot, PlotFormat format, const FigureCaption &caption,
                        const FigureShape &shape = {});

/// Renders and writes the figure to @p path (format from the suffix: .png, .pdf, .svg).
/// Errors: unknown suffix, nothing rendered, the file cannot be written.
Status exportFigure(QCustomPlot &plot, const QString &path, const FigureCaption &caption,
                    const FigureShape &shape = {});

/// A file name for a figure titled @p title, without the title's symbols and brackets:
/// "Predicted idle duration (●) vs measured residency (○)" -> "predicted-idle-duration-vs-measured-residency"
/// plus "." and @p suffix; "figure.<suffix>" when nothing of the title is left.
QString figureFileName(const QString &title, const QString &suffix = QStringLiteral("png"));

/// One figure of "Export all plots".
struct FigureSource {
    QCustomPlot *plot = nullptr;
    QString title; ///< names the file (figureFileName)
    FigureCaption caption;
};

/// Writes every figure into the folder @p dir as figureFileName(title, @p suffix); the paths
/// written, or the first error (the figures before it stay written).
Result<QStringList> exportAllFigures(const QList<FigureSource> &figures, const QString &dir,
                                     const QString &suffix = QStringLiteral("png"));

/// Asks for a file name and a shape (the filter: PNG as in the window, PNG 1920 x 1080 or
/// 3840 x 2160 for slides, PDF, SVG) and exports the figure; a message box on failure.
void exportFigureWithDialog(QCustomPlot &plot, QWidget *parent, const QString &suggestedName,
                            const FigureCaption &caption);

} // namespace idlescope
