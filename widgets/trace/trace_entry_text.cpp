// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/trace_entry_text.h"

#include "widgets/inspector/entry_detail.h"
#include "widgets/inspector/inspector_html.h"

#include "core/replay/entry_end.h"
#include "core/stats/span_clock.h"
#include "core/trace/recorded_entries.h"
#include "core/trace/trace_model.h"

#include <algorithm>

namespace idlescope {

namespace {

QString stateName(const IdleStateTable &table, int state)
{
    return state >= 0 && state < table.count() ? QString::fromStdString(table[state].name)
                                               : QStringLiteral("state %1").arg(state);
}

const trace::IdleSpanRec *traceSpan(const SimulationSnapshot &snap, std::int32_t row)
{
    if (!snap.trace || row < 0 || static_cast<std::size_t>(row) >= snap.trace->rows.size())
        return nullptr;
    const trace::CpuTrace &cpu = snap.trace->trace->cpus[static_cast<std::size_t>(snap.trace->cpu)];
    return &cpu.spans[static_cast<std::size_t>(snap.trace->rows.spanIndex[static_cast<std::size_t>(row)])];
}

/// The recorded entry that starts at trace time @p enterNs in @p sp, or its last entry.
const trace::IdleEntryRec *traceEntry(const SimulationSnapshot &snap, const trace::IdleSpanRec &sp, Ns enterNs)
{
    if (sp.entryCount <= 0)
        return nullptr;
    const trace::CpuTrace &cpu = snap.trace->trace->cpus[static_cast<std::size_t>(snap.trace->cpu)];
    const auto first = static_cast<std::size_t>(sp.firstEntry);
    for (std::int32_t k = 0; k < sp.entryCount; ++k)
        if (cpu.entries[first + static_cast<std::size_t>(k)].enterNs == enterNs)
            return &cpu.entries[first + static_cast<std::size_t>(k)];
    return &cpu.entries[first + static_cast<std::size_t>(sp.entryCount - 1)];
}

/// The event the trace names as the cause of @p e ("irq eth0", "hrtimer tick_nohz_handler"), or ""
/// when no event tells (a trace without irq and timer events): what ended an entry is said in
/// the entries list's words (entryEndName()), this only adds the trace's event to them.
QString traceEventCause(const SimulationSnapshot &snap, const trace::IdleEntryRec &e)
{
    if (e.cause == trace::WakeCause::Unknown)
        return {};
    QString what = QString::fromUtf8(trace::wakeCauseName(e.cause));
    const auto &names = snap.trace->trace->names;
    if (e.causeName >= 0 && static_cast<std::size_t>(e.causeName) < names.size())
        what += QStringLiteral(" ") + QString::fromStdString(names[static_cast<std::size_t>(e.causeName)]);
    return what;
}

/// The entry of @p run in stream row @p row that was running at display time @p t (the span's first
/// otherwise).
std::int64_t entryAt(const GovernorRun &run, std::int32_t row, Ns t)
{
    std::int64_t e = firstEntryOfSpan(run, row);
    if (e < 0)
        return -1;
    while (static_cast<std::size_t>(e + 1) < run.size() && run.span[static_cast<std::size_t>(e + 1)] == row
           && run.startNs[static_cast<std::size_t>(e + 1)] <= t)
        ++e;
    return e;
}

} // namespace

bool isRecordedRun(const SimulationSnapshot &snap, int g)
{
    return g >= 0 && g < snap.governorCount()
           && snap.governors[static_cast<std::size_t>(g)].run->variant == trace::RECORDED_VARIANT;
}

Ns entryAxisNs(const SimulationSnapshot &snap, int g, std::int64_t i)
{
    if (g < 0 || g >= snap.governorCount())
        return -1;
    const GovernorRun &run = *snap.governors[static_cast<std::size_t>(g)].run;
    if (i < 0 || static_cast<std::size_t>(i) >= run.size())
        return -1;
    return run.startNs[static_cast<std::size_t>(i)];
}

QString entryTimeText(const SimulationSnapshot &snap, int g, std::int64_t i)
{
    const Ns at = entryAxisNs(snap, g, i);
    if (at < 0)
        return {};
    // On a trace the list's, the links' and the lanes' clock, to the microsecond (a rounded
    // "182.4 ms" did not tell two entries 20 µs apart); the report's timestamp labelled beside it.
    if (const Ns ts = entryTraceNs(snap, g, i); ts >= 0)
        return QStringLiteral("%1 %2 (%3)").arg(traceAxisText(at), snap.clockName(), traceCmdText(ts));
    return QStringLiteral("%1 %2").arg(durationText(at), snap.clockName());
}

QString traceAxisText(Ns axisNs)
{
    return traceTimestampText(axisNs) + QStringLiteral(" s");
}

QString traceCmdText(Ns traceNs)
{
    return QStringLiteral("trace-cmd %1 s").arg(traceTimestampText(traceNs));
}

bool coversAnotherStretch(Ns recStartNs, Ns recLengthNs, Ns simStartNs, Ns simLengthNs)
{
    const Ns overlap = std::min(recStartNs + recLengthNs, simStartNs + simLengthNs) - std::max(recStartNs, simStartNs);
    return 2 * overlap < std::max(recLengthNs, simLengthNs);
}

Ns entryTraceNs(const SimulationSnapshot &snap, int g, std::int64_t i)
{
    if (!snap.trace || g < 0 || g >= snap.governorCount())
        return -1;
    const GovernorRun &run = *snap.governors[static_cast<std::size_t>(g)].run;
    if (i < 0 || static_cast<std::size_t>(i) >= run.size())
        return -1;
    // Every run's startNs is on the trace clock from its origin (span_clock.h, recorded_entries.h).
    return snap.trace->originNs + run.startNs[static_cast<std::size_t>(i)];
}

std::int64_t entrySpanNumber(const SimulationSnapshot &snap, int g, std::int64_t i)
{
    if (g < 0 || g >= snap.governorCount())
        return -1;
    const GovernorRun &run = *snap.governors[static_cast<std::size_t>(g)].run;
    if (i < 0 || static_cast<std::size_t>(i) >= run.size())
        return -1;
    const std::int32_t row = run.span[static_cast<std::size_t>(i)];
    if (!snap.trace)
        return row;
    const std::vector<std::int32_t> &spans = snap.trace->rows.spanIndex;
    return row >= 0 && static_cast<std::size_t>(row) < spans.size() ? spans[static_cast<std::size_t>(row)] : row;
}

QString traceTimestampText(Ns ns)
{
    // Rounded to the microsecond, as trace-cmd report prints a nanosecond timestamp.
    const Ns us = (ns + 500) / 1000;
    return QStringLiteral("%1.%2").arg(us / 1000000).arg(us % 1000000, 6, 10, QLatin1Char('0'));
}

std::int64_t firstEntryOfSpan(const GovernorRun &run, std::int32_t row)
{
    const auto it = std::lower_bound(run.span.begin(), run.span.end(), row);
    if (it == run.span.end() || *it != row)
        return -1;
    return it - run.span.begin();
}

QString recordedVerdict(const SimulationSnapshot &snap, int g, std::int64_t i)
{
    const GovernorRun &rec = *snap.governors[static_cast<std::size_t>(g)].run;
    const auto k = static_cast<std::size_t>(i);
    const std::int32_t row = rec.span[k];
    QStringList parts;
    parts << QStringLiteral("the kernel entered %1 here for %2")
                 .arg(stateName(snap.table, rec.state[k]), durationText(rec.residencyNs[k]));
    for (int o = 0; o < snap.governorCount(); ++o) {
        const GovernorRun &run = *snap.governors[static_cast<std::size_t>(o)].run;
        if (o == g || run.variant == trace::RECORDED_VARIANT || run.variant == "oracle")
            continue;
        const std::int64_t e = entryAt(run, row, rec.startNs[k]);
        if (e < 0)
            continue;
        const auto j = static_cast<std::size_t>(e);
        QString part = QStringLiteral("%1 would have chosen %2").arg(snap.name(o), stateName(snap.table, run.state[j]));
        // Which of its entries that is, when it is not this stretch of time (one entry over a
        // whole span that the kernel split), on the trace's axis as the plots draw it.
        if (coversAnotherStretch(rec.startNs[k], rec.residencyNs[k], run.startNs[j], run.residencyNs[j]))
            part += QStringLiteral(" in its entry %1 from %2 for %3")
                        .arg(e)
                        .arg(durationText(run.startNs[j]), durationText(run.residencyNs[j]));
        parts << part;
    }
    // The oracle for the same wakeup: the time from this entry to the span's wakeup, no QoS limit
    // beyond the stream's.
    if (snap.stream && snap.spanClockNs && static_cast<std::size_t>(row) < snap.stream->size()) {
        const IdleSpan &span = (*snap.stream)[static_cast<std::size_t>(row)];
        const Ns offset = rec.startNs[k] - (*snap.spanClockNs)[static_cast<std::size_t>(row)];
        EntryRecord r;
        r.startNs = rec.startNs[k];
        r.remainingWakeNs = std::max<Ns>(0, span.wakeNs - offset);
        r.sleepLengthNs = std::max<Ns>(0, span.timerNs - offset);
        r.deltaNextNs = r.sleepLengthNs;
        r.latencyReqNs =
            governorLatencyReq(snap.spec.latencyLimitNs >= 0 ? snap.spec.latencyLimitNs : span.latencyReqNs);
        parts << QStringLiteral("the oracle %1").arg(stateName(snap.table, oracleChoice(snap.table, r).chosenIdx));
    }
    return parts.join(QStringLiteral("; ")) + QLatin1Char('.');
}

QString recordedEntryHtml(const SimulationSnapshot &snap, int g, std::int64_t i)
{
    const GovernorRun &rec = *snap.governors[static_cast<std::size_t>(g)].run;
    const auto k = static_cast<std::size_t>(i);
    QString verdict = recordedVerdict(snap, g, i);
    verdict[0] = verdict[0].toUpper();
    QString html = QStringLiteral("<p>%1</p>").arg(verdict.toHtmlEscaped());
    const EntryEnd end = entryEnd(rec.flags[k]);
    html += QStringLiteral("<p><b>Ended by:</b> %1 (%2).</p>")
                .arg(QString::fromUtf8(entryEndName(end)), QString::fromUtf8(entryEndMeaning(end)).toHtmlEscaped());
    const char *miss = rec.has(k, ENTRY_ABOVE)   ? "above (too deep for the residency)"
                       : rec.has(k, ENTRY_BELOW) ? "below (a deeper state would have fitted)"
                                                 : "no miss";
    const bool recorded = snap.trace && snap.trace->trace->hasMissEvents;
    html += QStringLiteral("<p><b>Verdict:</b> %1 (%2).</p>")
                .arg(QString::fromUtf8(miss),
                     recorded ? QStringLiteral("cpu_idle_miss in the trace")
                              : QStringLiteral("recomputed with cpuidle_enter_state()'s rule against %1")
                                    .arg(QString::fromStdString(snap.table.id).toHtmlEscaped()));
    if (rec.sleepLengthNs[k] >= 0)
        html += QStringLiteral("<p>Sleep length at entry (next non-tick hrtimer): %1.</p>")
                    .arg(durationText(rec.sleepLengthNs[k]));
    else
        html += QStringLiteral("<p>Sleep length unknown: no hrtimer armed on this CPU was seen.</p>");
    html += traceSourceHtml(snap, g, i);
    return html;
}

QString traceSourceHtml(const SimulationSnapshot &snap, int g, std::int64_t i)
{
    const Ns ts = entryTraceNs(snap, g, i);
    if (ts < 0)
        return {};
    const GovernorRun &run = *snap.governors[static_cast<std::size_t>(g)].run;
    const std::int32_t row = run.span[static_cast<std::size_t>(i)];
    const trace::IdleSpanRec *sp = traceSpan(snap, row);
    // Times on the lanes' clock (the trace's first event is 0), each with the timestamp
    // `trace-cmd report` prints where a reader looks the event up.
    const Ns origin = snap.trace->originNs;
    QString html = QStringLiteral("<p><b>In the trace:</b> CPU %1 at %2 (%3)")
                       .arg(snap.trace->cpu)
                       .arg(traceAxisText(ts - origin), traceCmdText(ts));
    if (sp) {
        html += QStringLiteral("; span %1 \u2192 %2")
                    .arg(traceAxisText(sp->startNs - origin), traceAxisText(sp->endNs - origin));
        // The recorded entry itself; for a simulated one, the span's last recorded entry (its wakeup).
        if (const trace::IdleEntryRec *e = traceEntry(snap, *sp, isRecordedRun(snap, g) ? ts : -1)) {
            // What ended it is the entries list's word (above); the trace adds its event when it has one.
            html += QStringLiteral("; %1 at %2 (%3)")
                        .arg(isRecordedRun(snap, g) ? QStringLiteral("left idle") : QStringLiteral("the span's wakeup"),
                             traceAxisText(e->exitNs - origin), traceCmdText(e->exitNs));
            if (const QString event = traceEventCause(snap, *e); !event.isEmpty())
                html += QStringLiteral(", the trace's event: %1").arg(event.toHtmlEscaped());
            return html + QStringLiteral(".</p>") + traceEventsHtml(snap, *e);
        }
    }
    return html + QStringLiteral(".</p>");
}

const trace::IdleEntryRec *traceSourceEntry(const SimulationSnapshot &snap, int g, std::int64_t i)
{
    const Ns ts = entryTraceNs(snap, g, i);
    if (ts < 0)
        return nullptr;
    const trace::IdleSpanRec *sp =
        traceSpan(snap, snap.governors[static_cast<std::size_t>(g)].run->span[static_cast<std::size_t>(i)]);
    return sp ? traceEntry(snap, *sp, isRecordedRun(snap, g) ? ts : -1) : nullptr;
}

QList<TraceSourceEvent> traceSourceEvents(const SimulationSnapshot &snap, const trace::IdleEntryRec &e)
{
    QList<TraceSourceEvent> events;
    if (!snap.trace || e.enterAt <= 0)
        return events;
    const int cpu = snap.trace->cpu;
    events.push_back({e.enterAt, QStringLiteral("cpu_idle: state=%1 cpu_id=%2").arg(e.state).arg(cpu)});
    if (const std::int64_t at = e.causeAt()) {
        const auto &names = snap.trace->trace->names;
        const QString name = e.causeName >= 0 && static_cast<std::size_t>(e.causeName) < names.size()
                                 ? QString::fromStdString(names[static_cast<std::size_t>(e.causeName)])
                                 : QString();
        QString what;
        switch (e.cause) {
        case trace::WakeCause::Tick:
        case trace::WakeCause::HrTimer: what = QStringLiteral("hrtimer_expire_entry: function=%1").arg(name); break;
        case trace::WakeCause::Irq: what = QStringLiteral("irq_handler_entry: name=%1").arg(name); break;
        case trace::WakeCause::Ipi:
            what = QStringLiteral("an IPI to CPU %1 (ipi_entry, or the sender's ipi_send_*)").arg(cpu);
            break;
        case trace::WakeCause::RemoteWakeup:
            what = QStringLiteral("sched_wakeup: target_cpu=%1, from another CPU").arg(cpu);
            break;
        case trace::WakeCause::Unknown: break;
        }
        if (!what.isEmpty())
            events.push_back({at, what});
    }
    if (const std::int64_t at = e.exitAt())
        events.push_back({at, QStringLiteral("cpu_idle: state=4294967295 cpu_id=%1").arg(cpu)});
    std::stable_sort(events.begin(), events.end(),
                     [](const TraceSourceEvent &a, const TraceSourceEvent &b) { return a.at < b.at; });
    return events;
}

QString traceSourceUnit(const SimulationSnapshot &snap)
{
    return snap.trace && snap.trace->trace->format == trace::TraceFormat::TraceCmdDat ? QStringLiteral("record")
                                                                                      : QStringLiteral("line");
}

QString traceEventsHtml(const SimulationSnapshot &snap, const trace::IdleEntryRec &e)
{
    const QList<TraceSourceEvent> events = traceSourceEvents(snap, e);
    if (events.isEmpty())
        return {};
    const QString unit = traceSourceUnit(snap);
    QString html =
        QStringLiteral("<p><b>Events</b> (%1s of %2, as trace-cmd report lists them):</p><ul>")
            .arg(unit, QString::fromStdString(snap.trace->trace->file).section(QLatin1Char('/'), -1).toHtmlEscaped());
    for (const TraceSourceEvent &ev : events)
        html += QStringLiteral("<li>%1 %2: <code>%3</code></li>").arg(unit).arg(ev.at).arg(ev.text.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

Ns entryDriftNs(const SimulationSnapshot &snap, int g, std::int64_t i, Ns simulatedNowNs)
{
    if (isRecordedRun(snap, g) || !snap.spanClockNs || !snap.streamSpanStartNs)
        return 0;
    const GovernorRun &run = *snap.governors[static_cast<std::size_t>(g)].run;
    const auto row = static_cast<std::size_t>(run.span[static_cast<std::size_t>(i)]);
    if (row >= snap.spanClockNs->size() || row >= snap.streamSpanStartNs->size())
        return 0;
    const Ns onStream =
        (*snap.streamSpanStartNs)[row] + (run.startNs[static_cast<std::size_t>(i)] - (*snap.spanClockNs)[row]);
    return spanDriftNs(simulatedNowNs, onStream);
}

} // namespace idlescope
