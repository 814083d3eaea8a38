// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/plot_base.h"

#include "widgets/view_state.h"

#include <QEvent>
#include <QFontMetrics>
#include <QToolTip>
#include <QVBoxLayout>

#include <utility>

namespace idlescope {

QString wrapWords(const QString &text, const QFont &font, int widthPx)
{
    const QFontMetrics fm(font);
    QStringList lines;
    QString line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(longer) > widthPx) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join(QLatin1Char('\n'));
}

PlotBase::PlotBase(const QString &title, ViewState *view, QWidget *parent)
    : QWidget(parent), m_view(view), m_plot(new QCustomPlot(this)), m_title(title)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(120);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setPlottingHint(QCP::phCacheLabels, true);
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    m_palette = PlotPalette::fromPalette(palette());
    m_plot->setBackground(QBrush(m_palette.background));
    // One paint buffer for the whole plot: QCustomPlot's overlay layer (the
    // Shift+drag rubber band) has a buffer of its own by default, a
    // full-size clear and blend on every replot, for a rectangle that only
    // exists while the band is dragged (then a drag move replots it all).
    m_plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);

    m_plot->plotLayout()->insertRow(0);
    QFont f = font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 0.95);
    m_titleElement = new QCPTextElement(m_plot, title, f);
    m_titleElement->setTextColor(m_palette.title);
    m_titleElement->setMargins(QMargins(8, 4, 8, 0));
    m_titleElement->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_plot->plotLayout()->addElement(0, 0, m_titleElement);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    styleAxisRect(m_plot->axisRect());

    // A new size means a new number of decimation columns: rebuild (once, on the timer).
    m_plot->installEventFilter(this);

    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &PlotBase::flush);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *e) {
        const QString tip = hoverText(e->position());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), tip, m_plot);
    });
}

bool PlotBase::eventFilter(QObject *watched, QEvent *event)
{
    // QCustomPlot lays itself out again in its own resizeEvent, before the
    // timer fires, so rebuild() sees the new axis rect width.
    if (watched == m_plot && event->type() == QEvent::Resize)
        markDirty();
    return QWidget::eventFilter(watched, event);
}

QString PlotBase::hoverText(const QPointF &pos) const
{
    if (!m_plot->axisRect()->rect().contains(pos.toPoint()))
        return {};
    return tooltipAt(pos);
}

void PlotBase::setTitle(const QString &title)
{
    m_title = title;
    m_titleElement->setText(title);
}

void PlotBase::setSnapshot(SnapshotPtr snapshot)
{
    // The plots read the per-run counts and summaries a runner adds.
    m_snap = snapshot && snapshot->summarised() ? std::move(snapshot) : nullptr;
    markDirty();
}

int PlotBase::pointCount() const
{
    int n = 0;
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = m_plot->plottable(i);
        if (auto *g = qobject_cast<QCPGraph *>(p))
            n += g->data()->size();
        else if (auto *b = qobject_cast<QCPBars *>(p))
            n += b->data()->size();
    }
    return n;
}

void PlotBase::refreshNow()
{
    m_timer.stop();
    if (m_dirty) {
        m_dirty = false;
        rebuild();
    }
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

QString PlotBase::tooltipAt(const QPointF &) const
{
    return {};
}

void PlotBase::markDirty()
{
    m_dirty = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void PlotBase::scheduleReplot()
{
    if (!m_timer.isActive())
        m_timer.start();
}

void PlotBase::flush()
{
    if (m_dirty) {
        m_dirty = false;
        rebuild();
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

namespace {

/// The frame colours of @p axis from @p p (a hidden base line stays hidden).
void colourAxis(QCPAxis *axis, const PlotPalette &p)
{
    axis->setLabelColor(p.ink);
    axis->setTickLabelColor(p.ink);
    if (axis->basePen().style() != Qt::NoPen)
        axis->setBasePen(QPen(p.axis));
    axis->setTickPen(QPen(p.axis));
    axis->setSubTickPen(QPen(p.subTick));
    axis->grid()->setPen(QPen(p.grid, 1, Qt::SolidLine));
    axis->grid()->setSubGridPen(QPen(p.subGrid, 1, Qt::SolidLine));
}

} // namespace

void PlotBase::styleAxis(QCPAxis *axis, const QString &label)
{
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    axis->setLabel(label);
    axis->setLabelFont(f);
    axis->setTickLabelFont(f);
    colourAxis(axis, m_palette);
    axis->grid()->setZeroLinePen(Qt::NoPen);
    axis->setTickLengthIn(0);
    axis->setTickLengthOut(4);
    axis->setSubTickLengthIn(0);
    axis->setSubTickLengthOut(2);
    axis->setLabelPadding(4);
}

void PlotBase::styleAxisRect(QCPAxisRect *rect)
{
    rect->setBackground(QBrush(m_palette.background));
    for (QCPAxis *a : rect->axes())
        a->setBasePen(QPen(m_palette.axis));
}

void PlotBase::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange || m_exportStyle)
        return;
    const PlotPalette p = PlotPalette::fromPalette(palette());
    if (p == m_palette)
        return;
    const PlotPalette from = std::exchange(m_palette, p);
    recolour(from);
    scheduleReplot();
}

PlotBase *PlotBase::of(QCustomPlot &plot)
{
    return qobject_cast<PlotBase *>(plot.parentWidget());
}

void PlotBase::setExportStyle(bool on)
{
    if (on == m_exportStyle)
        return;
    m_exportStyle = on;
    const PlotPalette p = on ? PlotPalette::light() : PlotPalette::fromPalette(palette());
    if (p == m_palette)
        return;
    const PlotPalette from = std::exchange(m_palette, p);
    recolour(from);
    if (!on)
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

ExportStyleScope::ExportStyleScope(QCustomPlot &plot) : m_base(PlotBase::of(plot))
{
    if (m_base)
        m_base->setExportStyle(true);
}

ExportStyleScope::~ExportStyleScope()
{
    if (m_base)
        m_base->setExportStyle(false);
}

namespace {

/// @p c in @p to when it is one of @p from's colours (its alpha kept), else @p c: the
/// colours a plot took from its palette follow it, a governor's stay its own.
QColor mapped(const QColor &c, const PlotPalette &from, const PlotPalette &to)
{
    const std::pair<QColor, QColor> pairs[] = {{from.background, to.background},
                                               {from.title, to.title},
                                               {from.ink, to.ink},
                                               {from.muted, to.muted},
                                               {from.axis, to.axis},
                                               {from.subTick, to.subTick},
                                               {from.grid, to.grid},
                                               {from.subGrid, to.subGrid},
                                               {from.faint, to.faint},
                                               {from.reference, to.reference},
                                               {from.fill, to.fill},
                                               {from.line, to.line}};
    for (const auto &[a, b] : pairs)
        if (c.rgb() == a.rgb()) {
            QColor out = b;
            out.setAlpha(c.alpha());
            return out;
        }
    return c;
}

} // namespace

void PlotBase::recolour(const PlotPalette &from)
{
    const PlotPalette &p = m_palette;
    m_plot->setBackground(QBrush(p.background));
    for (QCPAxisRect *r : m_plot->axisRects()) {
        r->setBackground(QBrush(p.background));
        for (QCPAxis *a : r->axes())
            colourAxis(a, p);
    }
    for (QCPLayoutElement *e : m_plot->plotLayout()->elements(true))
        if (auto *t = qobject_cast<QCPTextElement *>(e))
            t->setTextColor(mapped(t->textColor(), from, p));
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        QCPAbstractItem *item = m_plot->item(i);
        if (auto *t = qobject_cast<QCPItemText *>(item)) {
            t->setColor(mapped(t->color(), from, p));
            if (t->brush().style() != Qt::NoBrush)
                t->setBrush(QBrush(mapped(t->brush().color(), from, p)));
        } else if (auto *l = qobject_cast<QCPItemStraightLine *>(item)) {
            QPen pen = l->pen();
            pen.setColor(mapped(pen.color(), from, p));
            l->setPen(pen);
        }
    }
    if (m_plot->legend) {
        m_plot->legend->setBrush(QBrush(p.background));
        m_plot->legend->setTextColor(p.ink);
        m_plot->legend->setBorderPen(QPen(p.subTick));
    }
    applyPalette();
}

std::vector<PlotBase::ResidencyLine> PlotBase::addResidencyLines(Qt::Orientation orientation)
{
    std::vector<ResidencyLine> lines;
    for (const IdleState &st : m_snap->table.states) {
        if (st.targetResidencyNs <= 0)
            continue;
        const double ns = static_cast<double>(st.targetResidencyNs);
        auto *line = new QCPItemStraightLine(m_plot);
        line->setPen(QPen(m_palette.reference, 1, Qt::DashLine));
        if (orientation == Qt::Vertical) {
            line->point1->setCoords(ns, 0);
            line->point2->setCoords(ns, 1);
        } else {
            line->point1->setCoords(0, ns);
            line->point2->setCoords(1, ns);
        }
        lines.push_back({&st, ns, line});
    }
    return lines;
}

int PlotBase::columns() const
{
    return std::max(16, m_plot->axisRect()->width());
}

} // namespace idlescope
