// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file replay_fixture.h
 * Builds a SimulationSnapshot directly from a table, a stream and variant ids
 * with the core replay (no runner, no threads), for the inspector, comparison
 * and export tests.
 */
#pragma once

#include "core/formats/stream_csv.h"
#include "core/io/table_json.h"
#include "core/replay/governor_run.h"
#include "core/stats/run_counts.h"
#include "core/stats/run_lod.h"
#include "tests/test_paths.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QString>

#include <initializer_list>
#include <memory>
#include <string>

namespace idlescope::test {

inline QString conformancePath(const QString &rel)
{
    return kitDir() + QStringLiteral("/") + rel;
}

/// Snapshot of @p variants replayed on @p table and @p stream; empty runs on error.
inline std::shared_ptr<SimulationSnapshot> makeSnapshot(const IdleStateTable &table, IdleStream stream,
                                                        std::initializer_list<const char *> variants)
{
    static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0x55, 0x55, 0x55)};
    auto snap = std::make_shared<SimulationSnapshot>();
    snap->generation = 1;
    snap->table = table;
    snap->targetId = QString::fromStdString(table.id);
    snap->stream = std::make_shared<const IdleStream>(std::move(stream));
    int i = 0;
    for (const char *v : variants) {
        Result<GovernorRun> run = runGovernor(table, *snap->stream, v);
        if (!run) {
            snap->errors << QString::fromStdString(run.error().toString());
            continue;
        }
        GovernorResult g;
        g.run = std::make_shared<const GovernorRun>(std::move(*run));
        g.color = palette[i++ % 4];
        snap->governors.push_back(std::move(g));
    }
    return snap;
}

/// What a runner adds to each run of a snapshot, which the plots refuse a run without:
/// its prefix counts and its plot summaries.
inline void addRunSummaries(SimulationSnapshot &snap)
{
    for (GovernorResult &g : snap.governors) {
        g.counts = RunCounts(*g.run);
        g.lod = RunLod(*g.run, g.counts);
    }
}

/// The conformance stream @p stream ("pipe-wakeups") on table @p table ("pseries-p10").
inline std::shared_ptr<SimulationSnapshot> conformanceSnapshot(const char *stream, const char *table,
                                                               std::initializer_list<const char *> variants)
{
    auto t = readTableJson(conformancePath(QStringLiteral("tables/%1.json").arg(QLatin1String(table))).toStdString());
    auto s = readStreamCsv(conformancePath(QStringLiteral("streams/%1.csv").arg(QLatin1String(stream))).toStdString());
    if (!t || !s)
        return nullptr;
    auto snap = makeSnapshot(*t, std::move(*s), variants);
    snap->workloadDescription = QString::fromLatin1(stream);
    return snap;
}

} // namespace idlescope::test
