// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/trace_disclosure.h"

#include "core/trace/trace_limits.h"
#include "core/trace/trace_model.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <set>

namespace idlescope {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("TraceDisclosure", text);
}

} // namespace

QStringList traceDisclosure(const TraceSummary &summary, int cpu)
{
    if (cpu < 0 || static_cast<std::size_t>(cpu) >= summary.cpus.size())
        return {};
    const TraceCpuInfo &c = summary.cpus[static_cast<std::size_t>(cpu)];
    TraceFacts f;
    f.hasTimerEvents = summary.hasTimerEvents;
    f.hasMissEvents = summary.hasMissEvents;
    f.spans = c.spans;
    f.rows = c.rows;
    f.recordedSpans = c.recordedSpans;
    f.timerFallback = c.timerFallback;
    f.timerClamped = c.timerClamped;
    f.account = c.account;
    f.defaultIdleOnly = summary.defaultIdleOnly;
    f.microsecondTimestamps = summary.microsecondTimestamps;
    return traceDisclosure(f);
}

QStringList traceDisclosure(const TraceCpuSource &source, const IdleStateTable &table)
{
    const trace::CpuTrace &cpu = source.trace->cpus[static_cast<std::size_t>(source.cpu)];
    TraceFacts f;
    f.hasTimerEvents = source.trace->hasTimerEvents;
    f.hasMissEvents = source.trace->hasMissEvents;
    f.spans =
        static_cast<qint64>(std::set<std::int32_t>(source.rows.spanIndex.begin(), source.rows.spanIndex.end()).size());
    f.rows = static_cast<qint64>(source.rows.size());
    f.recordedSpans = static_cast<qint64>(cpu.spans.size());
    f.timerFallback = source.timerFallback;
    f.timerClamped = source.timerClamped;
    f.account = source.account;
    const trace::TraceLimits limits = trace::traceLimits(*source.trace);
    f.defaultIdleOnly = limits.defaultIdleOnly;
    f.microsecondTimestamps = limits.microsecondTimestamps;
    f.entries = 0;
    for (const trace::IdleEntryRec &e : cpu.entries)
        f.entries += (e.flags & trace::ENTRY_TRUNCATED) ? 0 : 1;
    f.entriesReplayed = trace::completeEntriesIn(cpu, source.rows);
    QStringList out = traceDisclosure(f);
    int deepest = -1;
    for (const trace::IdleEntryRec &e : cpu.entries)
        deepest = std::max<int>(deepest, e.state);
    if (deepest >= table.count())
        out.prepend(tr("The trace entered state %1, which table %2 lacks (it has %3 states): those entries are drawn "
                       "in its deepest state and their misses are not recomputed. Choose the traced machine's table.")
                        .arg(deepest)
                        .arg(QString::fromStdString(table.id))
                        .arg(table.count()));
    return out;
}

QStringList traceDisclosure(const TraceFacts &c)
{
    QStringList out;
    const QLocale locale;
    if (!c.hasTimerEvents)
        out << tr("No hrtimer events in the trace: every replayed row takes its wakeup as its next timer "
                  "(the optimistic sleep length), so every simulated governor knows the future and their "
                  "misses are a lower bound.");
    else if (c.timerFallback > 0)
        out << tr("%1 of %2 replayed rows have no known next timer and take their wakeup as it (the "
                  "optimistic sleep length): the simulated governors' misses there are a lower bound.")
                   .arg(locale.toString(c.timerFallback), locale.toString(c.rows > 0 ? c.rows : c.spans));
    if (c.timerClamped > 0)
        out << tr("%1 spans' next timer expired before they ended (it woke the CPU without ending the span): "
                  "replayed as ended by their wakeup.")
                   .arg(locale.toString(c.timerClamped));
    if (c.recordedSpans > c.spans)
        out << tr("%1 of %2 recorded spans are not replayed: %3.")
                   .arg(locale.toString(c.recordedSpans - c.spans), locale.toString(c.recordedSpans), c.account);
    if (c.entries >= 0 && c.entriesReplayed >= 0 && c.entriesReplayed < c.entries)
        out << tr("The recorded row counts the %1 of the CPU's %2 complete entries that lie in the replayed spans: "
                  "the same spans and time as the simulated rows, in which each governor makes its own number of "
                  "entries (idlescope-cli trace-stats counts all %2).")
                   .arg(locale.toString(c.entriesReplayed), locale.toString(c.entries));
    if (c.defaultIdleOnly)
        out << tr("Every idle entry is in state 1 and none in another, which is what default_idle_call() logs when "
                  "no cpuidle driver is loaded: if so, the recorded run is not a governor's choices.");
    if (c.microsecondTimestamps)
        out << tr("The trace's timestamps are whole microseconds (a text report): every recorded residency is "
                  "rounded to 1 \u00b5s.");
    out << (c.hasMissEvents ? tr("The recorded run's above/below are the kernel's (cpu_idle_miss).")
                            : tr("The trace has no cpu_idle_miss: the recorded run's above/below are recomputed "
                                 "with cpuidle_enter_state()'s rule against the table."));
    return out;
}

} // namespace idlescope
