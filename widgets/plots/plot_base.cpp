// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/plot_base.h"

#include "widgets/view_state.h"

#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>

namespace idlescope {

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
    m_plot->setBackground(QBrush(Qt::white));
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
    m_titleElement->setTextColor(QColor(0x30, 0x30, 0x30));
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

void PlotBase::styleAxis(QCPAxis *axis, const QString &label)
{
    const QColor ink(0x40, 0x40, 0x40);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    axis->setLabel(label);
    axis->setLabelFont(f);
    axis->setTickLabelFont(f);
    axis->setLabelColor(ink);
    axis->setTickLabelColor(ink);
    axis->setBasePen(QPen(QColor(0x9a, 0x9a, 0x9a)));
    axis->setTickPen(QPen(QColor(0x9a, 0x9a, 0x9a)));
    axis->setSubTickPen(QPen(QColor(0xc0, 0xc0, 0xc0)));
    axis->grid()->setPen(QPen(QColor(0xe6, 0xe6, 0xe6), 1, Qt::SolidLine));
    axis->grid()->setSubGridPen(QPen(QColor(0xf3, 0xf3, 0xf3), 1, Qt::SolidLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
    axis->setTickLengthIn(0);
    axis->setTickLengthOut(4);
    axis->setSubTickLengthIn(0);
    axis->setSubTickLengthOut(2);
    axis->setLabelPadding(4);
}

void PlotBase::styleAxisRect(QCPAxisRect *rect)
{
    rect->setBackground(QBrush(Qt::white));
    for (QCPAxis *a : rect->axes())
        a->setBasePen(QPen(QColor(0x9a, 0x9a, 0x9a)));
}

QColor PlotBase::tint(const QColor &c, double alpha)
{
    // Pre-blended onto the white background: an opaque fill is a plain
    // memory fill for the raster engine, a translucent one is a blend.
    const auto mix = [alpha](int x) { return static_cast<int>(255 - (255 - x) * alpha + 0.5); };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

std::vector<PlotBase::ResidencyLine> PlotBase::addResidencyLines(Qt::Orientation orientation)
{
    std::vector<ResidencyLine> lines;
    for (const IdleState &st : m_snap->table.states) {
        if (st.targetResidencyNs <= 0)
            continue;
        const double ns = static_cast<double>(st.targetResidencyNs);
        auto *line = new QCPItemStraightLine(m_plot);
        line->setPen(QPen(QColor(0x70, 0x70, 0x70), 1, Qt::DashLine));
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
