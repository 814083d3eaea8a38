// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/counts_plot.h"

#include "widgets/plots/count_ticker.h"

#include <QAction>
#include <QFontMetrics>

#include <algorithm>
#include <cmath>

#include "core/stats/decimate.h"
#include "widgets/view_state.h"

namespace idlescope {

CountsPlot::CountsPlot(const QString &title, ViewState *view, QWidget *parent) : PlotBase(title, view, parent)
{
    connect(view, &ViewState::cursorChanged, this, [this] { markDirty(); });
    // Centred on the whole plot: a plot of several axis rects has no one middle of its own.
    m_noEntries = new QCPItemText(m_plot);
    m_noEntries->setClipToAxisRect(false);
    m_noEntries->position->setType(QCPItemPosition::ptViewportRatio);
    m_noEntries->position->setCoords(0.5, 0.5);
    m_noEntries->setPositionAlignment(Qt::AlignCenter);
    m_noEntries->setTextAlignment(Qt::AlignCenter);
    // Over the axes and tick labels, on a box of the plot's own background: a plot of two axis
    // rects (above and below) drew its axes through the words.
    m_noEntries->setLayer(QStringLiteral("overlay"));
    m_noEntries->setColor(palette().color(QPalette::Text));
    QColor box = palette().color(QPalette::Base);
    box.setAlpha(240);
    m_noEntries->setBrush(box);
    m_noEntries->setPen(QPen(palette().color(QPalette::Mid)));
    m_noEntries->setPadding(QMargins(8, 6, 8, 6));
    m_noEntries->setVisible(false);
}

QString CountsPlot::closedLoopText()
{
    return tr("A closed loop keeps its counters, not its entries: there is nothing to count here. "
              "See the Comparison table (usage, above, below and time per state).");
}

QString CountsPlot::emptyText() const
{
    return m_noEntries->visible() ? closedLoopText() : QString();
}

void CountsPlot::rebuild()
{
    // A closed loop's runs keep no entries (each governor's loop makes spans of its own): empty
    // bars with no word said nothing of why.
    const bool noEntries = m_snap && m_snap->isClosedLoop();
    m_noEntries->setVisible(noEntries);
    if (noEntries)
        m_noEntries->setText(wrapWords(closedLoopText(), m_noEntries->font(), std::max(120, m_plot->width() - 60)));
    if (!m_snap)
        return;
    if (m_setUpGeneration != m_snap->generation) {
        setUp();
        m_setUpGeneration = m_snap->generation;
    }
    refill();
}

void CountsPlot::offerLogScale()
{
    m_logScale = new QAction(tr("Logarithmic count axis"), this);
    m_logScale->setCheckable(true);
    m_logScale->setToolTip(tr("Counts on a log scale: a handful of misses beside hundreds of thousands stays visible"));
    addAction(m_logScale);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_logScale, &QAction::toggled, this, [this] { markDirty(); });
}

bool CountsPlot::isLogScale() const
{
    return m_logScale && m_logScale->isChecked();
}

void CountsPlot::setLogScale(bool on)
{
    if (m_logScale)
        m_logScale->setChecked(on);
}

void CountsPlot::setCountRange(QCPAxis *axis, double top) const
{
    if (isLogScale()) {
        if (axis->scaleType() != QCPAxis::stLogarithmic) {
            axis->setScaleType(QCPAxis::stLogarithmic);
            QSharedPointer<QCPAxisTickerLog> log(new QCPAxisTickerLog);
            log->setLogBase(10);
            log->setSubTickCount(8);
            axis->setTicker(log);
            axis->setNumberFormat(QStringLiteral("g"));
            axis->setNumberPrecision(7); // 100000, not 1e+05
        }
        // Bars and fills start at 0, below any log range: QCustomPlot draws them from under the axis.
        axis->setRange(0.5, std::max(2.0, top * 2));
        return;
    }
    if (axis->scaleType() != QCPAxis::stLinear) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(6);
    }
    axis->setRange(0, top * 1.08);
}

std::size_t CountsPlot::entriesUpToCursor(int g) const
{
    const GovernorRun &run = *m_snap->governors[static_cast<std::size_t>(g)].run;
    const qint64 cursor = m_view->cursorNs();
    if (cursor < 0)
        return run.size();
    return static_cast<std::size_t>(lastIndexAtOrBefore(run.startNs, cursor) + 1);
}

PrefixCounts CountsPlot::countsUpToCursor(int g) const
{
    return m_snap->governors[static_cast<std::size_t>(g)].counts.upTo(
        *m_snap->governors[static_cast<std::size_t>(g)].run, entriesUpToCursor(g));
}

std::size_t CountsPlot::spansUpToCursor() const
{
    if (m_view->cursorNs() < 0 || m_snap->governorCount() == 0)
        return m_snap->stream->size();
    const std::size_t n = entriesUpToCursor(0);
    return n == 0 ? 0 : static_cast<std::size_t>(m_snap->governors[0].run->span[n - 1]) + 1;
}

QSharedPointer<QCPAxisTickerText> CountsPlot::stateTicker() const
{
    QSharedPointer<QCPAxisTickerText> t(new QCPAxisTickerText);
    for (int s = 0; s < m_snap->table.count(); ++s)
        t->addTick(s + 1, QString::fromStdString(m_snap->table[s].name));
    return t;
}

void CountsPlot::fitStateLabels(QCPAxis *axis, double widthShare) const
{
    const int n = m_snap->table.count();
    if (n == 0)
        return;
    const QFontMetrics fm(axis->tickLabelFont());
    int widest = 0;
    for (int s = 0; s < n; ++s)
        widest = std::max(widest, fm.horizontalAdvance(QString::fromStdString(m_snap->table[s].name)));
    // The range is 0.4 .. n + 0.6: one state per (width / (n + 0.2)) pixels
    // of the axis (its share of the plot less the left axis' ~60 px); a label
    // needs its width and a gap of a few pixels.
    const double axisWidth = m_plot->width() * widthShare - 60;
    const double perState = axisWidth / (n + 0.2);
    // Turned by 45 degrees, neighbours are a line height apart along the
    // slant, so that needs about 1.5 line heights per state; narrower still,
    // the names stand upright, one line height each; narrower than that,
    // only every k-th state is named (the window at its narrowest left ~6 px
    // per Intel state: the upright names ran together).
    axis->setTickLabelRotation(widest + 6 <= perState ? 0 : perState >= 1.5 * fm.height() ? -45 : -90);
    const int every = perState >= fm.height() ? 1 : static_cast<int>(std::ceil(fm.height() / std::max(1.0, perState)));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int s = 0; s < n; ++s)
        ticker->addTick(s + 1, s % every == 0 ? QString::fromStdString(m_snap->table[s].name) : QString());
    axis->setTicker(ticker);
}

QList<QCPBars *> CountsPlot::makeGroupedBars(QCPAxisRect *rect, QCPBarsGroup *group)
{
    QList<QCPBars *> out;
    const int n = m_snap->governorCount();
    const double width = std::min(0.22, 0.8 / std::max(1, n));
    for (int g = 0; g < n; ++g) {
        auto *bars = new QCPBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        const QColor c = m_snap->governors[static_cast<std::size_t>(g)].color;
        bars->setPen(QPen(c.darker(115), 1));
        bars->setBrush(c);
        bars->setWidth(width);
        bars->setName(m_snap->name(g));
        bars->setBarsGroup(group);
        out << bars;
    }
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    return out;
}

} // namespace idlescope
