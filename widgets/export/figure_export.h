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
class QFont;
class QPainter;
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

/// The size of an exported figure. The plot is laid out @p logicalWidth logical pixels wide
/// (the window's width when 0: its fonts and lines keep their proportions) and scaled to
/// @p pngWidth pixels.
struct FigureShape {
    int pngWidth = 0;     ///< PNG width in pixels; 0: the window's size scaled to >= MIN_FIGURE_PNG_WIDTH
    double aspect = 0;    ///< width / height of the whole figure, caption included (16/9 for slides); 0: the window's
    int logicalWidth = 0; ///< layout width in logical pixels (vector forms: their size); 0: the window's
};

/// 1920 x 1080 and 3840 x 2160: slides. Laid out 1024 logical pixels wide whatever the pane's
/// width: a 444 px pane made a 16:9 figure 250 px tall, half of it the caption, and its axis
/// labels ran into each other.
inline constexpr FigureShape SLIDE_FHD{1920, 16.0 / 9.0, 1024};
inline constexpr FigureShape SLIDE_UHD{3840, 16.0 / 9.0, 1024};
/// "All plots to a folder": every figure 960 x 600 logical pixels (a PNG 1600 x 1000), whatever
/// the shape of its pane (a narrow pane made a 1200 x 2864 strip).
inline constexpr FigureShape FOLDER_FIGURE{1600, 16.0 / 10.0, 960};

/// The height of @p caption drawn @p width logical pixels wide in @p font (the title in bold,
/// the context lines smaller, the legend's chips): what goes above a figure, plot or table.
int captionHeight(const QFont &font, const FigureCaption &caption, int width);
/// Draws @p caption on @p p from (0, 0) on white, @p width x @p height logical pixels.
void paintCaption(QPainter &p, const QFont &font, const FigureCaption &caption, int width, int height);

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

/**
 * The time a time plot shows, for its figure's title: "t = 0 to 3 ms of 2.29 s (zoomed)" when
 * [@p startNs, @p endNs] is part of the run [@p fullStartNs, @p fullEndNs], "whole run, 2.29 s"
 * when it is all of it. A figure titled by its workload ("200000 spans") that showed the
 * window's zoom without saying so read as the whole run.
 */
QString shownRangeText(qint64 startNs, qint64 endNs, qint64 fullStartNs, qint64 fullEndNs);

/// One figure of "Export all plots".
struct FigureSource {
    QCustomPlot *plot = nullptr;
    QString title; ///< names the file (figureFileName)
    FigureCaption caption;
};

/// Writes every figure into the folder @p dir as figureFileName(title, @p suffix), each of
/// @p shape; the paths written, or the first error (the figures before it stay written).
Result<QStringList> exportAllFigures(const QList<FigureSource> &figures, const QString &dir,
                                     const QString &suffix = QStringLiteral("png"),
                                     const FigureShape &shape = FOLDER_FIGURE);

/// Asks for a folder and a format (PNG 1600 x 1000, PNG for slides, PDF, SVG) and writes every
/// figure there; "" when cancelled, else a line to show ("Wrote 6 figures to …" or the error).
QString exportAllFiguresWithDialog(const QList<FigureSource> &figures, QWidget *parent, bool *failed);

/// Asks for a file name and a shape (the filter: PNG as in the window, PNG 1920 x 1080 or
/// 3840 x 2160 for slides, PDF, SVG) and exports the figure; a message box on failure.
void exportFigureWithDialog(QCustomPlot &plot, QWidget *parent, const QString &suggestedName,
                            const FigureCaption &caption);

} // namespace idlescope
