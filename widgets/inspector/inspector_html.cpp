// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/inspector/inspector_html.h"

#include "core/governors/explain.h"

#include <QObject>
#include <QStringList>

namespace idlescope {

namespace {

QString s(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString stateName(const IdleStateTable &t, int i)
{
    return i >= 0 && i < t.count() ? QString::fromStdString(t[i].name).toHtmlEscaped() : QStringLiteral("?");
}

QString row(const QString &label, const QString &value)
{
    return QStringLiteral("<tr><td style='color:#555;padding-right:10px'>%1</td><td>%2</td></tr>").arg(label, value);
}

QString section(const QString &title)
{
    return QStringLiteral("<h4 style='margin-top:10px;margin-bottom:3px'>%1</h4>").arg(title);
}

QString inputsHtml(const EntryDetail &d)
{
    const EntryRecord &e = d.entry;
    QString h = section(QObject::tr("Inputs")) + QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    h += row(QObject::tr("sleep length (next timer)"), durationText(e.sleepLengthNs));
    h += row(QObject::tr("time to tick (delta_next)"), durationText(e.deltaNextNs));
    h += row(QObject::tr("latency limit"), latencyLimitText(e.latencyReqNs));
    h += row(QObject::tr("time to the wakeup (unknown to it)"), durationText(e.remainingWakeNs));
    h += row(QObject::tr("what ended it"), s(wakeCauseText(d.cause)));
    h += row(QObject::tr("measured residency"), durationText(e.residencyNs));
    h += row(QObject::tr("span"), QObject::tr("timer %1, wakeup %2 after the span start")
                                      .arg(durationText(d.spanTimerNs), durationText(d.spanWakeNs)));
    return h + QStringLiteral("</table>");
}

QString verdictHtml(const EntryDetail &d)
{
    if (d.entry.above)
        return QStringLiteral("<span style='background:#c0392b;color:white'>&nbsp;%1&nbsp;</span>")
            .arg(QObject::tr("ABOVE: too deep"));
    if (d.entry.below)
        return QStringLiteral("<span style='background:#2e6da4;color:white'>&nbsp;%1&nbsp;</span>")
            .arg(QObject::tr("BELOW: too shallow"));
    return QStringLiteral("<span style='background:#3c8d40;color:white'>&nbsp;%1&nbsp;</span>")
        .arg(QObject::tr("no miss"));
}

QString decisionHtml(const EntryDetail &d, const IdleStateTable &t, const QColor &color)
{
    const EntryRecord &e = d.entry;
    const IdleState &st = t[e.state];
    QString h = section(QObject::tr("Decision"));
    h += QObject::tr("<b style='color:%1'>%2</b> chose <b>%3</b> (exit latency %4, target residency %5), "
                     "%6. ")
             .arg(color.name(), s(d.name.empty() ? d.variant : d.name), stateName(t, e.state),
                  durationText(st.exitLatencyNs), durationText(st.targetResidencyNs),
                  e.stopTick ? QObject::tr("stop_tick = 1 (tick may stop)") : QObject::tr("stop_tick = 0 (tick kept)"));
    // Each family's own terms (menu predicts, teo does not, the oracle knows).
    if (!d.expectation.empty())
        h += s(d.expectation) + QStringLiteral(" ");
    return h + verdictHtml(d);
}

QString sentencesHtml(const std::vector<std::string> &sentences)
{
    if (sentences.empty())
        return QObject::tr("<p><i>This governor left no reasoning record.</i></p>");
    QString h = QStringLiteral("<ul style='margin-top:0px;margin-left:-20px'>");
    for (const std::string &line : sentences)
        h += QStringLiteral("<li>") + s(line) + QStringLiteral("</li>");
    return h + QStringLiteral("</ul>");
}

QString oracleHtml(const EntryDetail &d, const IdleStateTable &t)
{
    const int o = d.oracle.chosenIdx;
    QString h = section(QObject::tr("Against the oracle"));
    if (o == d.entry.state)
        h += QObject::tr("The oracle would also have chosen <b>%1</b>.").arg(stateName(t, o));
    else
        h += QObject::tr("The oracle would have chosen <b>%1</b> (%2 than %3).")
                 .arg(stateName(t, o), o < d.entry.state ? QObject::tr("shallower") : QObject::tr("deeper"),
                      stateName(t, d.entry.state));
    return h + sentencesHtml(d.oracleSentences);
}

QString costHtml(const EntryDetail &d, const IdleStateTable &t)
{
    const MissCost &c = d.cost;
    QString h = section(QObject::tr("What it cost"));
    if (c.above) {
        h += QObject::tr("Stayed %1 in %2, %3 short of its %4 target residency: entering and leaving it "
                         "did not pay off. ")
                 .arg(durationText(c.residencyNs), stateName(t, c.chosenIdx), durationText(c.shortOfTargetNs),
                      durationText(t[c.chosenIdx].targetResidencyNs));
        h += QObject::tr("Exit latency paid: %1").arg(durationText(c.exitLatencyPaidNs));
        if (c.betterIdx >= 0)
            h += QObject::tr(", %1 of it wasted against %2")
                     .arg(durationText(c.wastedExitLatencyNs), stateName(t, c.betterIdx));
        h += QStringLiteral(".");
    } else if (c.below) {
        h += QObject::tr("Stayed %1 in %2.").arg(durationText(c.residencyNs), stateName(t, c.chosenIdx));
        if (c.betterIdx >= 0)
            h += QObject::tr(" %1 would have paid off: %2 of idle time could have been spent in it "
                             "(its target residency is %3).")
                     .arg(stateName(t, c.betterIdx), durationText(c.missedDeeperNs),
                          durationText(t[c.betterIdx].targetResidencyNs));
    } else {
        h += QObject::tr("No miss: the state fitted the idle time it got.");
    }
    if (d.cause == WakeCause::Wakeup && c.exitLatencyPaidNs > 0)
        h += QObject::tr("<br>The woken task waited the exit latency of %1 (counted in the latency cost).")
                 .arg(durationText(c.exitLatencyPaidNs));
    return h;
}

QString tickRunningHtml(const EntryDetail &d, const IdleStateTable &t)
{
    if (d.tickRunningIdx < 0)
        return {};
    QString h = section(QObject::tr("With the tick running"));
    h += QObject::tr("The tick was already stopped when this state was selected: an interrupt that woke no task "
                     "left the CPU in the idle loop, and a stopped tick stays stopped there. ");
    if (d.tickRunningIdx == d.entry.state)
        h += QObject::tr("With the tick running it would also have chosen <b>%1</b>")
                 .arg(stateName(t, d.tickRunningIdx));
    else
        h += QObject::tr("With the tick running it would have chosen <b>%1</b> instead of %2")
                 .arg(stateName(t, d.tickRunningIdx), stateName(t, d.entry.state));
    h += d.tickRunningStopTick ? QObject::tr(" and let the tick stop:") : QObject::tr(" and kept the tick:");
    return h + sentencesHtml(d.tickRunningSentences);
}

} // namespace

QString durationText(Ns ns)
{
    return QString::fromStdString(formatDuration(ns, UnitStyle::Micro));
}

QString latencyLimitText(Ns ns)
{
    if (ns == PM_QOS_DEFAULT_LATENCY_NS)
        return QObject::tr("none (PM QoS default, %1)").arg(durationText(ns));
    return durationText(ns);
}

QString entryTitle(const EntryDetail &d, const QString &when, std::int64_t traceSpan)
{
    if (traceSpan >= 0)
        return QObject::tr("%1 · entry %2 · span %3 · at %4")
            .arg(QString::fromStdString(d.name.empty() ? d.variant : d.name))
            .arg(d.entryIndex)
            .arg(traceSpan)
            .arg(when.isEmpty() ? durationText(d.axisNs) : when);
    // "entry k within the span", never "iteration": that is the CLI's seeded repetition (--iterations).
    return QObject::tr("%1 · entry %2 · span %3 (entry %4 within the span) · at %5")
        .arg(QString::fromStdString(d.name.empty() ? d.variant : d.name))
        .arg(d.entryIndex)
        .arg(d.entry.span)
        .arg(d.entry.entry)
        .arg(when.isEmpty() ? durationText(d.axisNs) : when);
}

QString entryDetailHtml(const EntryDetail &d, const IdleStateTable &table, const QColor &color)
{
    QString h = QStringLiteral("<html><body style='font-size:small'>");
    h += decisionHtml(d, table, color);
    h += inputsHtml(d);
    h += section(QObject::tr("Why")) + sentencesHtml(d.sentences);
    h += tickRunningHtml(d, table);
    h += oracleHtml(d, table);
    h += costHtml(d, table);
    return h + QStringLiteral("</body></html>");
}

} // namespace idlescope
