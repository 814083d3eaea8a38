// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/inspector/reasoning_chart.h"

#include "core/governors/explain.h"
#include "widgets/plots/qcp.h"

#include <QFontMetricsF>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace idlescope {

namespace {

const QColor GREY(0xa0, 0xa0, 0xa0);
const QColor LIGHT_GREY(0xd8, 0xd8, 0xd8);
const QColor ORANGE(0xe6, 0x7e, 0x22);
const QColor DARK(0x33, 0x33, 0x33);

double toUs(Ns ns)
{
    return static_cast<double>(ns) / 1000.0;
}

QString usText(double us)
{
    return QString::fromStdString(formatDuration(static_cast<Ns>(us * 1000.0), UnitStyle::Micro));
}

QString name(const IdleStateTable &t, int i)
{
    return i >= 0 && i < t.count() ? QString::fromStdString(t[i].name) : QStringLiteral("?");
}

QCPBars *makeBars(QCustomPlot *plot, const QColor &fill, const QString &legend)
{
    auto *b = new QCPBars(plot->xAxis, plot->yAxis);
    b->setName(legend);
    b->setBrush(fill);
    b->setPen(QPen(fill.darker(130)));
    b->setWidth(0.7);
    return b;
}

/// Log scale when hi / lo exceeds @p logRatio. Bars keep their base at 0:
/// QCPBars draws from base to base + value, and a 0 base on a log axis is
/// placed below the axis rect, so the bars rise from the bottom edge.
void setValueScale(QCustomPlot *plot, double lo, double hi, double logRatio = 100.0)
{
    lo = std::max(lo, 0.001);
    hi = std::max(hi, lo * 2);
    if (hi / lo > logRatio) {
        plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        plot->yAxis->setRange(lo / 2, hi * 2);
    } else {
        plot->yAxis->setScaleType(QCPAxis::stLinear);
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->yAxis->setRange(0, hi * 1.15);
    }
}

} // namespace

ReasoningChart::ReasoningChart(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(320, 200);
    // Title row, axis rect, then the legend in one line below (inside the
    // axis rect it would cover the level labels).
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0,
                                     new QCPTextElement(m_plot, QString(), QFont(font().family(), 9, QFont::Bold)));
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(2, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setFont(QFont(font().family(), 8));
    m_plot->legend->setIconSize(14, 9);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setVisible(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    connect(m_plot, &QCustomPlot::afterLayout, this, &ReasoningChart::placeLevelLabels);
    clear();
}

void ReasoningChart::reset(const QString &title)
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_levels.clear();
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis})
        axis->setVisible(true);
    m_plot->legend->setVisible(true);
    m_plot->xAxis->setLabel(QString());
    m_plot->yAxis->setLabel(QString());
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->yAxis->setScaleType(QCPAxis::stLinear);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    static_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0))->setText(title);
    m_barCount = 0;
}

QString ReasoningChart::title() const
{
    return static_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0))->text();
}

void ReasoningChart::clear(const QString &title)
{
    // Every new snapshot clears the inspector while no entry is selected: a
    // replot of the same empty chart cost 2-3 ms of each re-simulation's hand-over.
    const QString text = title.isEmpty() ? tr("Select an entry") : title;
    if (m_cleared && text == m_clearedTitle)
        return;
    m_cleared = true;
    m_clearedTitle = text;
    reset(text);
    m_kind = Kind::None;
    // Nothing but the title: empty axes drew a 0..5 stub whose labels ran into each other.
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis})
        axis->setVisible(false);
    m_plot->legend->setVisible(false);
    m_plot->replot();
}

void ReasoningChart::showDetail(const EntryDetail &d, const IdleStateTable &table, const QColor &color)
{
    m_cleared = false;
    if (const auto *m = std::get_if<MenuReasoning>(&d.reasoning); m && m->intervalCount > 0)
        drawMenu(*m, table, color);
    else if (const auto *t = std::get_if<TeoReasoning>(&d.reasoning); t && t->binCount > 0)
        drawTeo(*t, table, color);
    else
        drawRuler(d, table, color);
    m_plot->replot();
}

void ReasoningChart::addLevel(double y, const QString &label, const QPen &pen, bool labelLeft)
{
    auto *line = new QCPItemStraightLine(m_plot);
    line->point1->setCoords(0, y);
    line->point2->setCoords(1, y);
    line->setPen(pen);
    auto *text = new QCPItemText(m_plot);
    text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    text->position->setTypeY(QCPItemPosition::ptPlotCoords);
    text->position->setCoords(labelLeft ? 0.01 : 0.99, y);
    text->setPositionAlignment((labelLeft ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom);
    text->setText(label);
    text->setColor(pen.color().darker(120));
    text->setFont(QFont(font().family(), 8));
    m_levels.push_back({text, y, labelLeft});
}

void ReasoningChart::placeLevelLabels()
{
    // Each label sits on its line (bottom edge at the line). On each side, from the
    // top down, a label that would overlap the one above moves down by the overlap;
    // if that pushes the last out of the axis rect, the stack moves up again.
    const QRect rect = m_plot->axisRect()->rect();
    constexpr double GAP_PX = 1.5; // the item's box is the font's height rounded up
    for (const bool left : {false, true}) {
        std::vector<std::pair<double, QCPItemText *>> side; // line pixel y, label
        for (const Level &l : m_levels)
            if (l.left == left)
                side.emplace_back(m_plot->yAxis->coordToPixel(l.y), l.text);
        std::sort(side.begin(), side.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        std::vector<double> bottom(side.size());
        for (std::size_t i = 0; i < side.size(); ++i) {
            const double h = QFontMetricsF(side[i].second->font()).height() + GAP_PX;
            bottom[i] = i == 0 ? side[i].first : std::max(side[i].first, bottom[i - 1] + h);
        }
        for (std::size_t i = side.size(); i-- > 0;) {
            const double h = i + 1 < side.size() ? QFontMetricsF(side[i + 1].second->font()).height() + GAP_PX : 0.0;
            const double limit = i + 1 < side.size() ? bottom[i + 1] - h : rect.bottom();
            bottom[i] = std::min(bottom[i], limit);
        }
        for (std::size_t i = 0; i < side.size(); ++i) {
            side[i].second->position->setTypeY(QCPItemPosition::ptAbsolute);
            side[i].second->position->setCoords(left ? 0.01 : 0.99, bottom[i]);
        }
    }
}

QList<QRectF> ReasoningChart::levelLabelRects() const
{
    QList<QRectF> out;
    for (const Level &l : m_levels) {
        const QPointF a = l.text->topLeft->pixelPosition(), b = l.text->bottomRight->pixelPosition();
        out << QRectF(a, b).normalized();
    }
    return out;
}

void ReasoningChart::drawMenu(const MenuReasoning &r, const IdleStateTable &table, const QColor &color)
{
    m_kind = Kind::MenuWindow;
    reset(tr("menu: the last %1 idle intervals (oldest left)").arg(r.intervalCount));
    QCPBars *used = makeBars(m_plot, color, tr("used"));
    QCPBars *dropped = makeBars(m_plot, GREY, tr("dropped as outlier"));
    QCPBars *ignored = makeBars(m_plot, LIGHT_GREY, tr("never considered"));
    double lo = 1e300, hi = 0;
    for (int k = 0; k < r.intervalCount; ++k) {
        const std::uint32_t v = r.intervalsUs[static_cast<std::size_t>(k)];
        if (v == UINT_MAX_U32) // "no data" placeholder: drawn at the top below
            continue;
        lo = std::min(lo, std::max(1.0, double(v)));
        hi = std::max(hi, double(v));
    }
    const double typical = r.typicalUs == UINT_MAX_U32 ? -1.0 : double(r.typicalUs);
    const double planned = toUs(r.predictedInitialNs);
    for (double y : {typical, planned, toUs(r.residencyThresholdNs)})
        if (y > 0 && y < 1e9)
            lo = std::min(lo, y), hi = std::max(hi, y);
    for (int i = 0; i < table.count(); ++i)
        if (table[i].targetResidencyNs > 0 && !table[i].disabled)
            hi = std::max(hi, toUs(table[i].targetResidencyNs)), lo = std::min(lo, toUs(table[i].targetResidencyNs));
    if (hi <= 0)
        hi = 1;
    for (int k = 0; k < r.intervalCount; ++k) {
        const std::uint32_t v = r.intervalsUs[static_cast<std::size_t>(k)];
        const double y = v == UINT_MAX_U32 ? hi * 1.5 : double(v);
        QCPBars *bars = (r.invalidMask >> k & 1) || v == UINT_MAX_U32 ? ignored
                        : (r.discardedMask >> k & 1)                  ? dropped
                                                                      : used;
        bars->addData(k + 1, y);
    }
    m_barCount = r.intervalCount;
    for (QCPBars *b : {used, dropped, ignored})
        if (b->dataCount() == 0)
            b->removeFromLegend();
    // Samples and target residencies often span a decade or more: log early.
    setValueScale(m_plot, lo, hi, 10.0);
    m_plot->xAxis->setRange(0.3, r.intervalCount + 0.7);
    const bool ktimeMax = std::any_of(r.intervalsUs.begin(), r.intervalsUs.begin() + r.intervalCount,
                                      [](std::uint32_t v) { return v == KTIME_MAX_US_U32; });
    // The chart is as narrow as the inspector: the short form of KTIME_MAX_US_NOTE.
    m_plot->xAxis->setLabel(
        ktimeMax ? tr("sample \u00b7 %1 = KTIME_MAX / 1000 cut to 32 bits").arg(usText(double(KTIME_MAX_US_U32)))
                 : tr("sample"));
    m_plot->yAxis->setLabel(tr("µs"));

    // The kernel may re-assign predicted_ns after the plan (the polling
    // override, the tick rule) to a target residency: that state's line
    // says so, apart from the plan's.
    const bool reassigned = r.predictedNs != r.predictedInitialNs && r.predictedNs > 0;
    for (int i = 1; i < table.count(); ++i)
        if (!table[i].disabled) {
            QString label =
                tr("%1 target residency %2").arg(name(table, i)).arg(usText(toUs(table[i].targetResidencyNs)));
            if (reassigned && table[i].targetResidencyNs == r.predictedNs)
                label += tr(" (new predicted_ns)");
            addLevel(toUs(table[i].targetResidencyNs), label, QPen(DARK, 1, Qt::DotLine));
        }
    if (r.residencyThresholdNs > 0 && !r.timerQueried)
        addLevel(toUs(r.residencyThresholdNs), tr("residency threshold %1").arg(usText(toUs(r.residencyThresholdNs))),
                 QPen(GREY, 1, Qt::DashDotLine));
    const bool plannedShown = planned > 0 && planned < 1e9;
    if (typical > 0)
        addLevel(typical,
                 planned == typical ? tr("typical interval = menu's plan %1").arg(usText(typical))
                                    : tr("typical interval %1").arg(usText(typical)),
                 QPen(color.darker(150), 2), true);
    if (plannedShown && planned != typical)
        addLevel(planned, tr("menu's plan %1").arg(usText(planned)), QPen(ORANGE, 1.5, Qt::DashLine), true);
}

void ReasoningChart::drawTeo(const TeoReasoning &r, const IdleStateTable &table, const QColor &color)
{
    m_kind = Kind::TeoBins;
    // Short titles: the chart is as narrow as the inspector, and a centred
    // title that does not fit is cut at both ends. What a bin is goes on the x axis.
    reset(r.legacy ? tr("teo-5.13: hits, misses, early hits") : tr("teo: hits and intercepts per bin"));
    auto *ticker = new QCPAxisTickerText;
    QCPBars *hits = makeBars(m_plot, color, tr("hits"));
    QCPBars *intercepts = makeBars(m_plot, ORANGE, r.legacy ? tr("misses") : tr("intercepts"));
    QCPBars *extra = r.legacy ? makeBars(m_plot, GREY, tr("early hits")) : nullptr;
    auto *group = new QCPBarsGroup(m_plot);
    for (QCPBars *b : {hits, intercepts, extra})
        if (b) {
            b->setWidth(r.legacy ? 0.26 : 0.38);
            b->setBarsGroup(group);
        }
    double hi = 1;
    for (int i = 0; i < r.binCount; ++i) {
        const auto s = static_cast<std::size_t>(i);
        hits->addData(i, r.hits[s]);
        intercepts->addData(i, r.intercepts[s]);
        if (extra)
            extra->addData(i, r.extra[s]);
        hi = std::max({hi, double(r.hits[s]), double(r.intercepts[s]), r.legacy ? double(r.extra[s]) : 0.0});
        QString label = name(table, i);
        if (i == r.candidateIdx)
            label += tr("\ncandidate");
        if (i == r.chosenIdx)
            label += tr("\nchosen");
        ticker->addTick(i, label);
    }
    m_barCount = r.binCount * (r.legacy ? 3 : 2);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(ticker));
    m_plot->xAxis->setRange(-0.6, r.binCount - 0.4);
    m_plot->yAxis->setRange(0, hi * 1.2);
    m_plot->yAxis->setLabel(tr("decayed count (PULSE = 1024)"));
    m_plot->xAxis->setLabel(r.legacy ? tr("per state") : tr("bin of a state: from its target residency up"));
}

void ReasoningChart::drawRuler(const EntryDetail &d, const IdleStateTable &table, const QColor &color)
{
    m_kind = Kind::StateRuler;
    reset(tr("target residency per state vs this entry's times"));
    auto *ticker = new QCPAxisTickerText;
    QCPBars *other = makeBars(m_plot, LIGHT_GREY, tr("target residency"));
    QCPBars *chosen = makeBars(m_plot, color, tr("chosen: %1").arg(name(table, d.entry.state)));
    const double idle = toUs(d.entry.residencyNs - table[d.entry.state].exitLatencyNs);
    const double sleep = d.entry.sleepLengthNs < KTIME_MAX / 2 ? toUs(d.entry.sleepLengthNs) : -1;
    // Only a real prediction gets a line: teo (v5.14+) reports its sleep
    // length there, and the oracle's "prediction" is the idle time itself.
    const auto *teo = std::get_if<TeoReasoning>(&d.reasoning);
    const bool predicts = std::holds_alternative<MenuReasoning>(d.reasoning) || (teo && teo->legacy);
    const double predicted =
        predicts && d.entry.predictedNs >= 0 && d.entry.predictedNs < KTIME_MAX / 2 ? toUs(d.entry.predictedNs) : -1;
    double lo = 1e300, hi = 1;
    for (int i = 0; i < table.count(); ++i)
        if (table[i].targetResidencyNs > 0)
            lo = std::min(lo, toUs(table[i].targetResidencyNs)), hi = std::max(hi, toUs(table[i].targetResidencyNs));
    for (double y : {idle, sleep, predicted})
        if (y > 0)
            lo = std::min(lo, y), hi = std::max(hi, y);
    if (lo > hi)
        lo = hi / 10;
    for (int i = 0; i < table.count(); ++i) {
        // A zero target residency (polling) still gets a visible stub.
        const double value = std::max(toUs(table[i].targetResidencyNs), lo * 0.75);
        (i == d.entry.state ? chosen : other)->addData(i, value);
        QString label = name(table, i);
        if (i == d.entry.state)
            label += tr("\nchosen");
        if (i == d.oracle.chosenIdx)
            label += tr("\noracle");
        ticker->addTick(i, label);
    }
    m_barCount = table.count();
    setValueScale(m_plot, lo, hi);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(ticker));
    m_plot->xAxis->setRange(-0.6, table.count() - 0.4);
    m_plot->yAxis->setLabel(tr("µs"));
    if (idle > 0)
        addLevel(idle, tr("idle time %1").arg(usText(idle)), QPen(color.darker(150), 2), true);
    if (sleep > 0)
        addLevel(sleep, tr("sleep length %1").arg(usText(sleep)), QPen(DARK, 1, Qt::DotLine));
    if (predicted > 0)
        addLevel(predicted, tr("prediction %1").arg(usText(predicted)), QPen(ORANGE, 1.5, Qt::DashLine));
}

} // namespace idlescope
