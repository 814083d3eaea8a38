// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/trace_disclosure.h"

#include "core/trace/trace_model.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

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
    f.recordedSpans = c.recordedSpans;
    f.timerFallback = c.timerFallback;
    f.timerClamped = c.timerClamped;
    f.account = c.account;
    return traceDisclosure(f);
}

QStringList traceDisclosure(const TraceCpuSource &source, const IdleStateTable &table)
{
    const trace::CpuTrace &cpu = source.trace->cpus[static_cast<std::size_t>(source.cpu)];
    TraceFacts f;
    f.hasTimerEvents = source.trace->hasTimerEvents;
    f.hasMissEvents = source.trace->hasMissEvents;
    f.spans = static_cast<qint64>(source.spanIndex.size());
    f.recordedSpans = static_cast<qint64>(cpu.spans.size());
    f.timerFallback = source.timerFallback;
    f.timerClamped = source.timerClamped;
    f.account = source.account;
    f.entries = 0;
    for (const trace::IdleEntryRec &e : cpu.entries)
        f.entries += (e.flags & trace::ENTRY_TRUNCATED) ? 0 : 1;
    f.entriesReplayed = 0;
    for (const std::int32_t row : source.spanIndex) {
        const trace::IdleSpanRec &sp = cpu.spans[static_cast<std::size_t>(row)];
        for (std::int32_t k = 0; k < sp.entryCount; ++k)
            f.entriesReplayed +=
                (cpu.entries[static_cast<std::size_t>(sp.firstEntry + k)].flags & trace::ENTRY_TRUNCATED) ? 0 : 1;
    }
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
        out << tr("No hrtimer events in the trace: every replayed span takes its wakeup as its next timer "
                  "(the optimistic sleep length), so the simulated governors predict perfectly and their "
                  "misses are a lower bound.");
    else if (c.timerFallback > 0)
        out << tr("%1 of %2 replayed spans have no known next timer and take their wakeup as it (the "
                  "optimistic sleep length): the simulated governors' misses there are a lower bound.")
                   .arg(locale.toString(c.timerFallback), locale.toString(c.spans));
    if (c.timerClamped > 0)
        out << tr("%1 spans' next timer expired before they ended (it woke the CPU without ending the span): "
                  "replayed as ended by their wakeup.")
                   .arg(locale.toString(c.timerClamped));
    if (c.recordedSpans > c.spans)
        out << tr("%1 of %2 recorded spans are not replayed: %3.")
                   .arg(locale.toString(c.recordedSpans - c.spans), locale.toString(c.recordedSpans), c.account);
    if (c.entries >= 0 && c.entriesReplayed >= 0 && c.entriesReplayed < c.entries)
        out << tr("The recorded row counts the %1 of the CPU's %2 complete entries that lie in the replayed spans, "
                  "the same wakeups as the simulated rows (idlescope-cli trace-stats counts them all).")
                   .arg(locale.toString(c.entriesReplayed), locale.toString(c.entries));
    out << (c.hasMissEvents ? tr("The recorded run's above/below are the kernel's (cpu_idle_miss).")
                            : tr("The trace has no cpu_idle_miss: the recorded run's above/below are recomputed "
                                 "with cpuidle_enter_state()'s rule against the table."));
    return out;
}

} // namespace idlescope
