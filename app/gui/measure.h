// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file measure.h
 * `idlescope --measure SPANS`: the GUI's two latency budgets timed with
 * QElapsedTimer on the real window (offscreen is fine) and printed —
 * re-simulation + replot after a slider release (target < 100 ms for
 * 1 M entries x 3 governors) and the playback frame (target <= 16 ms).
 */
#pragma once

#include <QtGlobal>

namespace idlescope {

class MainWindow;

/// Runs the measurements on @p w with a periodic IPI stream of @p spans spans; returns an exit code.
int runMeasurements(MainWindow &w, qint64 spans);

} // namespace idlescope
