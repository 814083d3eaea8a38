// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_spec.h
 * What the user asked to simulate, as plain values: the target table (already
 * resolved and possibly edited), the workload recipe, the governors in display
 * order with their tunable settings and colours, and the global knobs of the
 * idle loop. SimulationRunner turns a ScenarioSpec into a SimulationSnapshot;
 * a session file saves and restores exactly this (plus view state).
 *
 * Stable API shared with widgets/session and widgets/inspector: add fields at
 * the end, never change the meaning of one.
 */
#pragma once

#include "core/common/error.h"
#include "core/common/kernel_types.h"
#include "core/replay/governor_run.h"
#include "core/scenario/scenario.h"
#include "core/states/idle_state_table.h"

#include <QColor>
#include <QString>

#include <string>
#include <utility>
#include <vector>

namespace idlescope {

/// Where the target table came from.
enum class TargetKind {
    Builtin, ///< embedded / core/targets
    File,    ///< a table JSON file
    Machine, ///< this machine's sysfs
};

/// Every target kind, in declaration order (round trips, choosers).
inline constexpr TargetKind TARGET_KINDS[] = {TargetKind::Builtin, TargetKind::File, TargetKind::Machine};

/// The name a session file gives @p kind: "builtin", "file" or "machine".
QString targetKindName(TargetKind kind);
/// The kind a session file names @p name; an unknown name is an Error naming @p file and @p field
/// ("target.kind") and the names it could be.
Result<TargetKind> targetKindFromName(const QString &name, const QString &file, const QString &field);

struct TargetSpec {
    TargetKind kind = TargetKind::Builtin;
    QString id;           ///< built-in id (e.g. "pseries-p10") or the table's own id
    QString path;         ///< the JSON file for TargetKind::File, empty otherwise
    IdleStateTable table; ///< the table as resolved, with the user's edits (disabled states, tick_hz)
};

/// How the wakeup stream is produced: core's kinds (core/scenario/scenario.h), one enum for both.
using WorkloadKind = scenario::WorkloadKind;

/// Every workload kind, in declaration order (round trips, choosers).
inline constexpr WorkloadKind WORKLOAD_KINDS[] = {WorkloadKind::Generator, WorkloadKind::Spec, WorkloadKind::ClosedLoop,
                                                  WorkloadKind::Csv, WorkloadKind::Trace};

/// The default number of spans of a generated workload in the window (the CLI's --spans is
/// scenario::DEFAULT_SPANS: a copied command writes --spans always).
inline constexpr qint64 DEFAULT_WORKLOAD_SPANS = 200000;

/**
 * Where the window's spans come from: core's workload source (core/scenario/scenario.h: the
 * kind, the text or file, the spans, seed, CPU and file stamp, in plain types) with what only
 * the window has, its description. Generator and Spec: the text is core's workload spec
 * (what `idlescope-cli compare --workload` takes); a Generator's is one generator with every
 * parameter in its named unit ("periodic:kind=ipi,interval_us=100,..."). Csv and Trace: the
 * stamp is the file's mtime:size when it was opened, so that re-opening a rewritten file is a
 * new workload to every cache (a session's is never used: the file is stamped again).
 * Generator: legacySeeding keeps the seeding of format 1 and 2 sessions
 * (widgets/runner/workload_seeding.h).
 *
 * The window starts from other defaults than core's: a generator, DEFAULT_WORKLOAD_SPANS.
 */
struct WorkloadSourceSpec : scenario::WorkloadSource {
    WorkloadSourceSpec() : WorkloadSourceSpec(WorkloadKind::Generator) {}
    explicit WorkloadSourceSpec(WorkloadKind k) : scenario::WorkloadSource{.kind = k, .spans = DEFAULT_WORKLOAD_SPANS}
    {
    }

    QString description; ///< one human line, e.g. "IPI wakeups every 100 us, 200000 spans"
};

/**
 * The name a session file gives the kind of @p w: "csv", "trace", "spec" (a closed loop too: a
 * session tells it by "loop": "closed"), or a Generator's generator ("periodic"), read from
 * its text.
 */
QString workloadKindName(const WorkloadSourceSpec &w);
/**
 * The kind a session file names @p name, with its "loop" @p loop ("closed" makes a "spec" a
 * closed loop): every generator of core/workloads is WorkloadKind::Generator. An unknown name
 * is an Error naming @p file and @p field ("workload.kind").
 */
Result<WorkloadKind> workloadKindFromName(const QString &name, const QString &loop, const QString &file,
                                          const QString &field);

/// The same spans from @p a and @p b: same kind, text, file, spans, seed, CPU and stamp,
/// whatever their descriptions say.
inline bool sameWorkload(const WorkloadSourceSpec &a, const WorkloadSourceSpec &b)
{
    return a.kind == b.kind && a.text == b.text && a.path == b.path && a.spans == b.spans && a.seed == b.seed
           && a.cpu == b.cpu && a.fileStamp == b.fileStamp && a.legacySeeding == b.legacySeeding;
}

/// One governor column of the comparison: core's governor instance (its variant, label and
/// tunable settings, core/scenario/scenario.h) with what only the window has.
struct GovernorSpec : scenario::GovernorInstance {
    /// In the order the window's code has always listed them (a label last: it came last).
    GovernorSpec(std::string variantId = {}, std::vector<TunableSetting> tunables = {}, QColor colour = {},
                 QString stamp = {}, std::string instanceLabel = {})
        : scenario::GovernorInstance{std::move(variantId), std::move(instanceLabel), std::move(tunables)},
          color(std::move(colour)), sourceStamp(std::move(stamp))
    {
    }

    QColor color; ///< used for this governor in every view
    /// A governor built from source ("src:FILE.c"): sourceFileStamp() of its file when
    /// asked for, so that a saved edit of the file re-simulates it; empty otherwise.
    QString sourceStamp;
};

/// The largest latency limit the window offers (ns): the slider's end, and
/// what a session may ask for.
inline constexpr Ns LATENCY_LIMIT_MAX_NS = 5000000;

/// Everything a run depends on: core's Scenario (scenarioOf()) with where the table came
/// from, the governors' colours and the workload's description.
struct ScenarioSpec {
    TargetSpec target;
    WorkloadSourceSpec workload;
    std::vector<GovernorSpec> governors; ///< display order; the oracle may be one of them
    /// PM QoS resume-latency limit applied to every span (ns), or -1 to keep the stream's column.
    Ns latencyLimitNs = -1;
    /// A wult datapoints.csv whose measured wake latencies are the table's wake delays
    /// (compare's --wake-delays, core/formats/wult_csv.h), read when the scenario runs; "" for
    /// the table's own.
    QString wakeDelaysPath;
};

/// The scenario @p spec asks for, as core resolves and the command line spells it
/// (core/scenario): the table with its edits and tick rate, the workload source, the
/// governor instances, the latency limit and the wake delays file. A closed loop has no latency limit (its
/// spans are made as it runs; the window's slider does not reach it).
scenario::Scenario scenarioOf(const ScenarioSpec &spec);

} // namespace idlescope
