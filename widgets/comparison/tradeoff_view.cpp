// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/comparison/tradeoff_view.h"

#include "core/governors/explain.h"
#include "widgets/comparison/comparison_table_model.h"

#include <QFontMetrics>

#include <cmath>
#include <limits>

namespace idlescope {

namespace {

using Col = ComparisonTableModel::Column;

constexpr int PANEL_COLUMN[] = {Col::IdleMissesColumn, Col::ThroughputColumn, Col::EnergyColumn, Col::AddedP99Column};

} // namespace

TradeoffView::TradeoffView(ComparisonTableModel *model, QWidget *parent)
    : PlotBase(tr("Misses, throughput and energy per governor"), nullptr, parent), m_model(model)
{
    // PlotBase's one axis rect becomes the first of three panels in a row, each under its title.
    QCPLayoutGrid *layout = m_plot->plotLayout();
    QCPAxisRect *first = m_plot->axisRect();
    layout->take(first);
    auto *row = new QCPLayoutGrid;
    m_row = row;
    layout->addElement(1, 0, row);
    m_rects[Misses] = first;
    const QString titles[] = {tr("idle misses (fewer is better)"), tr("wakeups/s (more is better)"),
                              tr("idle + entry/exit energy, J (less is better)"),
                              tr("added latency p99, \u00b5s (less is better)")};
    for (int p = 0; p < PanelCount; ++p) {
        if (p > 0)
            m_rects[p] = new QCPAxisRect(m_plot);
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.9);
        auto *title = new QCPTextElement(m_plot, titles[p], f);
        title->setTextColor(plotPalette().muted);
        // A title wraps to its panel (fitNamesAndTitle()): its lines must not hold the panel, and
        // so the window, at the width it was wrapped for (a restored window grew by their width).
        title->setMinimumSize(1, 0);
        m_titles[p] = title;
        row->addElement(0, p, title);
        row->addElement(1, p, m_rects[p]);
        styleAxisRect(m_rects[p]);
        styleAxis(m_rects[p]->axis(QCPAxis::atBottom), QString());
        styleAxis(m_rects[p]->axis(QCPAxis::atLeft), QString());
        m_rects[p]->axis(QCPAxis::atBottom)->grid()->setVisible(false);
    }
    row->setRowStretchFactor(0, 0.001);
    showLatencyPanel(false); // until a closed loop is shown
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { markDirty(); });
    markDirty();
}

TradeoffView::~TradeoffView()
{
    showLatencyPanel(true); // back in the layout, which owns (and deletes) it
}

QString TradeoffView::panelTitle(Panel panel) const
{
    return QString(m_titles[panel]->text()).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

int TradeoffView::panelColumn(int panel) const
{
    if (panel == Energy && m_loopEnergy)
        return Col::LoopEnergyColumn;
    return panel == Throughput && m_closedLoop ? int(Col::OpsColumn) : PANEL_COLUMN[panel];
}

void TradeoffView::showLatencyPanel(bool show)
{
    if (show == m_latencyShown)
        return;
    m_latencyShown = show;
    // Out of the layout it would still be drawn where it last stood: hidden too.
    m_titles[AddedLatency]->setVisible(show);
    m_rects[AddedLatency]->setVisible(show);
    if (show) {
        m_row->addElement(0, AddedLatency, m_titles[AddedLatency]);
        m_row->addElement(1, AddedLatency, m_rects[AddedLatency]);
    } else {
        m_row->take(m_titles[AddedLatency]);
        m_row->take(m_rects[AddedLatency]);
        m_row->simplify();
    }
}

int TradeoffView::barCount() const
{
    return static_cast<int>(m_bars[Misses].size());
}

double TradeoffView::barValue(Panel panel, int row) const
{
    for (const QCPBars *b : m_bars[panel])
        if (!b->data()->isEmpty() && b->data()->begin()->key == row + 1)
            return b->data()->begin()->value;
    return std::numeric_limits<double>::quiet_NaN();
}

QString TradeoffView::energyNote() const
{
    return m_energyNote && m_energyNote->visible() ? m_energyNote->text() : QString();
}

double TradeoffView::tableValue(int panel, int row) const
{
    const QVariant v = m_model->index(row, panelColumn(panel)).data(Qt::EditRole);
    return v.isValid() ? v.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

void TradeoffView::rebuild()
{
    const int n = m_model->rowCount();
    QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
    for (int g = 0; g < n; ++g)
        names->addTick(g + 1, m_model->index(g, Col::GovColumn).data(Qt::EditRole).toString());
    m_plot->clearItems(); // the value labels; the note is made again below
    m_energyNote = nullptr;
    for (QList<QCPItemText *> &labels : m_valueLabels)
        labels.clear();
    m_closedLoop = n > 0 && m_model->index(0, Col::OpsColumn).data(Qt::EditRole).isValid();
    showLatencyPanel(m_closedLoop);
    m_titles[Throughput]->setText(m_closedLoop ? tr("operations/s (more is better)")
                                               : tr("wakeups/s (more is better)"));
    // A closed loop with an active power: compare --closed-loop's energy_J, every run over the
    // same window (the slowest run's), and the title says which; else idle_energy_J, each run
    // over its own time, which is idle and entry/exit energy only.
    m_loopEnergy = m_closedLoop && m_model->index(0, Col::LoopEnergyColumn).data(Qt::EditRole).isValid();
    const SnapshotPtr snap = m_model->snapshot();
    const std::optional<ClosedLoopRun> *loop =
        snap && !snap->governors.empty() ? &snap->governors[0].closedLoop : nullptr;
    m_titles[Energy]->setText(
        m_loopEnergy && loop && *loop
            ? tr("energy over the slowest run's %1, J (less is better)")
                  .arg(QString::fromStdString(formatDuration((**loop).energyWindowNs, UnitStyle::Micro)))
            : tr("idle + entry/exit energy, J (less is better)"));
    bool anyEnergy = false;
    for (int p = 0; p < PanelCount; ++p) {
        for (QCPBars *b : std::as_const(m_bars[p]))
            m_plot->removePlottable(b);
        m_bars[p].clear();
        if (p == AddedLatency && !m_closedLoop)
            continue;
        QCPAxis *x = m_rects[p]->axis(QCPAxis::atBottom);
        QCPAxis *y = m_rects[p]->axis(QCPAxis::atLeft);
        x->setTicker(names);
        x->setRange(0.4, n + 0.6);
        double top = 0;
        for (int g = 0; g < n; ++g) {
            // The table's own values (its latencies are in µs, as its cells read).
            const double v = tableValue(p, g);
            if (!std::isfinite(v))
                continue;
            if (p == Energy)
                anyEnergy = true;
            top = std::max(top, v);
            addBar(p, g, v, x, y);
        }
        y->setRange(0, top > 0 ? top * 1.2 : 1);
        fitValueLabels(p, n, top);
        fitNamesAndTitle(p, n);
    }
    showEnergyNote(n, anyEnergy);
}

void TradeoffView::fitNamesAndTitle(int p, int n)
{
    // A narrow pane: governor names wider than a bar's slot ran together ("menu-6.14teo-6.14")
    // and a one-line title was cut at both ends. Names slant, titles wrap to the panel.
    // The widget's share, not the panel's last laid-out rect: a title's lines do not hold the
    // panel's width (its minimum is 1), so the rect may still be the width it was wrapped for.
    const double width = m_plot->width() / double(std::max(1, m_row->columnCount()));
    QCPAxis *x = m_rects[p]->axis(QCPAxis::atBottom);
    const QFontMetrics names(x->tickLabelFont());
    int widest = 0;
    for (int g = 0; g < n; ++g)
        widest =
            std::max(widest, names.horizontalAdvance(m_model->index(g, Col::GovColumn).data(Qt::EditRole).toString()));
    x->setTickLabelRotation(n > 3 || widest + 6 > (width - 50) / (n + 0.2) ? 30 : 0);
    const QString title = panelTitle(static_cast<Panel>(p));
    const QString wrapped = wrapWords(title, m_titles[p]->font(), static_cast<int>(width) - 8);
    if (wrapped != m_titles[p]->text())
        m_titles[p]->setText(wrapped);
}

void TradeoffView::fitValueLabels(int p, int n, double top)
{
    // Labels wider than a bar's slot ran together ("16663.716663.716665.0"): turned upright
    // along their bars, with the headroom above the tallest bar they need.
    if (m_valueLabels[p].isEmpty() || top <= 0)
        return;
    const QRect rect = m_rects[p]->rect();
    const double width =
        rect.width() > 40 ? rect.width() : m_plot->width() / double(std::max(1, m_row->columnCount())) - 60;
    const double slot = width / (n + 0.2);
    const QFontMetrics fm(m_valueLabels[p].first()->font());
    const auto widestLabel = [&] {
        int widest = 0;
        for (const QCPItemText *t : std::as_const(m_valueLabels[p]))
            widest = std::max(widest, fm.horizontalAdvance(t->text()));
        return widest;
    };
    int widest = widestLabel();
    if (widest + 6 > slot) { // first four significant digits ("0.245006" J as 0.245)
        for (QCPItemText *t : std::as_const(m_valueLabels[p])) {
            bool number = false;
            const double v = t->text().toDouble(&number);
            if (number)
                t->setText(QString::number(v, 'g', 4));
        }
        widest = widestLabel();
    }
    if (widest + 6 <= slot)
        return;
    for (QCPItemText *t : std::as_const(m_valueLabels[p])) {
        t->setRotation(-90);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        t->setPadding(QMargins(3, 0, 0, 0));
    }
    const double height = rect.height() > 40 ? rect.height() : 150;
    // Too short a panel for upright labels too: none rather than cut ones (the table and the
    // bar's tooltip have the value).
    if (widest + 8 > height * 0.65) {
        for (QCPItemText *t : std::as_const(m_valueLabels[p]))
            t->setVisible(false);
        return;
    }
    const double free = std::max(height * 0.35, height - widest - 8);
    m_rects[p]->axis(QCPAxis::atLeft)->setRange(0, top * height / free);
}

void TradeoffView::addBar(int p, int g, double v, QCPAxis *x, QCPAxis *y)
{
    auto *bars = new QCPBars(x, y);
    const QColor c = m_model->index(g, Col::GovColumn).data(Qt::DecorationRole).value<QColor>();
    bars->setPen(QPen(c.darker(115), 1));
    bars->setBrush(c);
    bars->setWidth(0.6);
    bars->addData(g + 1, v);
    m_bars[p] << bars;
    // The table's own cell above the bar, so that the panel reads without the table.
    auto *label = new QCPItemText(m_plot);
    label->setClipAxisRect(m_rects[p]);
    label->position->setAxes(x, y);
    label->position->setCoords(g + 1, v);
    label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    // The latency panel's bar is the p99, and its title says µs: the number alone (two
    // lines of "mean … µs / p99 … µs" ran into the neighbours' labels).
    QString text = m_model->index(g, panelColumn(p)).data().toString();
    if (p == AddedLatency)
        text.remove(QStringLiteral(" \u00b5s"));
    label->setText(text);
    m_valueLabels[p] << label;
    label->setColor(plotPalette().ink);
    label->setFont(QFont(font().family(), static_cast<int>(font().pointSizeF() * 0.85)));
}

void TradeoffView::showEnergyNote(int n, bool anyEnergy)
{
    // No power data: the table's word for it where the bars would be ("no power data").
    // Then what is missing and how to give it: the table's reason ("no power data for table
    // pseries-power10-lpar (power_mw of each state, in a table JSON file)") and where it is set.
    QString note;
    for (int g = 0; g < n && !anyEnergy && note.isEmpty(); ++g)
        if (const QString text = m_model->index(g, Col::EnergyColumn).data().toString();
            text != QStringLiteral("\u2014")) {
            note = text;
            QString why = m_model->index(g, Col::EnergyColumn).data(NoValueReasonRole).toString();
            if (!why.isEmpty())
                note = why.replace(QStringLiteral(" ("), QStringLiteral("\n(")) + QLatin1Char('\n')
                       + tr("Setup \u203a Target \u203a Table file\u2026 loads one; on a trace,\n"
                            "arm-juno-r0 has Juno's energy model");
        }
    m_energyNote = new QCPItemText(m_plot);
    m_energyNote->setClipAxisRect(m_rects[Energy]);
    m_energyNote->position->setAxisRect(m_rects[Energy]);
    m_energyNote->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_energyNote->position->setCoords(0.5, 0.5);
    m_energyNote->setColor(plotPalette().muted);
    m_energyNote->setText(note);
    m_energyNote->setVisible(!note.isEmpty());
    m_rects[Energy]->axis(QCPAxis::atLeft)->setTickLabels(note.isEmpty()); // no scale for nothing drawn
}

QString TradeoffView::tooltipAt(const QPointF &pos) const
{
    for (int p = 0; p < PanelCount; ++p)
        for (int b = 0; b < m_bars[p].size(); ++b)
            if (m_bars[p][b]->selectTest(pos, false) >= 0) {
                const int row = static_cast<int>(m_bars[p][b]->data()->begin()->key) - 1;
                return m_model->index(row, Col::GovColumn).data(Qt::EditRole).toString() + QStringLiteral(": ")
                       + m_model->index(row, panelColumn(p)).data(Qt::ToolTipRole).toString();
            }
    return {};
}

} // namespace idlescope
