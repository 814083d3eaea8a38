// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers of the main-window tests: wait for the snapshot an action asks for.
#pragma once

#include "widgets/main_window.h"

#include <QSignalSpy>

namespace idlescope::test {

/// How long a window test waits for a simulation (the machine is shared; never a timing assertion).
inline constexpr int WINDOW_TIMEOUT_MS = 120000;

/// Waits for the next snapshot shown after @p action; null when none came.
template <typename F>
SnapshotPtr nextSnapshot(MainWindow &w, F &&action)
{
    QSignalSpy spy(&w, &MainWindow::snapshotShown);
    action();
    if (!spy.wait(WINDOW_TIMEOUT_MS) && spy.isEmpty())
        return nullptr;
    return w.snapshot();
}

} // namespace idlescope::test
