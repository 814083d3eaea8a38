// SPDX-License-Identifier: GPL-3.0-or-later
// Helper of the widget tests that need a snapshot but no window: one run of the runner.
#pragma once

#include "widgets/runner/simulation_runner.h"

#include <QtGlobal>

#include <atomic>

namespace idlescope::test {

/// @p spec simulated once on the calling thread, as the window's runner would; null (and the
/// runner's error printed) when it fails.
inline SnapshotPtr simulateOnce(const ScenarioSpec &spec)
{
    const std::atomic<bool> cancel{false};
    QString error;
    auto snap = SimulationRunner::simulate(spec, nullptr, 1, cancel, &error);
    if (!snap)
        qWarning("simulate: %s", qPrintable(error));
    return snap;
}

} // namespace idlescope::test
