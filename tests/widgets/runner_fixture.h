// SPDX-License-Identifier: GPL-3.0-or-later
// Helper of the widget tests that need a snapshot but no window: one run of the runner.
#pragma once

#include "core/io/table_json.h"
#include "widgets/runner/build_snapshot.h"

#include <QtGlobal>

#include <atomic>

namespace idlescope::test {

/// The target the Target picker sets for the table file @p tablePath: its table, named by
/// the table's id (a file that does not read is the test's own error: value() throws).
inline TargetSpec fileTarget(const QString &tablePath)
{
    TargetSpec t;
    t.kind = TargetKind::File;
    t.path = tablePath;
    t.table = readTableJson(tablePath.toStdString()).value();
    t.id = QString::fromStdString(t.table.id);
    return t;
}

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
