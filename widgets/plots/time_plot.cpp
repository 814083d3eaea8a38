// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/time_plot.h"

#include "widgets/trace/trace_entry_text.h"

#include "widgets/plots/time_ticker.h"
#include "widgets/view_state.h"

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace idlescope {

TimePlot::TimePlot(const QString &title, ViewState *view, QWidget *parent) : PlotBase(title, view, parent)
{
    QCPAxisRect *rect = m_plot->axisRect();
    rect->setAutoMargins(QCP::msTop | QCP::msBottom | QCP::msRight);
    rect->setMargins(QMargins(LEFT_MARGIN, 0, 0, 0));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new NsTicker));
    styleAxis(m_plot->xAxis, tr("time since start of run"));
    m_plot->xAxis->setRange(static_cast<double>(view->rangeStartNs()), static_cast<double>(view->rangeEndNs()));

    // The cursor and selection lines sit above the data on a layer of their
    // own, but in the same paint buffer: every cursor move re-clips the data
    // and so replots it anyway, and each separate buffer would cost a
    // full-size clear and a full-size blend on every replot.
    m_plot->addLayer(QStringLiteral("cursor"), m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_cursorLine = new QCPItemStraightLine(m_plot);
    m_cursorLine->setLayer(QStringLiteral("cursor"));
    m_cursorLine->setPen(QPen(QColor(0xd0, 0x30, 0x30), 1.5));
    m_cursorLine->setVisible(false);
    m_selectionLine = new QCPItemStraightLine(m_plot);
    m_selectionLine->setLayer(QStringLiteral("cursor"));
    m_selectionLine->setVisible(false);
    m_noTimeline = new QCPItemText(m_plot);
    m_noTimeline->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_noTimeline->position->setCoords(0.5, 0.5);
    m_noTimeline->setPositionAlignment(Qt::AlignCenter);
    m_noTimeline->setText(noTimelineText());
    m_noTimeline->setTextAlignment(Qt::AlignCenter);
    m_noTimeline->setVisible(false);

    // Selection rectangle for Shift+drag zooms; the rest of the mouse is ours.
    m_plot->setSelectionRectMode(QCP::srmNone);
    m_plot->selectionRect()->setPen(QPen(QColor(0x4e, 0x79, 0xa7), 1, Qt::DashLine));
    m_plot->selectionRect()->setBrush(QBrush(QColor(0x4e, 0x79, 0xa7, 30)));
    connect(m_plot->selectionRect(), &QCPSelectionRect::accepted, this, [this](const QRect &r, QMouseEvent *) {
        if (r.width() > 3)
            m_view->zoomTo(timeAt(r.left()), timeAt(r.right()));
        m_plot->setSelectionRectMode(QCP::srmNone);
    });

    connect(view, &ViewState::rangeChanged, this, &TimePlot::onRangeChanged);
    connect(view, &ViewState::cursorChanged, this, &TimePlot::onCursorChanged);
    connect(view, &ViewState::entrySelected, this, &TimePlot::onEntrySelected);
    connect(m_plot, &QCustomPlot::mousePress, this, &TimePlot::mousePress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimePlot::mouseMoveDrag);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TimePlot::mouseRelease);
    connect(m_plot, &QCustomPlot::mouseWheel, this, &TimePlot::wheel);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent *) { m_view->zoomOut(); });
    // Any layout that leaves the plot area at another width than the one decimated for
    // (a margin grown by new labels without a resize) decimates again, once, on the timer.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (m_snap && m_cachedColumns >= 0 && columns() != m_cachedColumns)
            markDirty();
    });
}

void TimePlot::rebuild()
{
    updateSelectionLine();
    if (!m_snap) {
        for (int i = 0; i < m_plot->graphCount(); ++i)
            m_plot->graph(i)->data()->clear();
        return;
    }
    m_plot->xAxis->setRange(static_cast<double>(m_view->rangeStartNs()), static_cast<double>(m_view->rangeEndNs()));
    // A closed loop has no entries to place in time: an axis of "0 … 1 ns" said it had.
    const bool noTimeline = m_snap->isClosedLoop();
    m_noTimeline->setVisible(noTimeline);
    m_plot->xAxis->setTickLabels(!noTimeline);
    m_plot->xAxis->setTicks(!noTimeline);
    const QString clock = noTimeline ? QString() : timeAxisTitle(*m_snap);
    if (m_plot->xAxis->label() != clock)
        m_plot->xAxis->setLabel(clock);
    prepareAxes();
    if (noTimeline) {
        // Wrapped to the frame, the plot's width less a margin before the first layout.
        const int frame = m_plot->axisRect()->width() > 50 ? m_plot->axisRect()->width() : m_plot->width() - 100;
        m_noTimeline->setText(wrapWords(noTimelineText(), m_noTimeline->font(), std::max(120, frame - 24)));
    }
    const int cols = columns();
    if (m_cachedGeneration != m_snap->generation || m_cachedStart != m_view->rangeStartNs()
        || m_cachedEnd != m_view->rangeEndNs() || m_cachedColumns != cols) {
        m_cachedGeneration = m_snap->generation;
        m_cachedStart = m_view->rangeStartNs();
        m_cachedEnd = m_view->rangeEndNs();
        m_cachedColumns = cols;
        decimate(TimeWindow{m_cachedStart, m_cachedEnd, cols});
    }
    const qint64 cursor = m_view->cursorNs();
    fill(cursor < 0 ? std::numeric_limits<Ns>::max() : cursor);
}

void TimePlot::layOut()
{
    // QCustomPlot::updateLayout() is protected; these are its phases.
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        m_plot->plotLayout()->update(phase);
}

QString TimePlot::noTimelineText()
{
    return tr("A closed loop keeps each governor's totals only (Comparison table): "
              "every governor runs spans of its own, with no common timeline.");
}

QString TimePlot::timeAxisLabel() const
{
    return m_plot->xAxis->label();
}

QString TimePlot::timeAxisTitle(const SimulationSnapshot &snap)
{
    // Every run is drawn on the workload's clock (span_clock.h): say which, in words that
    // fit under a plot exported at a projector's width (a figure cut its caption's end).
    if (snap.trace)
        return tr("trace time since its first event (%1 s)").arg(traceTimestampText(snap.trace->originNs));
    return tr("stream time (the stream's gaps and idle durations, no exit latency)");
}

std::pair<int, qint64> TimePlot::entryAt(const QPointF &) const
{
    return {-1, -1};
}

void TimePlot::decimateEach(std::size_t n, const std::function<void(std::size_t)> &decimateOne)
{
    if (n <= 1) {
        if (n == 1)
            decimateOne(0);
        return;
    }
    std::vector<std::size_t> items(n);
    std::iota(items.begin(), items.end(), std::size_t(0));
    QtConcurrent::blockingMap(items, [&decimateOne](std::size_t k) { decimateOne(k); });
}

void TimePlot::setGraphData(QCPGraph *graph, const std::vector<DecimatedPoint> &pts, Ns clipNs, double valueScale)
{
    QVector<QCPGraphData> data;
    data.reserve(static_cast<qsizetype>(pts.size()));
    for (const DecimatedPoint &p : pts) {
        if (p.t > clipNs)
            break;
        data.append(QCPGraphData(static_cast<double>(p.t), p.v * valueScale));
    }
    graph->data()->set(data, true);
}

QString TimePlot::seriesSetupKey() const
{
    if (!m_snap)
        return {};
    QString key;
    for (int g = 0; g < m_snap->governorCount(); ++g)
        key += m_snap->name(g) + QLatin1Char(' ')
               + m_snap->governors[static_cast<std::size_t>(g)].color.name(QColor::HexArgb) + QLatin1Char(';');
    key += QLatin1Char('|');
    for (const IdleState &st : m_snap->table.states)
        key += QString::fromStdString(st.name) + QLatin1Char(' ') + QString::number(st.targetResidencyNs)
               + QLatin1Char(';');
    return key + QString::number(m_snap->table.tickNsec());
}

bool TimePlot::seriesSetupChanged()
{
    if (m_setupGeneration == m_snap->generation)
        return false;
    m_setupGeneration = m_snap->generation;
    QString key = seriesSetupKey();
    if (key == m_setupKey)
        return false;
    m_setupKey = std::move(key);
    return true;
}

Ns TimePlot::timeAt(double pixelX) const
{
    return static_cast<Ns>(std::llround(m_plot->xAxis->pixelToCoord(pixelX)));
}

qint64 TimePlot::nearestEntry(int g, Ns t) const
{
    if (!m_snap || g < 0 || g >= m_snap->governorCount())
        return -1;
    const std::vector<Ns> &keys = m_snap->governors[static_cast<std::size_t>(g)].run->startNs;
    if (keys.empty())
        return -1;
    const std::int64_t i = lastIndexAtOrBefore(keys, t);
    if (i < 0)
        return 0;
    const auto next = static_cast<std::size_t>(i) + 1;
    if (next < keys.size() && keys[next] - t < t - keys[static_cast<std::size_t>(i)])
        return static_cast<qint64>(next);
    return i;
}

void TimePlot::onRangeChanged(qint64 startNs, qint64 endNs)
{
    m_plot->xAxis->setRange(static_cast<double>(startNs), static_cast<double>(endNs));
    markDirty();
}

void TimePlot::onCursorChanged(qint64 ns)
{
    m_cursorLine->setVisible(ns >= 0);
    if (ns >= 0) {
        m_cursorLine->point1->setCoords(static_cast<double>(ns), 1);
        m_cursorLine->point2->setCoords(static_cast<double>(ns), 2);
    }
    markDirty(); // re-clip the cached points
}

qint64 TimePlot::selectionLineNs() const
{
    return m_selectionLine->visible() ? static_cast<qint64>(std::llround(m_selectionLine->point1->key())) : -1;
}

QColor TimePlot::selectionLineColor() const
{
    return m_selectionLine->pen().color();
}

void TimePlot::onEntrySelected(int, qint64)
{
    updateSelectionLine();
    scheduleReplot();
}

void TimePlot::updateSelectionLine()
{
    // Always from the view state and the snapshot shown: a re-simulation can move
    // the selected entry (same index, new time) or remove it without any
    // entrySelected in between.
    const int g = m_view->selectedGovernor();
    const qint64 entry = m_view->selectedEntry();
    const bool ok = m_snap && g >= 0 && g < m_snap->governorCount() && entry >= 0
                    && static_cast<std::size_t>(entry) < m_snap->governors[static_cast<std::size_t>(g)].run->size();
    m_selectionLine->setVisible(ok);
    if (ok) {
        const double t = static_cast<double>(
            m_snap->governors[static_cast<std::size_t>(g)].run->startNs[static_cast<std::size_t>(entry)]);
        m_selectionLine->setPen(QPen(m_snap->governors[static_cast<std::size_t>(g)].color, 1.2, Qt::DashLine));
        m_selectionLine->point1->setCoords(t, 1);
        m_selectionLine->point2->setCoords(t, 2);
    }
}

void TimePlot::mousePress(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton)
        return;
    if (e->modifiers() & Qt::ShiftModifier) {
        m_plot->setSelectionRectMode(QCP::srmCustom); // QCustomPlot starts the band after this signal
        return;
    }
    m_dragging = true;
    m_moved = false;
    m_pressPos = e->position();
    m_pressStart = m_view->rangeStartNs();
    m_pressEnd = m_view->rangeEndNs();
}

void TimePlot::mouseMoveDrag(QMouseEvent *e)
{
    if (!m_dragging)
        return;
    const double dx = e->position().x() - m_pressPos.x();
    if (!m_moved && std::fabs(dx) < 3)
        return;
    m_moved = true;
    const double nsPerPx = static_cast<double>(m_pressEnd - m_pressStart) / std::max(1, m_plot->axisRect()->width());
    const auto shift = static_cast<qint64>(std::llround(-dx * nsPerPx));
    m_view->setRange(m_pressStart + shift, m_pressEnd + shift);
}

void TimePlot::mouseRelease(QMouseEvent *e)
{
    const bool click = m_dragging && !m_moved;
    m_dragging = false;
    if (!click || !m_plot->axisRect()->rect().contains(e->position().toPoint()))
        return;
    const auto [g, entry] = entryAt(e->position());
    if (g < 0)
        return;
    m_view->selectEntry(g, entry);
    emit entryClicked(g, entry);
}

void TimePlot::wheel(QWheelEvent *e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    const double factor = std::pow(0.8, steps); // < 1 zooms in
    const double center = m_plot->xAxis->pixelToCoord(e->position().x());
    const double start = static_cast<double>(m_view->rangeStartNs());
    const double end = static_cast<double>(m_view->rangeEndNs());
    const double newStart = center - (center - start) * factor;
    const double newEnd = center + (end - center) * factor;
    if (newEnd - newStart < 1000) // 1 us is as deep as it gets
        return;
    m_view->setRange(static_cast<qint64>(std::llround(newStart)), static_cast<qint64>(std::llround(newEnd)));
}

} // namespace idlescope
