// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers of the main-window tests: wait for the snapshot an action asks for.
#pragma once

#include "widgets/main_window.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

namespace idlescope::test {

/// The window's settings (recent files, docks, last scenario) in a folder of the test's own,
/// removed with it: a test object holding one never reads the user's settings nor leaves any.
/// A member of the test object: QTEST_MAIN makes it after the application, before any slot.
class IsolatedSettings {
public:
    IsolatedSettings()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("idlescope-tests"));
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
    }

private:
    QTemporaryDir m_dir;
};

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
