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
#include "core/states/idle_state_table.h"

#include <QColor>
#include <QString>
#include <QVariantMap>

#include <string>
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

/// How the wakeup stream is produced.
struct WorkloadSpec {
    QString kind;        ///< "periodic" (built-in generator), "csv" (conformance stream file), or a
                         ///< generator id from core/workloads
    QString path;        ///< stream file for kind "csv"
    QVariantMap params;  ///< generator parameters by name (numbers in ns / counts; see the generator)
    QString description; ///< one human line, e.g. "IPI wakeups every 100 us, 200000 spans"
};

/// The same spans from @p a and @p b: same kind, file and parameters (a file's stamp among
/// them), whatever their descriptions say.
inline bool sameWorkload(const WorkloadSpec &a, const WorkloadSpec &b)
{
    return a.kind == b.kind && a.path == b.path && a.params == b.params;
}

/// One governor column of the comparison.
struct GovernorSpec {
    std::string variant;                  ///< registry id, e.g. "menu-6.14"
    std::vector<TunableSetting> settings; ///< tunables that differ from the kernel default
    QColor color;                         ///< used for this governor in every view
    /// A governor built from source ("src:FILE.c"): sourceFileStamp() of its file when
    /// asked for, so that a saved edit of the file re-simulates it; empty otherwise.
    QString sourceStamp;
    /// A second instance of a variant (the same variant at other tunables): its label, unique
    /// among the scenario's governors (workloads::governorLabelProblem() says which are valid);
    /// empty for a variant's own instance, named by its id.
    std::string label;

    /// The governor's name in every view, and its key among the scenario's governors
    /// (colours, tunables, selection): its label, else its variant id.
    const std::string &name() const { return label.empty() ? variant : label; }
};

/// The largest latency limit the window offers (ns): the slider's end, and
/// what a session may ask for.
inline constexpr Ns LATENCY_LIMIT_MAX_NS = 5000000;

/// Everything a run depends on.
struct ScenarioSpec {
    TargetSpec target;
    WorkloadSpec workload;
    std::vector<GovernorSpec> governors; ///< display order; the oracle may be one of them
    /// PM QoS resume-latency limit applied to every span (ns), or -1 to keep the stream's column.
    Ns latencyLimitNs = -1;
};

} // namespace idlescope
