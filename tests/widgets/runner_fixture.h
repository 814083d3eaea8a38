// SPDX-License-Identifier: GPL-3.0-or-later
// Helper of the widget tests that need a snapshot but no window: one run of the runner.
#pragma once

#include "widgets/runner/build_snapshot.h"

#include <QtGlobal>

#include <atomic>

namespace idlescope::test {

/// @p spec simulated once on the calling thread, as the window's runner would after
/// @p previous (numbered one after it); null (and the error printed) when it fails.
inline std::shared_ptr<SimulationSnapshot> simulateOnce(const ScenarioSpec &spec, const SnapshotPtr &previous = nullptr)
{
    const std::atomic<bool> cancel{false};
    SnapshotBuild build = buildSnapshot(spec, previous, cancel);
    if (!build.snapshot)
        qWarning("simulate: %s", qPrintable(build.error));
    else
        build.snapshot->generation = previous ? previous->generation + 1 : 1;
    return build.snapshot;
}

} // namespace idlescope::test
