// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/trace_disagreements.h"

#include "core/trace/recorded_entries.h"
#include "core/trace/trace_agreement.h"
#include "widgets/trace/trace_entry_text.h"

#include <algorithm>

namespace idlescope {

namespace {

QString stateName(const IdleStateTable &table, int state)
{
    return state >= 0 && state < table.count() ? QString::fromStdString(table[state].name)
                                               : QStringLiteral("state %1").arg(state);
}

} // namespace

std::vector<DisagreementLink> firstDisagreements(const SimulationSnapshot &snap, std::size_t keep)
{
    std::vector<DisagreementLink> out;
    const int recorded = snap.indexOf(trace::RECORDED_VARIANT);
    if (!snap.trace || recorded < 0 || snap.spec.latencyLimitNs >= 0)
        return out;
    const GovernorRun &rec = *snap.governors[static_cast<std::size_t>(recorded)].run;
    for (int g = 0; g < snap.governorCount(); ++g) {
        if (g == recorded || g == snap.oracleIndex())
            continue;
        std::vector<trace::Disagreement> first;
        trace::compareEntries(rec, *snap.governors[static_cast<std::size_t>(g)].run, snap.trace->cpu,
                              snap.table.count(), snap.trace->originNs, keep, &first);
        for (const trace::Disagreement &d : first) {
            // The kernel's entry: the recorded run's startNs is the trace time minus the origin.
            const auto it = std::lower_bound(rec.startNs.begin(), rec.startNs.end(), d.traceNs - snap.trace->originNs);
            if (it == rec.startNs.end())
                continue;
            out.push_back({g, recorded, it - rec.startNs.begin(), d.traceNs, d.recordedState, d.simulatedState});
        }
    }
    return out;
}

QUrl entryLink(int governor, std::int64_t entry)
{
    return QUrl(QStringLiteral("entry:%1/%2").arg(governor).arg(entry));
}

bool parseEntryLink(const QUrl &url, int *governor, std::int64_t *entry)
{
    if (url.scheme() != QLatin1String("entry"))
        return false;
    const QStringList parts = url.path().split(QLatin1Char('/'));
    bool okG = false;
    bool okE = false;
    if (parts.size() != 2)
        return false;
    *governor = parts[0].toInt(&okG);
    *entry = parts[1].toLongLong(&okE);
    return okG && okE;
}

QString disagreementsHtml(const SimulationSnapshot &snap, const std::vector<DisagreementLink> &links)
{
    if (links.empty())
        return {};
    QString html =
        QStringLiteral("<h4 style='margin-top:10px;margin-bottom:3px'>First disagreements with the kernel, CPU %1</h4>"
                       "<p>Entries where a governor entered another state than the kernel did (the k-th entry of "
                       "a stream row with the k-th, as compare --agreement pairs them). Click one to open the "
                       "kernel's entry.</p><ul style='margin-top:0px;margin-left:-20px'>")
            .arg(snap.trace->cpu);
    for (const DisagreementLink &l : links)
        // At the entry's place on the lanes' axis (the list's and the title's clock); the
        // report's timestamp after it, for a reader of `trace-cmd report`.
        html +=
            QStringLiteral("<li><a href='%1'>%2</a>: the kernel %3, %4 %5 (%6)</li>")
                .arg(entryLink(l.recorded, l.recordedEntry).toString(), traceAxisText(l.traceNs - snap.trace->originNs),
                     stateName(snap.table, l.recordedState).toHtmlEscaped(), snap.name(l.governor).toHtmlEscaped(),
                     stateName(snap.table, l.simulatedState).toHtmlEscaped(), traceCmdText(l.traceNs));
    return html + QStringLiteral("</ul>");
}

} // namespace idlescope
