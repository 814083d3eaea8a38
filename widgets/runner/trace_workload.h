// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_workload.h
 * A recorded kernel trace as the window's workload (WorkloadSourceSpec kind
 * "trace"): core/trace imports the file (ftrace text, trace-cmd .dat or
 * report, perf script, plain or gzip) and one CPU's idle spans become the
 * replay stream, exactly as `idlescope-cli import --cpu N --stream` exports
 * them (core/trace/trace_stream.h).
 *
 * The last import is cached, keyed on the file's absolute path, modification
 * time and size: changing the CPU never imports the file again, and a file
 * rewritten on disk is imported afresh. Both entry points may take seconds on
 * a large trace; call them from a worker thread (SimulationRunner's job, or
 * the setup panel's QtConcurrent task), never from the GUI thread.
 */
#pragma once

#include "core/common/error.h"
#include "core/scenario/scenario.h"
#include "core/stream/idle_span.h"
#include "core/trace/table_proposal.h"
#include "core/trace/trace_stream.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace idlescope::trace {
struct TraceImport;
} // namespace idlescope::trace

namespace idlescope {

/// One CPU of an imported trace, as the CPU selector lists it.
struct TraceCpuInfo {
    int cpu = 0;
    qint64 spans = 0;         ///< idle spans exported to the replay stream (what selecting it replays)
    qint64 rows = 0;          ///< their stream rows (one more per in-idle wakeup, trace_stream.h)
    qint64 recordedSpans = 0; ///< idle spans recorded, including those cut by the trace's ends
    qint64 entries = 0;       ///< power:cpu_idle entries
    QString account;          ///< "20785 spans = 0 exported + 20784 missing a sched_switch + 1 cut by the trace's end"
    qint64 timerFallback = 0; ///< exported spans with no known next timer (timer_ns = wake_ns)
    qint64 timerClamped = 0;  ///< exported spans whose next timer expired before the wakeup
};

/// What the workload panel shows after an import.
struct TraceSummary {
    QString path;                       ///< as given
    QString stamp;                      ///< fileStamp() of the file that was imported
    QString format;                     ///< e.g. "ftrace text"
    qint64 events = 0;                  ///< events understood
    std::vector<TraceCpuInfo> cpus;     ///< index = CPU number
    int bestCpu = -1;                   ///< most exported spans (lowest number on ties); -1 when no CPU has one
    qint64 warningTotal = 0;            ///< every structured warning, all kinds
    QStringList warningKinds;           ///< "missing_switch \u00d7 20788", one per kind that occurred
    QStringList firstWarnings;          ///< the first few in full: "file:line: kind (field 'f'): detail"
    bool hasTimerEvents = false;        ///< hrtimer_start seen (sleep lengths known)
    bool hasMissEvents = false;         ///< cpu_idle_miss seen (above/below recorded, not recomputed)
    bool defaultIdleOnly = false;       ///< every entry in state 1 (trace_limits.h: likely no cpuidle driver)
    bool microsecondTimestamps = false; ///< whole-microsecond timestamps (trace_limits.h)
    QString sidecarTable;               ///< "<trace>.table.json" saved by idlescope-cli record, "" when absent
    int statesSeen = 0;                 ///< deepest cpu_idle state entered + 1 (core/trace/table_proposal.h)
    trace::TracedMachine machine;       ///< the machine description beside the trace (table_proposal.h)
};

/// "CPU" value meaning "the CPU with the most idle spans" (idlescope-cli compare --trace's default).
inline constexpr int TRACE_BEST_CPU = scenario::TRACE_BEST_CPU;
/// The CPU selector's "All CPUs": every CPU's lane group (the CPUs dock); the one-CPU
/// views keep the CPU replayed. Never a workload's "cpu".
inline constexpr int TRACE_ALL_CPUS = -2;

/// How far an import has come, written by the importing thread and read by the GUI's: per
/// mille of the file read (-1 while unknown: a .dat counts records, not bytes), and the
/// request to stop it.
struct TraceImportProgress {
    std::atomic<int> permille{-1};
    std::atomic<bool> cancel{false};
};

/// Imports @p path (or takes it from the cache) and summarises it. Errors name the file.
/// @p progress, when given, follows the import and may cancel it ("import cancelled"); a
/// cancelled file is not imported again by traceWorkloadStream() / traceCpuSource() (which
/// give the same error) until traceSummary() is asked for it again.
Result<TraceSummary> traceSummary(const QString &path, TraceImportProgress *progress = nullptr);

/**
 * The replay stream of CPU @p cpu of the trace at @p path (TRACE_BEST_CPU for
 * the CPU with the most spans). Errors name the file and, for a CPU the trace
 * does not have or that has no complete idle span, field "cpu" and the CPU.
 */
Result<IdleStream> traceWorkloadStream(const QString &path, int cpu);

/// One CPU of an imported trace as the window replays it: the import itself
/// (shared with the cache), the CPU, the trace row of every stream row, and
/// the trace's origin (its earliest event: x = 0 of the trace clock).
struct TraceCpuSource {
    std::shared_ptr<const trace::TraceImport> trace;
    int cpu = 0;
    trace::StreamRows rows;         ///< the trace's side of each stream row
    Ns originNs = 0;                ///< trace timestamp of the earliest event (ns)
    std::int64_t timerFallback = 0; ///< rows with no known next timer (timer_ns = wake_ns)
    std::int64_t timerClamped = 0;  ///< rows whose next timer expired before the wakeup
    QString account;                ///< the CPU's span account (trace_stream.h's spanAccountText())
};

/// The source of traceWorkloadStream(@p path, @p cpu) (same CPU choice and errors).
Result<TraceCpuSource> traceCpuSource(const QString &path, int cpu);

/// "<mtime ms>:<size>" of the file now, "" when it does not exist (tells a rewritten trace or
/// stream CSV apart from the one opened before under the same path).
QString fileStamp(const QString &path);

/// Imports done since start (cache misses), and whether the last one ran on the GUI thread (tests).
int traceImportCount();
bool lastTraceImportOnGuiThread();

} // namespace idlescope
