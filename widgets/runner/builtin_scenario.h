// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file builtin_scenario.h
 * What the window can simulate without any file: the embedded POWER10 LPAR
 * table, the periodic timer / IPI wakeup generator, and the default scenario
 * shown on first start. Also resolves a TargetSpec / WorkloadSpec into a
 * table / stream (built-in, JSON table file, conformance CSV stream).
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"
#include "core/stream/idle_span.h"
#include "widgets/runner/scenario_spec.h"

#include <QColor>
#include <QStringList>

namespace idlescope {

/// drivers/cpuidle/cpuidle-pseries.c dedicated_states on a POWER10 LPAR:
/// snooze (polling, 0/0) and CEDE (exit latency 12 us, target residency 120 us), HZ = 100.
IdleStateTable power10LparTable();

/// Built-in target ids, first is the default.
QStringList builtinTargetIds();
/// The built-in table of @p id, or an Error.
Result<IdleStateTable> builtinTable(const QString &id);

/// Parameters of the periodic generator (all times in ns).
struct PeriodicParams {
    enum class Kind { Ipi, Timer };
    Kind kind = Kind::Ipi;       ///< Ipi: an interrupt ends the span, the next timer is far; Timer: the timer ends it
    Ns periodNs = 100000;        ///< wakeup period (span + busy gap)
    Ns busyNs = 3000;            ///< busy time between spans (<= period)
    Ns farTimerNs = 20000000;    ///< Ipi only: time from span start to the next timer
    int jitterPermille = 0;      ///< uniform +- jitter of the idle part, per mille of it (0..500)
    std::int64_t spans = 200000; ///< spans to generate (>= 1)
    std::uint64_t seed = 1;      ///< for the jitter (splitmix64)
};

/// A stream of periodic wakeups; Error on nonsense parameters (named field).
Result<IdleStream> periodicStream(const PeriodicParams &p);

/// The parameters stored in a WorkloadSpec of kind "periodic" (keys: kind, period_ns, busy_ns,
/// far_timer_ns, jitter_permille, spans, seed), and back.
QVariantMap periodicToParams(const PeriodicParams &p);
Result<PeriodicParams> periodicFromParams(const QVariantMap &m);
/// "IPI wakeups every 100 us, 200000 spans".
QString describePeriodic(const PeriodicParams &p);

/// Resolves a workload into a stream (generator or file). Errors name the file/field.
Result<IdleStream> buildStream(const WorkloadSpec &w);

/// The colour of the n-th governor of a selection (oracle has its own neutral grey).
QColor governorColor(int n, const std::string &variant);

/// First start: POWER10 LPAR, IPI every 100 us, menu-6.14 vs menu-resthresh vs teo-6.14 + oracle
/// (only the variants that are registered).
ScenarioSpec defaultScenario();

} // namespace idlescope
