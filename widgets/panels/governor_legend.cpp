// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/governor_legend.h"

#include "core/stats/decimate.h"
#include "core/stats/governor_totals.h"
#include "widgets/panels/flow_layout.h"
#include "widgets/view_state.h"

#include <QLabel>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

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
/// A full chip's least width, so that chips keep their places while the counts change.
constexpr int CHIP_MIN_WIDTH = 140;
/// The flow layout's spacing between chips and its left and right margins.
constexpr int CHIP_SPACING = 18;
constexpr int LEGEND_MARGIN = 8;
} // namespace

GovernorLegend::GovernorLegend(ViewState *view, QWidget *parent)
    : QWidget(parent), m_view(view), m_layout(new FlowLayout(this, CHIP_SPACING, 4))
{
    // Chips wrap to more rows instead of widening the window (ten governors fit in any width).
    m_layout->setContentsMargins(LEGEND_MARGIN, 4, LEGEND_MARGIN, 4);
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
            chip->setMinimumWidth(CHIP_MIN_WIDTH);
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
    m_full.clear();
    m_short.clear();
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
        const QString head = QStringLiteral("<span style='color:%1; font-size:14pt;'>\u25a0</span> <b>%2</b>%3")
                                 .arg(m_snap->governors[k].color.name(), m_snap->name(g), badge);
        const QString miss = QStringLiteral("<b>miss %1 %</b>").arg(100.0 * missRatio, 0, 'f', 1);
        m_full << head
                      + QStringLiteral("<br><span style='color:#555;'>%1 \u00b7 above %2 \u00b7 below %3</span>")
                            .arg(miss, compact(above), compact(below));
        m_short << head + QStringLiteral("<br><span style='color:#555;'>%1</span>").arg(miss);
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
    chooseCompact();
}

void GovernorLegend::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    chooseCompact();
}

void GovernorLegend::chooseCompact()
{
    // Decided on screen only (a legend never shown keeps its full chips): the full chips' row
    // at their text's width, against the legend's.
    if (isVisible() && !m_chips.isEmpty()) {
        int row = 2 * LEGEND_MARGIN + CHIP_SPACING * (static_cast<int>(m_chips.size()) - 1);
        for (int g = 0; g < m_chips.size() && g < m_full.size(); ++g) {
            QTextDocument doc;
            doc.setDefaultFont(m_chips[g]->font());
            doc.setDocumentMargin(0);
            doc.setHtml(m_full[g]);
            row += std::max(CHIP_MIN_WIDTH, static_cast<int>(std::ceil(doc.idealWidth())));
        }
        m_compact = row > width() && m_chips.size() > 1;
    }
    for (int g = 0; g < m_chips.size() && g < m_full.size(); ++g) {
        const QString &text = m_compact ? m_short[g] : m_full[g];
        if (m_chips[g]->text() != text)
            m_chips[g]->setText(text);
        m_chips[g]->setMinimumWidth(m_compact ? 0 : CHIP_MIN_WIDTH);
    }
}

} // namespace idlescope
