// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file start_size.h
 * The main window's size on its first start, before the user has sized it (a later start
 * restores the geometry saved when the window last closed: MainWindow::applyStartSize()).
 */
#pragma once

#include <QRect>
#include <QSize>

namespace idlescope {

/// The size the window is laid out for: the plots, the Setup dock (285 px) and the
/// Parameters / inspector column (475 px) at their comfortable widths.
inline constexpr QSize COMFORTABLE_WINDOW_SIZE{1600, 1000};

/// COMFORTABLE_WINDOW_SIZE within @p available (a screen's available geometry: the screen
/// less its panels), each side on its own: a 1366 x 738 laptop gets 1366 x 738, a 4K screen
/// 1600 x 1000. An empty @p available (no screen known) leaves the comfortable size.
QSize firstStartSize(const QRect &available);

} // namespace idlescope
