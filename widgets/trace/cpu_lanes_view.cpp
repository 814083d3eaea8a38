// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/cpu_lanes_view.h"

#include "core/trace/recorded_entries.h"
#include "core/trace/trace_limits.h"
#include "widgets/plots/qcp.h"
#include "widgets/plots/text_ticks.h"
#include "widgets/trace/trace_machine_job.h"

#include <QComboBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>
#include <map>

namespace idlescope {

namespace {

/// Within a lane of height 1: the running line and the span the states take.
constexpr double LANE_RUNNING = 0.12;
constexpr double LANE_STATES = 0.76;

QString cpuName(int cpu)
{
    return QStringLiteral("cpu%1").arg(cpu);
}

QString runName(const MachineRun &r)
{
    return QString::fromStdString(r.label.empty() ? r.name : r.label);
}

/// Point size of the lane labels on both axes: every lane carries one (the plot is made tall enough).
constexpr double LANE_LABEL_POINT_SIZE = 7.0;
/// Title, time axis and margins around the lanes, in pixels.
constexpr int LANES_DECORATION_PX = 50;

} // namespace

CpuLanesView::CpuLanesView(QWidget *parent) : QWidget(parent)
{
    m_cpuBox = new QComboBox(this);
    m_cpuBox->setToolTip(tr("Every CPU's lanes, or one CPU's (which the other views then replay)"));
    m_cpuBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_cpuBox->setMinimumContentsLength(14);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setStyleSheet(QStringLiteral("font-size:8pt;"));
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(120);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->xAxis->setLabel(tr("trace time since its first event (s)"));
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setSortingEnabled(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Lanes and counters on tabs: the bottom dock is short, and the lanes need its height.
    auto *tabs = new QTabWidget(this);
    tabs->setDocumentMode(true);
    // Every lane is tall enough for its labels: many CPUs scroll rather than squeeze.
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(m_plot);
    tabs->addTab(scroll, tr("Lanes"));
    tabs->addTab(m_table, tr("Counters per CPU"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_cpuBox);
    top->addWidget(m_status, 1);
    layout->addLayout(top);
    layout->addWidget(tabs, 1);
    connect(&m_watcher, &QFutureWatcher<Job>::finished, this, &CpuLanesView::jobFinished);
    connect(m_cpuBox, &QComboBox::activated, this, [this](int index) {
        const int cpu = m_cpuBox->itemData(index).toInt();
        setShownCpu(cpu);
        if (cpu != TRACE_ALL_CPUS)
            emit cpuPicked(cpu);
    });
    rebuild();
}

CpuLanesView::~CpuLanesView()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

void CpuLanesView::setSnapshot(SnapshotPtr snap)
{
    m_snap = std::move(snap);
    const QString key = m_snap ? traceMachineKey(*m_snap) : QString();
    if (key == m_key)
        return; // the same trace, table and governors: the comparison shown stays right
    m_key = key;
    if (m_cancel)
        m_cancel->store(true);
    m_result.reset();
    m_agreement.clear();
    if (key.isEmpty()) {
        rebuild();
        return;
    }
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_status->setText(tr("Replaying every CPU of the trace\u2026"));
    m_watcher.setFuture(QtConcurrent::run([snap = m_snap, key, cancel = m_cancel]() {
        Job job;
        job.key = key;
        Result<MachineComparison> c = compareTraceMachine(*snap, cancel.get());
        if (c) {
            job.agreement = traceMachineAgreement(*snap, c->machine);
            job.result = std::move(*c);
        } else
            job.error = QString::fromStdString(c.error().toString());
        return job;
    }));
}

void CpuLanesView::jobFinished()
{
    if (m_watcher.future().resultCount() == 0)
        return;
    Job job = m_watcher.result();
    if (job.key != m_key) // an older request: the newer one is running
        return;
    ++m_computed;
    m_result = std::move(job.result);
    m_agreement = std::move(job.agreement);
    rebuild();
    if (!m_result)
        m_status->setText(tr("Every CPU could not be replayed: %1").arg(job.error));
    emit computed();
}

void CpuLanesView::setShownCpu(int cpu)
{
    if (cpu == m_shownCpu)
        return;
    m_shownCpu = cpu;
    rebuild();
}

void CpuLanesView::fillSelector()
{
    const QSignalBlocker block(m_cpuBox);
    m_cpuBox->clear();
    if (!m_result)
        return;
    std::map<int, QString> cpus; // CPU -> "" when replayed, else why not
    for (const MachineRun &r : m_result->runs)
        for (const CpuRun &c : r.cpus)
            cpus[c.cpu] = QString();
    for (auto r = m_result->runs.rbegin(); r != m_result->runs.rend(); ++r) // as skippedText()
        for (const SkippedCpu &s : r->skipped)
            cpus.emplace(s.cpu, QString::fromStdString(s.reason));
    m_cpuBox->addItem(tr("All CPUs (%1)").arg(cpus.size()), TRACE_ALL_CPUS);
    auto *items = qobject_cast<QStandardItemModel *>(m_cpuBox->model());
    for (const auto &[cpu, why] : cpus) {
        m_cpuBox->addItem(why.isEmpty() ? cpuName(cpu) : tr("%1 \u2014 not replayed").arg(cpuName(cpu)), cpu);
        const int row = m_cpuBox->count() - 1;
        if (!why.isEmpty()) {
            m_cpuBox->setItemData(row, why, Qt::ToolTipRole);
            if (items) // listed, so that the user sees why, but not selectable
                items->item(row)->setEnabled(false);
        }
    }
    m_cpuBox->setCurrentIndex(std::max(0, m_cpuBox->findData(m_shownCpu)));
}

QString CpuLanesView::skippedText() const
{
    if (!m_result)
        return {};
    // A CPU is skipped by every run alike (no spans, or not on the machine); list each once,
    // with the simulated runs' reason (the span account) before the recorded run's (listed first).
    std::map<int, std::string> why;
    for (auto r = m_result->runs.rbegin(); r != m_result->runs.rend(); ++r)
        for (const SkippedCpu &s : r->skipped)
            why.emplace(s.cpu, s.reason);
    QStringList parts;
    for (const auto &[cpu, reason] : why)
        if (m_shownCpu == TRACE_ALL_CPUS || m_shownCpu == cpu)
            parts << QStringLiteral("%1 (%2)").arg(cpuName(cpu), QString::fromStdString(reason));
    return parts.isEmpty() ? QString() : tr("Not replayed: %1").arg(parts.join(QStringLiteral("; ")));
}

void CpuLanesView::rebuild()
{
    fillSelector();
    fillPlot();
    fillTable();
    if (!m_result) {
        if (m_key.isEmpty())
            m_status->setText(tr("Open a kernel trace to see every CPU."));
        return;
    }
    const QString machine = QString::fromStdString(m_result->machine.id);
    QStringList lines{m_shownCpu == TRACE_ALL_CPUS
                          ? tr("All CPUs of the trace on machine %1 (%2 lane groups)").arg(machine).arg(m_groups.size())
                          : tr("%1 of the trace on machine %2").arg(cpuName(m_shownCpu), machine)};
    if (const QString skipped = skippedText(); !skipped.isEmpty())
        lines << skipped;
    // What each row covers: like with like by default, the whole trace a line of its own.
    for (const MachineRun &r : m_result->runs)
        if (r.name == WHOLE_TRACE_RUN) {
            lines << tr("Each CPU's rows cover its replayed spans over the same time: recorded counts the kernel's "
                        "entries there, each governor its own. “whole trace”: every complete entry (%1), "
                        "as sysfs counts, not comparable with the rows above. agrees %: entries where the governor "
                        "entered the kernel's state (tooltip: the first disagreements).")
                         .arg(r.total().entries);
            break;
        }
    if (m_snap && m_snap->trace)
        for (const std::string &limit : trace::traceLimitTexts(trace::traceLimits(*m_snap->trace->trace)))
            lines << tr("The trace cannot tell: %1.").arg(QString::fromStdString(limit));
    if (m_agreement.empty() && m_snap && m_snap->spec.latencyLimitNs >= 0)
        lines << tr("agrees %: not shown under a latency limit (the kernel ran without it).");
    m_status->setText(lines.join(QLatin1Char('\n')));
}

QString CpuLanesView::statusText() const
{
    return m_status->text();
}

QColor CpuLanesView::colorOf(const MachineRun &run) const
{
    const int i = m_snap ? m_snap->indexOf(run.name) : -1;
    return i >= 0 && m_snap->governors[static_cast<std::size_t>(i)].color.isValid()
               ? m_snap->governors[static_cast<std::size_t>(i)].color
               : QColor(Qt::darkGray);
}

void CpuLanesView::fillPlot()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_groups.clear();
    m_lanes.clear();
    if (!m_result) {
        m_plot->replot();
        return;
    }
    // Lanes top to bottom: CPUs in order, each with the runs in the comparison's order
    // (the recorded run first). A lane's bottom is at y = lanes - 1 - index.
    struct Lane {
        const MachineRun *run;
        const CpuRun *cpu;
    };
    std::vector<Lane> lanes;
    std::vector<int> groupStart;
    std::map<int, bool> cpus;
    for (const MachineRun &r : m_result->runs)
        for (const CpuRun &c : r.cpus)
            cpus[c.cpu] = true;
    for (const auto &[cpu, unused] : cpus) {
        if (m_shownCpu != TRACE_ALL_CPUS && cpu != m_shownCpu)
            continue;
        groupStart.push_back(static_cast<int>(lanes.size()));
        m_groups << cpuName(cpu);
        for (const MachineRun &r : m_result->runs)
            if (const CpuRun *c = r.find(cpu); c && r.name != WHOLE_TRACE_RUN) // a table line, no lane
                lanes.push_back({&r, c});
    }
    const int n = static_cast<int>(lanes.size());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto stateTicker = QSharedPointer<QCPAxisTickerText>::create();
    QFont labelFont = m_plot->yAxis->tickLabelFont();
    labelFont.setPointSizeF(LANE_LABEL_POINT_SIZE);
    const double labelPx = QFontMetricsF(labelFont).height();
    // Lanes whose states span one label's height: each names its deepest state at its ceiling
    // (the floor is the running line), as the state timeline does when two names do not fit.
    const double lanePx = std::ceil(labelPx / LANE_STATES);
    double xEnd = 0;
    for (int i = 0; i < n; ++i) {
        const Lane &l = lanes[static_cast<std::size_t>(i)];
        const double base = n - 1 - i;
        const bool first = std::find(groupStart.begin(), groupStart.end(), i) != groupStart.end();
        const QString label = QStringLiteral("%1 \u00b7 %2").arg(cpuName(l.cpu->cpu), runName(*l.run));
        m_lanes << label;
        const int states = std::max(1, l.cpu->stateCount);
        QVector<QCPGraphData> pts;
        pts.reserve(static_cast<int>(l.cpu->intervals.size() * 2));
        for (const IdleInterval &e : l.cpu->intervals) {
            const double y = base + LANE_RUNNING + LANE_STATES * (e.state + 1) / states;
            pts.push_back({e.startNs / 1e9, y});
            pts.push_back({e.endNs / 1e9, base + LANE_RUNNING});
            xEnd = std::max(xEnd, e.endNs / 1e9);
        }
        // Every lane named on the left (its CPU and run), its deepest state on the right.
        ticker->addTick(base + 0.5, label);
        const bool named = m_snap && m_snap->table.count() == states; // a recorded lane may count otherwise
        stateTicker->addTick(base + LANE_RUNNING + LANE_STATES,
                             named ? QString::fromStdString(m_snap->table[states - 1].name)
                                   : QStringLiteral("state %1").arg(states - 1));
        QCPGraph *g = m_plot->addGraph();
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(colorOf(*l.run), 1.2));
        g->setName(label);
        g->data()->set(pts, true);
        // A line between two CPU groups (KernelShark's track borders).
        if (first && i > 0) {
            auto *sep = new QCPItemStraightLine(m_plot);
            sep->point1->setCoords(0, base + 1);
            sep->point2->setCoords(1, base + 1);
            sep->setPen(QPen(QColor(0x70, 0x70, 0x70), 1, Qt::DashLine));
        }
    }
    // Lanes of a CPU group are its run's colours, in the governor legend's order (the
    // recorded run first); the dashed lines part the groups (KernelShark's CPU tracks).
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setTickLabelFont(labelFont);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setTicker(stateTicker);
    m_plot->yAxis2->setTickLabelFont(labelFont);
    m_plot->yAxis2->setTickLabelColor(QColor(0x70, 0x70, 0x70));
    m_plot->yAxis2->setTickLength(0, 0);
    m_plot->yAxis2->setSubTickLength(0, 0);
    m_plot->yAxis2->grid()->setVisible(false);
    m_plot->setMinimumHeight(std::max(120, static_cast<int>(lanePx * n) + LANES_DECORATION_PX));
    m_plot->yAxis->setRange(0, std::max(1, n));
    m_plot->yAxis2->setRange(m_plot->yAxis->range());
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->setRange(0, xEnd > 0 ? xEnd : 1);
    m_plot->replot();
}

QStringList CpuLanesView::axisLaneLabels() const
{
    return textTickLabels(m_plot->yAxis);
}

QStringList CpuLanesView::axisStateLabels() const
{
    return textTickLabels(m_plot->yAxis2);
}

void CpuLanesView::fillTable()
{
    const QStringList header{tr("CPU"),    tr("run"),     tr("entries"), tr("above"),          tr("below"),
                             tr("miss %"), tr("idle ms"), tr("wakeups"), tr("idle energy mJ"), tr("agrees %")};
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(header.size()));
    m_table->setHorizontalHeaderLabels(header);
    m_table->setRowCount(0);
    if (!m_result)
        return;
    const QLocale locale;
    // The agreement of @p run on CPU @p cpu (-1: all) with the recorded run, as a cell and its tooltip.
    auto agreementOf = [&](const MachineRun &run, int cpu) -> std::pair<QString, QString> {
        for (const GovernorAgreement &g : m_agreement) {
            if (g.name != run.name)
                continue;
            const trace::TraceAgreement &a = g.agreement;
            const trace::CpuAgreement *c = cpu < 0 ? &a.total : nullptr;
            for (const trace::CpuAgreement &one : a.cpus)
                if (one.cpu == cpu)
                    c = &one;
            if (!c)
                return {};
            QStringList tip{tr("%1 of %2 paired entries in the kernel's state (%3 recorded, %4 simulated)")
                                .arg(c->agreed)
                                .arg(c->paired)
                                .arg(c->recordedEntries)
                                .arg(c->simulatedEntries)};
            // The confusion matrix, a line per state the kernel entered.
            tip << tr("kernel's state \u2192 %1's: %2")
                       .arg(QString::fromStdString(g.name))
                       .arg(tr("counts per state, shallow to deep"));
            for (int r = 0; r < c->stateCount; ++r) {
                QStringList counts;
                for (int col = 0; col < c->stateCount; ++col)
                    counts << QString::number(c->matrix[static_cast<std::size_t>(r)][static_cast<std::size_t>(col)]);
                tip << tr("  state %1: %2").arg(r).arg(counts.join(QStringLiteral("  ")));
            }
            for (const trace::Disagreement &d : a.first)
                if (cpu < 0 || d.cpu == cpu)
                    tip << tr("%1 s, cpu%2: kernel state %3, %4 state %5")
                               .arg(locale.toString(d.traceNs / 1e9, 'f', 6))
                               .arg(d.cpu)
                               .arg(d.recordedState)
                               .arg(QString::fromStdString(g.name))
                               .arg(d.simulatedState);
            return {locale.toString(100.0 * c->share(), 'f', 1), tip.join(QLatin1Char('\n'))};
        }
        return {};
    };
    auto addRow = [&](const QString &cpu, const MachineRun &run, const CpuRun &c, double energyJ,
                      const QString &noEnergy, int cpuNumber) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const auto [agrees, agreesTip] = agreementOf(run, cpuNumber);
        const QStringList cells{cpu,
                                runName(run),
                                locale.toString(static_cast<qint64>(c.entries)),
                                locale.toString(static_cast<qint64>(c.above())),
                                locale.toString(static_cast<qint64>(c.below())),
                                locale.toString(100.0 * c.missRatio(), 'f', 1),
                                locale.toString(c.idleNs() / 1e6, 'f', 3),
                                locale.toString(static_cast<qint64>(c.wakeups)),
                                std::isnan(energyJ) ? QStringLiteral("\u2014") : locale.toString(energyJ * 1e3, 'f', 3),
                                agrees.isEmpty() ? QStringLiteral("\u2014") : agrees};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(cells[col]);
            if (col >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (col == 8 && std::isnan(energyJ))
                item->setToolTip(noEnergy);
            if (col == 9 && !agreesTip.isEmpty())
                item->setToolTip(agreesTip);
            m_table->setItem(row, col, item);
        }
    };
    // Like with like first: every run over the replayed spans; the whole trace last, apart.
    for (const QString &group : std::as_const(m_groups)) {
        const int cpu = group.mid(3).toInt();
        for (std::size_t r = 0; r < m_result->runs.size(); ++r) {
            const MachineRun &run = m_result->runs[r];
            if (run.name == WHOLE_TRACE_RUN)
                continue;
            const RunEnergy &e = m_result->energy[r];
            for (std::size_t i = 0; i < run.cpus.size(); ++i)
                if (run.cpus[i].cpu == cpu)
                    addRow(group, run, run.cpus[i],
                           e.available && i < e.cpus.size() ? e.cpus[i].idleJ + e.cpus[i].entryExitJ : NAN,
                           QString::fromStdString(e.missing), cpu);
        }
    }
    // All CPUs: each run's sum over its CPUs (MachineRun::total(), as sysfs sums them).
    if (m_shownCpu == TRACE_ALL_CPUS)
        for (std::size_t r = 0; r < m_result->runs.size(); ++r) {
            if (m_result->runs[r].name == WHOLE_TRACE_RUN)
                continue;
            const RunEnergy &e = m_result->energy[r];
            addRow(tr("all CPUs"), m_result->runs[r], m_result->runs[r].total(), e.available ? e.idleTotalJ() : NAN,
                   QString::fromStdString(e.missing), -1);
        }
    // The whole trace: a separate, labelled line (its shown CPU, or all of them).
    for (std::size_t r = 0; r < m_result->runs.size(); ++r) {
        const MachineRun &run = m_result->runs[r];
        if (run.name != WHOLE_TRACE_RUN)
            continue;
        const RunEnergy &e = m_result->energy[r];
        if (m_shownCpu == TRACE_ALL_CPUS) {
            addRow(tr("whole trace"), run, run.total(), e.available ? e.idleTotalJ() : NAN,
                   QString::fromStdString(e.missing), -1);
        } else {
            for (std::size_t i = 0; i < run.cpus.size(); ++i)
                if (run.cpus[i].cpu == m_shownCpu)
                    addRow(tr("whole trace, %1").arg(cpuName(m_shownCpu)), run, run.cpus[i],
                           e.available && i < e.cpus.size() ? e.cpus[i].idleJ + e.cpus[i].entryExitJ : NAN,
                           QString::fromStdString(e.missing), m_shownCpu);
        }
    }
    m_table->resizeColumnsToContents();
}

} // namespace idlescope
