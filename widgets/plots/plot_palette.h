// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file plot_palette.h
 * The colours a plot draws its frame with: background, title, axes, grid,
 * labels. On screen they follow the desktop's palette (a dark colour scheme
 * gives dark plots: the backgrounds were white whatever the desktop), and an
 * export always uses light(), the fixed light style of a figure on paper or a
 * slide, whatever the screen shows. The governors' own colours are not part
 * of it: they name the governors in every view and every export.
 */
#pragma once

#include <QColor>

class QPalette;

namespace idlescope {

struct PlotPalette {
    QColor background; ///< the plot's and its axis rects' fill
    QColor title;      ///< the plot's title
    QColor ink;        ///< axis labels and tick labels
    QColor muted;      ///< captions and notes drawn inside the plot
    QColor axis;       ///< axis lines and ticks
    QColor subTick;    ///< minor ticks
    QColor grid;       ///< grid lines
    QColor subGrid;    ///< minor grid lines
    QColor faint;      ///< guides that must not compete with data (lane floors and ceilings)
    QColor reference;  ///< reference lines (target residencies)
    QColor fill;       ///< a neutral bar fill (the stream's own histogram)
    QColor line;       ///< a neutral outline

    /// The fixed light style: every export, and the screen under a light palette.
    static PlotPalette light();
    /// The screen's: light() under a light palette (a light Base colour), else colours mixed
    /// from @p palette's Base (background) and Text.
    static PlotPalette fromPalette(const QPalette &palette);
    /// True when the background is dark (lightness below half).
    bool isDark() const { return background.lightness() < 128; }
    /// @p c at strength @p alpha over the background, as an opaque colour (cheap to fill).
    QColor tint(const QColor &c, double alpha) const;

    bool operator==(const PlotPalette &) const = default;
};

} // namespace idlescope
