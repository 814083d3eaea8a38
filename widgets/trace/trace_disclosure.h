// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_disclosure.h
 * What a trace cannot tell, said where the results are read: spans replayed
 * with the optimistic sleep-length fallback (no hrtimer events, or no timer
 * armed on the CPU: the simulated governors then see the wakeup as their
 * next timer, a perfect prediction), spans not replayed (cut by the trace's
 * edges, missing a sched_switch), and where above/below of the recorded run
 * come from. The workload panel and the comparison table show these lines.
 */
#pragma once

#include "core/states/idle_state_table.h"
#include "widgets/runner/trace_workload.h"

#include <QStringList>

namespace idlescope {

/// The facts the sentences are made of.
struct TraceFacts {
    bool hasTimerEvents = false;
    bool hasMissEvents = false;
    qint64 spans = 0;                   ///< replayed (exported) spans
    qint64 rows = 0;                    ///< their stream rows (one more per in-idle wakeup), 0 unknown
    bool defaultIdleOnly = false;       ///< trace_limits.h: likely no cpuidle driver
    bool microsecondTimestamps = false; ///< trace_limits.h: residencies rounded to 1 us
    qint64 recordedSpans = 0;           ///< every span of the CPU
    qint64 timerFallback = 0;
    qint64 timerClamped = 0;
    QString account;             ///< spanAccountText()
    qint64 entries = -1;         ///< complete recorded entries of the CPU, -1 unknown
    qint64 entriesReplayed = -1; ///< those inside the replayed spans (the recorded row's), -1 unknown
};

/// One sentence per thing to disclose (the last says where the recorded above/below come from).
QStringList traceDisclosure(const TraceFacts &facts);
/// The facts of CPU @p cpu of @p summary (empty list for a CPU it lacks).
QStringList traceDisclosure(const TraceSummary &summary, int cpu);
/// The facts of the CPU a snapshot replayed on @p table, with the recorded row's entry counts
/// and whether the trace entered states the table lacks.
QStringList traceDisclosure(const TraceCpuSource &source, const IdleStateTable &table);

} // namespace idlescope
