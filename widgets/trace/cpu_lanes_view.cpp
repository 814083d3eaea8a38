// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/cpu_lanes_view.h"

#include "core/io/atomic_file.h"
#include "core/trace/cpu_table.h"
#include "core/trace/recorded_entries.h"
#include "core/trace/trace_limits.h"
#include "widgets/export/export_dialogs.h"
#include "widgets/export/scenario_context.h"
#include "widgets/plots/qcp.h"
#include "widgets/plots/text_ticks.h"
#include "widgets/plots/time_plot.h"
#include "widgets/plots/time_ticker.h"
#include "widgets/trace/trace_entry_text.h"
#include "widgets/trace/trace_machine_job.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
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
/// Each names its run only (its CPU is the group's, named once beside it), so that a label fits
/// a larger size than the 7 pt "cpu4 \u00b7 menu-6.14" did, thirty of them packed on Juno.
constexpr double LANE_LABEL_POINT_SIZE = 8.0;
/// The widest a lane's run name is drawn (logical px): a longer one ("src:…", an instance's
/// label) loses its middle, keeping the start and the end that tell two names apart.
constexpr int LANE_LABEL_MAX_PX = 110;
/// Title, time axis and margins around the lanes, in pixels.
constexpr int LANES_DECORATION_PX = 50;

/// A lane: one run on one CPU; the first of its CPU's group has a line above it.
struct Lane {
    const MachineRun *run;
    const CpuRun *cpu;
    bool firstOfGroup;
};

/// Lanes top to bottom: CPUs in order (@p shownCpu's alone unless TRACE_ALL_CPUS), each with
/// the runs in @p result's order (the recorded run first); each CPU's group name added to
/// @p groups. A lane's bottom is at y = lanes - 1 - index.
std::vector<Lane> lanesOf(const MachineComparison &result, int shownCpu, QStringList *groups)
{
    std::vector<Lane> lanes;
    std::map<int, bool> cpus;
    for (const MachineRun &r : result.runs)
        for (const CpuRun &c : r.cpus)
            cpus[c.cpu] = true;
    for (const auto &[cpu, unused] : cpus) {
        if (shownCpu != TRACE_ALL_CPUS && cpu != shownCpu)
            continue;
        bool first = true;
        *groups << cpuName(cpu);
        for (const MachineRun &r : result.runs)
            if (const CpuRun *c = r.find(cpu); c && r.name != WHOLE_TRACE_RUN) { // a table line, no lane
                lanes.push_back({&r, c, first});
                first = false;
            }
    }
    return lanes;
}

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
    createPlot();
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setSortingEnabled(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Lanes and counters on tabs: the bottom dock is short, and the lanes need its height.
    m_firstList = new QListWidget(this);
    m_firstList->setToolTip(tr("Click an entry to open the kernel's entry in the inspector"));
    connect(m_firstList, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        emit disagreementPicked(item->data(Qt::UserRole).toInt(), item->data(Qt::UserRole + 1).toLongLong());
    });
    connect(m_firstList, &QListWidget::itemActivated, m_firstList, &QListWidget::itemClicked);
    m_tabs = new QTabWidget(this);
    QTabWidget *tabs = m_tabs;
    tabs->setDocumentMode(true);
    // Every lane is tall enough for its labels: many CPUs scroll rather than squeeze.
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(m_plot);
    tabs->addTab(scroll, tr("Lanes"));
    tabs->addTab(m_table, tr("Counters per CPU"));
    tabs->addTab(m_firstList, tr("First disagreements"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_cpuBox);
    top->addStretch(1);
    m_exportButton = new QToolButton(this);
    m_exportButton->setText(tr("Export\u2026"));
    m_exportButton->setToolTip(tr("Save the counters table as .csv or .md, with a header saying what it is (trace, "
                                  "machine and tables, runs, what each row covers)"));
    m_exportButton->setAutoRaise(true);
    connect(m_exportButton, &QToolButton::clicked, this, &CpuLanesView::exportWithDialog);
    top->addWidget(m_exportButton, 0, Qt::AlignTop);
    layout->addLayout(top);
    // A row of its own, the dock's width, at least three lines tall and scrolling past six: a
    // word-wrapped label beside the selector was given one line's height in a short dock, and
    // the notes (what each row covers) were cut mid-sentence.
    auto *statusScroll = new QScrollArea(this);
    statusScroll->setWidget(m_status);
    statusScroll->setWidgetResizable(true);
    statusScroll->setFrameShape(QFrame::NoFrame);
    statusScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const int line = QFontMetrics(m_status->font()).lineSpacing();
    statusScroll->setMinimumHeight(3 * line + 4);
    statusScroll->setMaximumHeight(6 * line + 4);
    layout->addWidget(statusScroll);
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

/// The lanes' plot: dragged and zoomed in time only, on the trace's clock, with the CPUs'
/// names on an axis of their own left of the runs' names.
void CpuLanesView::createPlot()
{
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(120);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    // The time plots' time base: ns since the trace's first event, in the unit that suits the
    // range, under the same title (it names the first event's timestamp): one clock per trace.
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new NsTicker));
    // The CPUs' names, one a lane group, outside the runs' names (KernelShark's CPU tracks).
    m_groupAxis = m_plot->axisRect()->addAxis(QCPAxis::atLeft);
    m_groupAxis->setBasePen(Qt::NoPen);
    m_groupAxis->setTickPen(Qt::NoPen);
    m_groupAxis->setSubTickPen(Qt::NoPen);
    m_groupAxis->grid()->setVisible(false);
    m_groupAxis->setPadding(0);
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
    if (key == m_key) {
        // The same trace, table and governors: the comparison shown stays right. With no trace
        // the words may change (a closed loop's after an open loop's).
        if (key.isEmpty())
            m_status->setText(noTraceText());
        return;
    }
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

QString CpuLanesView::noTraceText() const
{
    // A closed loop ran a machine, but each governor's loop made spans of its own and kept only
    // its counters: there are no lanes to draw, and the dock said nothing of why.
    if (m_snap && m_snap->isClosedLoop())
        return tr("A closed loop keeps its counters, not its entries: there are no lanes to draw. The "
                  "Comparison table has its CPUs' counters summed (compare --closed-loop --cpus each "
                  "lists each CPU's).");
    return tr("Open a kernel trace to see every CPU.");
}

void CpuLanesView::rebuild()
{
    fillSelector();
    fillPlot();
    fillTable();
    fillDisagreements();
    if (!m_result) {
        if (m_key.isEmpty())
            m_status->setText(noTraceText());
        return;
    }
    const QString machine = QString::fromStdString(m_result->machine.id);
    QStringList lines{m_shownCpu == TRACE_ALL_CPUS
                          ? tr("All CPUs of the trace on machine %1 (%2 lane groups)").arg(machine).arg(m_groups.size())
                          : tr("%1 of the trace on machine %2").arg(cpuName(m_shownCpu), machine)};
    if (const QString skipped = skippedText(); !skipped.isEmpty())
        lines << skipped;
    // What each row covers (like with like by default, the whole trace a line of its own):
    // core's words, the same the export's header gives.
    for (const std::string &note : trace::cpuTableNotes(*m_result))
        lines << QString::fromStdString(note);
    lines << exportNotes();
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
    const std::vector<Lane> lanes = lanesOf(*m_result, m_shownCpu, &m_groups);
    const int n = static_cast<int>(lanes.size());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto stateTicker = QSharedPointer<QCPAxisTickerText>::create();
    auto groupTicker = QSharedPointer<QCPAxisTickerText>::create();
    QFont labelFont = m_plot->yAxis->tickLabelFont();
    labelFont.setPointSizeF(LANE_LABEL_POINT_SIZE);
    const double labelPx = QFontMetricsF(labelFont).height();
    // Lanes whose states span one label's height: each names its deepest state at its ceiling
    // (the floor is the running line), as the state timeline does when two names do not fit.
    const double lanePx = std::ceil(labelPx / LANE_STATES);
    double xEnd = 0;
    int groupTop = 0; // the index of the current group's first lane
    QString groupDeepest;
    for (int i = 0; i < n; ++i) {
        const Lane &l = lanes[static_cast<std::size_t>(i)];
        if (l.firstOfGroup) {
            groupTop = i;
            groupDeepest = deepestStateName(*l.cpu);
        }
        // The deepest state once a group (every lane of a CPU has its table), and again on a lane
        // whose deepest differs (a recorded lane of another state count): thirty lanes repeated
        // "cluster-sleep-0" thirty times, packed against the dashed lines between the groups.
        const bool nameDeepest = l.firstOfGroup || deepestStateName(*l.cpu) != groupDeepest;
        // A line between two CPU groups (KernelShark's track borders).
        const double end =
            addLane(*l.run, *l.cpu, n - 1 - i, l.firstOfGroup && i > 0, nameDeepest, *ticker, *stateTicker);
        xEnd = std::max(xEnd, end);
        // The CPU named once, beside the middle of its group, as KernelShark names its CPU tracks.
        const bool lastOfGroup = i + 1 == n || lanes[static_cast<std::size_t>(i) + 1].firstOfGroup;
        if (lastOfGroup)
            groupTicker->addTick(n - (groupTop + i + 1) / 2.0, cpuName(l.cpu->cpu));
    }
    // Lanes of a CPU group are its run's colours, in the governor legend's order (the
    // recorded run first); the dashed lines part the groups (KernelShark's CPU tracks).
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setTickLabelFont(labelFont);
    m_plot->yAxis->setTickLength(0, 0);
    QFont groupFont = labelFont;
    groupFont.setBold(true);
    m_groupAxis->setTicker(groupTicker);
    m_groupAxis->setTickLabelFont(groupFont);
    m_groupAxis->setRange(0, std::max(1, n));
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
    m_plot->xAxis->setLabel(m_snap && m_snap->trace ? TimePlot::timeAxisTitle(*m_snap) : QString());
    m_plot->replot();
}

QString CpuLanesView::deepestStateName(const CpuRun &cpu) const
{
    const int states = std::max(1, cpu.stateCount);
    const bool named = m_snap && m_snap->table.count() == states; // a recorded lane may count otherwise
    return named ? QString::fromStdString(m_snap->table[states - 1].name) : QStringLiteral("state %1").arg(states - 1);
}

double CpuLanesView::addLane(const MachineRun &run, const CpuRun &cpu, double base, bool separated, bool nameDeepest,
                             QCPAxisTickerText &ticker, QCPAxisTickerText &stateTicker)
{
    const QString label = QStringLiteral("%1 \u00b7 %2").arg(cpuName(cpu.cpu), runName(run));
    m_lanes << label;
    const int states = std::max(1, cpu.stateCount);
    QVector<QCPGraphData> pts;
    pts.reserve(static_cast<int>(cpu.intervals.size() * 2));
    double xEnd = 0;
    for (const IdleInterval &e : cpu.intervals) {
        const double y = base + LANE_RUNNING + LANE_STATES * (e.state + 1) / states;
        pts.push_back({static_cast<double>(e.startNs), y});
        pts.push_back({static_cast<double>(e.endNs), base + LANE_RUNNING});
        xEnd = std::max(xEnd, static_cast<double>(e.endNs));
    }
    // Every lane named on the left by its run (its CPU is the group's, on the outer axis).
    QFont font = m_plot->yAxis->tickLabelFont();
    font.setPointSizeF(LANE_LABEL_POINT_SIZE);
    ticker.addTick(base + 0.5, QFontMetrics(font).elidedText(runName(run), Qt::ElideMiddle, LANE_LABEL_MAX_PX));
    if (nameDeepest)
        stateTicker.addTick(base + LANE_RUNNING + LANE_STATES, deepestStateName(cpu));
    QCPGraph *g = m_plot->addGraph();
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setPen(QPen(colorOf(run), 1.2));
    g->setName(label);
    g->data()->set(pts, true);
    if (separated) {
        auto *sep = new QCPItemStraightLine(m_plot);
        sep->point1->setCoords(0, base + 1);
        sep->point2->setCoords(1, base + 1);
        sep->setPen(QPen(QColor(0x70, 0x70, 0x70), 1, Qt::DashLine));
    }
    return xEnd;
}

QStringList CpuLanesView::axisLaneLabels() const
{
    return textTickLabels(m_plot->yAxis);
}

QStringList CpuLanesView::axisGroupLabels() const
{
    return textTickLabels(m_groupAxis);
}

QStringList CpuLanesView::axisStateLabels() const
{
    return textTickLabels(m_plot->yAxis2);
}

int CpuLanesView::tableCpu() const
{
    return m_shownCpu == TRACE_ALL_CPUS ? trace::CPU_TABLE_ALL : m_shownCpu;
}

void CpuLanesView::fillTable()
{
    // Every cell is core's (trace::cpuTable()); the screen shows an empty value as a dash and
    // the reason in its tooltip.
    const trace::CpuTable t =
        m_result ? trace::cpuTable(*m_result, m_agreement, tableCpu()) : trace::cpuTable(MachineComparison{}, {}, 0);
    QStringList header;
    for (const trace::CpuTableColumn &c : t.columns)
        header << QString::fromStdString(c.title);
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(header.size()));
    m_table->setHorizontalHeaderLabels(header);
    m_table->setRowCount(0);
    if (!m_result)
        return;
    for (const trace::CpuTableRow &r : t.rows) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        for (int col = 0; col < static_cast<int>(r.cells.size()); ++col) {
            const std::string &cell = r.cells[static_cast<std::size_t>(col)];
            auto *item = new QTableWidgetItem(cell.empty() ? QStringLiteral("\u2014") : QString::fromStdString(cell));
            if (col >= trace::EntriesCol)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (col == trace::EnergyCol && cell.empty())
                item->setToolTip(QString::fromStdString(r.energyNote));
            if (col == trace::AgreesCol && !r.agreementNote.empty())
                item->setToolTip(QString::fromStdString(r.agreementNote));
            m_table->setItem(row, col, item);
        }
    }
    m_table->resizeColumnsToContents();
}

void CpuLanesView::fillDisagreements()
{
    // Core's pairing (trace::traceAgreement(), compare --agreement's): each governor's first
    // disagreements over the CPUs shown, by trace time, each a link to the kernel's entry.
    m_firstList->clear();
    for (const GovernorAgreement &g : m_agreement) {
        const std::vector<std::string> &names = g.agreement.stateNames;
        const auto stateName = [&names](int s) {
            return s >= 0 && s < static_cast<int>(names.size()) ? QString::fromStdString(names[std::size_t(s)])
                                                                : QStringLiteral("state %1").arg(s);
        };
        const QString run = QString::fromStdString(g.name); // the governor's name in the window
        for (const trace::Disagreement &d : g.agreement.first) {
            if (m_shownCpu != TRACE_ALL_CPUS && d.cpu != m_shownCpu)
                continue;
            // At the kernel's entry's place on the lanes' axis above (core's origin, the trace's
            // first event, is the snapshot's); the trace-cmd timestamp in the tooltip.
            const Ns axisNs = d.traceNs - (m_snap && m_snap->trace ? m_snap->trace->originNs : 0);
            auto *item = new QListWidgetItem(tr("%1 \u00b7 %2 at %3: the kernel %4, %1 %5")
                                                 .arg(run, cpuName(d.cpu), traceAxisText(axisNs),
                                                      stateName(d.recordedState), stateName(d.simulatedState)),
                                             m_firstList);
            item->setToolTip(tr("%1; click to open the kernel's entry in the inspector").arg(traceCmdText(d.traceNs)));
            item->setData(Qt::UserRole, d.cpu);
            item->setData(Qt::UserRole + 1, static_cast<qlonglong>(d.traceNs));
        }
    }
    const int tab = m_tabs->indexOf(m_firstList);
    m_tabs->setTabText(tab, m_firstList->count() ? tr("First disagreements (%1)").arg(m_firstList->count())
                                                 : tr("First disagreements"));
    m_tabs->setTabEnabled(tab, m_firstList->count() > 0);
}

QStringList CpuLanesView::exportNotes() const
{
    QStringList extra;
    if (m_snap && m_snap->trace)
        for (const std::string &limit : trace::traceLimitTexts(trace::traceLimits(*m_snap->trace->trace)))
            extra << tr("The trace cannot tell: %1.").arg(QString::fromStdString(limit));
    if (m_agreement.empty() && m_snap && m_snap->spec.latencyLimitNs >= 0)
        extra << tr("agrees %: not shown under a latency limit (the kernel ran without it).");
    return extra;
}

QString CpuLanesView::exportText(bool markdown) const
{
    if (!m_result)
        return {};
    // The scenario as every export of the window gives it (table edits, HZ, latency limit, each
    // governor's changed tunables: scenario_context.h), then what the trace cannot tell.
    std::vector<std::string> extra;
    if (m_snap)
        for (const QString &line : resultContext(*m_snap))
            extra.push_back(line.toStdString());
    for (const QString &line : exportNotes())
        extra.push_back(line.toStdString());
    extra.push_back(producerLine().toStdString());
    return QString::fromStdString(trace::formatCpuTable(*m_result, trace::cpuTable(*m_result, m_agreement, tableCpu()),
                                                        tableCpu(), extra, markdown));
}

QString CpuLanesView::exportTo(const QString &path) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool markdown = suffix == QLatin1String("md") || suffix == QLatin1String("markdown");
    if (!markdown && suffix != QLatin1String("csv")) // never CSV under a name that says otherwise
        return QString::fromStdString(
            Error{path.toStdString(), 0, "", "unknown table format: use .csv or .md"}.toString());
    if (!m_result)
        return QString::fromStdString(
            Error{path.toStdString(), 0, "", "no CPUs table yet: open a kernel trace"}.toString());
    const Status st = writeFileAtomically(path.toStdString(), exportText(markdown).toStdString());
    return st.ok() ? QString() : QString::fromStdString(st.error().toString());
}

void CpuLanesView::exportWithDialog()
{
    // "lisa-juno-sched_load-6cpu-cpus.csv": the trace's name without its suffixes, as every
    // export of the window proposes it (exportBaseName()).
    const QString path =
        askSavePath(this, tr("Export the CPUs table"),
                    (m_snap ? exportBaseName(*m_snap) : QStringLiteral("idlescope")) + QStringLiteral("-cpus.csv"),
                    {tr("CSV (*.csv)"), tr("Markdown (*.md)")});
    if (path.isEmpty())
        return;
    if (const QString err = exportTo(path); !err.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), err);
}

} // namespace idlescope
