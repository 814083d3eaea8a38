// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file compare_command.h
 * "Copy as command": the `idlescope-cli compare …` line that reproduces the
 * window's comparison table — the table (a built-in id, or a table file),
 * HZ, the workload spec with its seed and span count (one iteration: the
 * window replays one stream), the latency limit (as the generator's
 * latency_req_us), every governor with its changed tunables (--set
 * GOVERNOR:NAME=VALUE), or the stream file / trace and its CPU.
 *
 * What the command cannot carry is said, not hidden: an edited table needs a
 * table file (the caller offers to save one and passes its path), and a
 * scenario of an old session that still uses the legacy seeding gets other
 * spans from the CLI (core/workloads/workload_spec.h, legacyDirectSeedStream).
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

#include <QStringList>

namespace idlescope {

struct CompareCommand {
    QStringList args; ///< the arguments after "idlescope-cli", "compare" first
    QString text;     ///< the whole line, quoted for a POSIX shell
    /// The table differs from the one its id or file names: the command needs a table
    /// file (tablePath) to reproduce it; without one it names the unedited table.
    bool tableEdited = false;
    bool legacySeeding = false; ///< the workload uses the legacy seeding: the CLI's spans differ
    /// Everything the command does not reproduce, one sentence each ("" items never).
    QStringList caveats;
};

/**
 * The command for @p spec. @p tablePath, when not empty, is a table JSON file holding
 * spec.target.table (an edited table saved beside the command); @p traceCpu the CPU a
 * trace workload replayed (the snapshot's choice when the spec says "the busiest CPU").
 */
CompareCommand compareCommand(const ScenarioSpec &spec, const QString &tablePath = {}, int traceCpu = -1);

/// The `--workload` spec of a generator workload @p spec: its text (every parameter in its named
/// unit) with the latency limit as latency_req_us; @p param, when given, takes the text
/// @p paramText instead (a sweep's "5/50/500"). Empty for any other kind of workload.
QString workloadSpecText(const ScenarioSpec &spec, const QString &param = {}, const QString &paramText = {});

/// @p arg quoted for a POSIX shell when it needs it ("a b" -> 'a b', "it's" -> 'it'\''s').
QString shellQuoted(const QString &arg);

} // namespace idlescope
