// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/plot_palette.h"

#include <QPalette>

namespace idlescope {

namespace {

/// @p share of the way from @p from to @p to.
QColor mix(const QColor &from, const QColor &to, double share)
{
    const auto at = [share](int a, int b) { return static_cast<int>(a + (b - a) * share + 0.5); };
    return QColor(at(from.red(), to.red()), at(from.green(), to.green()), at(from.blue(), to.blue()));
}

} // namespace

PlotPalette PlotPalette::light()
{
    PlotPalette p;
    p.background = QColor(Qt::white);
    p.title = QColor(0x30, 0x30, 0x30);
    p.ink = QColor(0x40, 0x40, 0x40);
    p.muted = QColor(0x50, 0x50, 0x50);
    p.axis = QColor(0x9a, 0x9a, 0x9a);
    p.subTick = QColor(0xc0, 0xc0, 0xc0);
    p.grid = QColor(0xe6, 0xe6, 0xe6);
    p.subGrid = QColor(0xf3, 0xf3, 0xf3);
    p.faint = QColor(0xe2, 0xe2, 0xe2);
    p.reference = QColor(0x70, 0x70, 0x70);
    p.fill = QColor(0xd4, 0xd4, 0xd4);
    p.line = QColor(0x60, 0x60, 0x60);
    return p;
}

PlotPalette PlotPalette::fromPalette(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Active, QPalette::Base);
    if (base.lightness() >= 128)
        return light();
    // The light style's steps, each as far from the background towards the text: a grid as
    // faint on black as on white, labels as strong.
    const QColor text = palette.color(QPalette::Active, QPalette::Text);
    PlotPalette p;
    p.background = base;
    p.title = mix(base, text, 0.85);
    p.ink = mix(base, text, 0.80);
    p.muted = mix(base, text, 0.72);
    p.axis = mix(base, text, 0.45);
    p.subTick = mix(base, text, 0.30);
    p.grid = mix(base, text, 0.14);
    p.subGrid = mix(base, text, 0.07);
    p.faint = mix(base, text, 0.16);
    p.reference = mix(base, text, 0.60);
    p.fill = mix(base, text, 0.25);
    p.line = mix(base, text, 0.65);
    return p;
}

QColor PlotPalette::tint(const QColor &c, double alpha) const
{
    return mix(background, c, alpha);
}

} // namespace idlescope
