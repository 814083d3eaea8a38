// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file measure.h
 * `idlescope --measure SPANS [--jitter US]`: the GUI's two latency budgets timed with
 * QElapsedTimer on the real window (offscreen is fine) and printed —
 * re-simulation + replot after a slider release (target < 100 ms for
 * 1 M entries x 3 governors) and the playback frame (target <= 16 ms).
 */
#pragma once

#include <QtGlobal>

namespace idlescope {

class MainWindow;

/// Runs the measurements on @p w with the default scenario's table and
/// governors (no oracle) and its IPI wakeups every 100 us, @p spans of them,
/// +-@p jitterUs us apart; returns an exit code.
int runMeasurements(MainWindow &w, qint64 spans, qint64 jitterUs);

} // namespace idlescope
