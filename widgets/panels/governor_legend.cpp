// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/governor_legend.h"

#include "core/stats/decimate.h"
#include "core/stats/governor_totals.h"
#include "widgets/panels/flow_layout.h"
#include "widgets/view_state.h"

#include <QLabel>
#include <QTextDocument>

namespace idlescope {

namespace {
/// 589, 32188, 118.6k, 2.41M: exact below 100000, then three significant digits.
QString compact(std::int64_t n)
{
    if (n < 100000)
        return QString::number(n);
    if (n < 10000000)
        return QStringLiteral("%1k").arg(static_cast<double>(n) / 1e3, 0, 'f', 1);
    return QStringLiteral("%1M").arg(static_cast<double>(n) / 1e6, 0, 'f', 2);
}
} // namespace

GovernorLegend::GovernorLegend(ViewState *view, QWidget *parent)
    : QWidget(parent), m_view(view), m_layout(new FlowLayout(this, 18, 4))
{
    // Chips wrap to more rows instead of widening the window (ten governors fit in any width).
    m_layout->setContentsMargins(8, 4, 8, 4);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    connect(view, &ViewState::cursorChanged, this, &GovernorLegend::refresh);
}

void GovernorLegend::setSnapshot(SnapshotPtr snapshot)
{
    m_snap = snapshot && snapshot->summarised() ? std::move(snapshot) : nullptr;
    for (QLabel *l : std::as_const(m_chips))
        delete l;
    m_chips.clear();
    if (m_snap)
        for (int g = 0; g < m_snap->governorCount(); ++g) {
            auto *chip = new QLabel(this);
            chip->setTextFormat(Qt::RichText);
            chip->setMinimumWidth(140);
            m_layout->insertWidget(g, chip);
            m_chips << chip;
        }
    refresh();
}

PrefixCounts GovernorLegend::shownCounts(int g) const
{
    return g >= 0 && static_cast<std::size_t>(g) < m_shown.size() ? m_shown[static_cast<std::size_t>(g)]
                                                                  : PrefixCounts{};
}

QString GovernorLegend::chipText(int g) const
{
    if (g < 0 || g >= m_chips.size())
        return {};
    QTextDocument doc;
    doc.setHtml(m_chips[g]->text());
    return doc.toPlainText();
}

int GovernorLegend::rowCount() const
{
    return m_layout->rowCount(width());
}

void GovernorLegend::refresh()
{
    m_shown.clear();
    if (!m_snap)
        return;
    const qint64 cursor = m_view->cursorNs();
    for (int g = 0; g < m_snap->governorCount(); ++g) {
        const auto k = static_cast<std::size_t>(g);
        const GovernorRun &run = *m_snap->governors[k].run;
        const std::size_t end =
            cursor < 0 ? run.size() : static_cast<std::size_t>(lastIndexAtOrBefore(run.startNs, cursor) + 1);
        const PrefixCounts c = m_snap->governors[k].counts.upTo(run, end);
        m_shown.push_back(c);
        QString badge =
            m_snap->governors[k].atDefaults
                ? QString()
                : QStringLiteral(
                    " <span style='background:#f28e2b; color:white; font-size:8pt;'>&nbsp;modified&nbsp;</span>");
        const QString &stale = m_snap->governors[k].stale; // a source file that no longer builds or runs
        if (!stale.isEmpty())
            badge +=
                QStringLiteral(" <span style='background:#c0392b; color:white; font-size:8pt;'>&nbsp;%1&nbsp;</span>")
                    .arg(tr("stale"));
        // A closed loop keeps no entries to play back: its chip shows the whole run's counters.
        const std::optional<ClosedLoopRun> &loop = m_snap->governors[k].closedLoop;
        const GovernorTotals t = loop ? counterTotals(loop->counters.total()) : GovernorTotals{};
        const std::int64_t entries = loop ? t.idles : c.entries;
        const std::int64_t above = loop ? t.aboves : c.totalAbove();
        const std::int64_t below = loop ? t.belows : c.totalBelow();
        const double missRatio = loop ? t.idleMissRatio : c.missRatio();
        m_chips[g]->setText(
            QStringLiteral("<span style='color:%1; font-size:14pt;'>\u25a0</span> <b>%2</b>%3"
                           "<br><span style='color:#555;'><b>miss %6 %</b> \u00b7 above %4 \u00b7 below %5</span>")
                .arg(m_snap->governors[k].color.name(), m_snap->name(g), badge)
                .arg(compact(above), compact(below))
                .arg(100.0 * missRatio, 0, 'f', 1));
        m_chips[g]->setToolTip(
            (loop ? tr("The whole closed loop: %1 entries, %2 above, %3 below.\n")
                  : tr("Up to the playback cursor: %1 entries, %2 above, %3 below.\n"))
                .arg(entries)
                .arg(above)
                .arg(below)
            + tr("Miss = (above + below) / entries; above: the state was too deep, "
                 "below: a deeper state would have fit.")
            + (stale.isEmpty() ? QString() : tr("\n\nStale: the last good run; the file now fails:\n%1").arg(stale)));
    }
}

} // namespace idlescope
