// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_context.h
 * What an exported table or figure was computed from, in lines a reader can
 * check against their own run: the target table and every cell the user
 * edited in it, the tick rate (HZ), the latency limit, the workload with its
 * seed, and each governor's tunables that differ from the kernel's (what the
 * "modified" badge stands for). Figure captions, the comparison table's
 * CSV / Markdown / JSON carry them.
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

#include <QStringList>

namespace idlescope {

/// The table @p target was resolved from before any edit (a built-in table or a table
/// file read again); empty when it cannot be known (this machine's sysfs).
std::optional<IdleStateTable> originalTable(const TargetSpec &target);

/// The cells of @p edited that differ from @p original, e.g. "CEDE exit latency 15 µs (table 12 µs)",
/// "snooze disabled"; empty when the tables do not have the same states.
QStringList tableEdits(const IdleStateTable &original, const IdleStateTable &edited);

/// One line each: "Table: …", "HZ: …", "Latency limit: …", "Workload: … (seed N)", then
/// "<variant>: NAME=VALUE, …" for each governor with changed tunables.
QStringList scenarioContext(const ScenarioSpec &spec);

/// "Written by idlescope VERSION" (the application's version; "idlescope" alone where none is
/// set, as in tests): the line an export names its producer with.
QString producerLine();

struct SimulationSnapshot;
/// What every export of @p snap's results carries: scenarioContext() of its scenario (the
/// table's id and HZ, and the workload, for a snapshot of no scenario), then "Trace: …" for
/// each thing its trace cannot tell (trace_disclosure.h) and a closed loop's note.
QStringList resultContext(const SimulationSnapshot &snap);

/// The name an export of @p snap's results is proposed under, before its "-what.suffix": a
/// trace's or stream file's name without its suffixes ("lisa-juno-sched_load-6cpu"), else the
/// table and the workload's kind ("pseries-power10-lpar-periodic"); "idlescope" for a
/// snapshot of no scenario. Safe as a file name: characters other than letters, digits, '-',
/// '_' and '.' become '-'.
QString exportBaseName(const SimulationSnapshot &snap);

} // namespace idlescope
