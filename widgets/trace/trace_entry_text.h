// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_entry_text.h
 * What the inspector says about an entry when the workload is a kernel
 * trace: where its span is in the trace (timestamp, CPU, what woke it), how
 * far a simulated run's own clock had drifted there, and, for the recorded
 * run, the kernel's choice beside every simulated governor's and the
 * oracle's for the same wakeup ("the kernel entered C1E here for 48 µs;
 * menu-6.14 would have chosen C6; the oracle C1E").
 *
 * Pure functions of a snapshot (no widget), so that tests read the same
 * text the panel shows.
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

#include <QList>
#include <QString>

namespace idlescope::trace {
struct IdleEntryRec;
}

namespace idlescope {

/// True when run @p g of @p snap is the kernel's recorded choices.
bool isRecordedRun(const SimulationSnapshot &snap, int g);

/// The trace timestamp (ns, on the trace's clock) at which entry @p i of run @p g starts:
/// for the recorded run its cpu_idle enter, for a simulated one its span's start plus the
/// entry's offset in the span. -1 without a trace.
Ns entryTraceNs(const SimulationSnapshot &snap, int g, std::int64_t i);

/// The span entry @p i of run @p g belongs to, as the user finds it elsewhere: for a trace,
/// the trace's own span (idlescope-cli import --spans numbers them so, and every entry of it
/// has the same number, whichever of its in-idle rows it was selected in); for a stream, its
/// row. -1 out of range.
std::int64_t entrySpanNumber(const SimulationSnapshot &snap, int g, std::int64_t i);

/// Where the plots draw entry @p i of run @p g: its startNs on the workload's clock (a trace's
/// time since its first event, a stream's time); -1 out of range. Every run, recorded or
/// simulated, is on this one clock.
Ns entryAxisNs(const SimulationSnapshot &snap, int g, std::int64_t i);

/// The inspector's "at …" for entry @p i of run @p g: its axis time and the clock's name; on a
/// trace the time as every view of it writes it (traceAxisText()) and, labelled, the
/// trace-cmd timestamp ("0.182378 s trace time (trace-cmd 2084.203821 s)"); on a stream
/// "182.4 ms stream time". "" out of range.
QString entryTimeText(const SimulationSnapshot &snap, int g, std::int64_t i);

/// A time on a trace's axis (ns since its first event, where the lanes and plots draw it) as
/// every view of the trace writes it: seconds with six decimals and the unit, "0.182378 s".
/// The digits are traceTimestampText()'s, so that it and the trace-cmd timestamp differ by the
/// origin the axis title names and nothing else.
QString traceAxisText(Ns axisNs);

/// "trace-cmd 2084.203821 s": a trace timestamp labelled as the one `trace-cmd report` prints,
/// beside (or in a tooltip of) a traceAxisText(), for cross-referencing the report.
QString traceCmdText(Ns traceNs);

/// True when a simulated entry [@p simStartNs, + @p simLengthNs) covers another stretch of
/// time than the recorded one [@p recStartNs, + @p recLengthNs): they overlap by less than half
/// of the longer one (a simulated entry over a whole span that the kernel split into several).
bool coversAnotherStretch(Ns recStartNs, Ns recLengthNs, Ns simStartNs, Ns simLengthNs);

/// A trace timestamp as trace-cmd report prints it: seconds with six decimals, rounded ("2301.563207").
QString traceTimestampText(Ns ns);

/// The first entry of stream row @p row in @p run, or -1 (span is sorted).
std::int64_t firstEntryOfSpan(const GovernorRun &run, std::int32_t row);

/// "the kernel entered C1E here for 48 µs; menu-6.14 would have chosen C6; the oracle C1E":
/// one sentence for recorded entry @p i (each simulated run's entry of the same span that was
/// running when the kernel entered; named by its start and length when it covers another
/// stretch of time, coversAnotherStretch()).
QString recordedVerdict(const SimulationSnapshot &snap, int g, std::int64_t i);

/// The inspector's HTML for recorded entry @p i: the verdict, its residency, miss and cause.
QString recordedEntryHtml(const SimulationSnapshot &snap, int g, std::int64_t i);

/// The "In the trace" section: timestamp, CPU, span, the event that woke it. Empty without a trace.
QString traceSourceHtml(const SimulationSnapshot &snap, int g, std::int64_t i);

/// The recorded entry behind entry @p i of run @p g: the entry itself for the recorded run, the
/// span's last recorded entry (its wakeup) for a simulated one; null without a trace.
const trace::IdleEntryRec *traceSourceEntry(const SimulationSnapshot &snap, int g, std::int64_t i);

/// One raw event of the trace that made an entry, at its line (text) or record number (.dat).
struct TraceSourceEvent {
    std::int64_t at = 0;
    QString text; ///< as trace-cmd report prints the event, e.g. "cpu_idle: state=2 cpu_id=4"
};

/// The cpu_idle enter, the event that woke the CPU (when known) and the cpu_idle exit of @p e,
/// in source order; empty when the import has no positions.
QList<TraceSourceEvent> traceSourceEvents(const SimulationSnapshot &snap, const trace::IdleEntryRec &e);

/// "line" for a text trace, "record" for a .dat.
QString traceSourceUnit(const SimulationSnapshot &snap);

/// traceSourceEvents() as the inspector's small list.
QString traceEventsHtml(const SimulationSnapshot &snap, const trace::IdleEntryRec &e);

/// How far simulated run @p g's own clock had drifted from the workload's at entry @p i's span
/// (ns; the run's exit latencies and poll limits). 0 for the recorded run.
Ns entryDriftNs(const SimulationSnapshot &snap, int g, std::int64_t i, Ns simulatedNowNs);

} // namespace idlescope
