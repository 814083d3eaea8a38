// SPDX-License-Identifier: GPL-3.0-or-later
// Every CPU of a real trace (issue 13): the CPUs dock's lane groups, one per
// CPU with the recorded and the simulated lanes, its selector ("All CPUs" or
// one CPU, CPUs with nothing to replay listed with the reason), its per-CPU
// counters, and a CPU switch that neither imports nor replays the machine again.
#include "core/targets/builtin_machines.h"
#include "core/trace/trace_model.h"
#include "tests/test_paths.h"
#include "tests/widgets/runner_fixture.h"
#include "tests/widgets/window_fixture.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/inspector/episode_inspector.h"
#include "widgets/inspector/reasoning_chart.h"
#include "widgets/main_window.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/panels/target_picker.h"
#include "widgets/panels/trace_workload_page.h"
#include "widgets/plots/qcp.h"
#include "widgets/plots/time_plot.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/runner/trace_workload.h"
#include "widgets/trace/cpu_lanes_view.h"
#include "widgets/trace/entries_model.h"
#include "widgets/trace/trace_disagreements.h"
#include "widgets/trace/trace_entry_text.h"
#include "widgets/trace/trace_machine_job.h"
#include "widgets/view_state.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace idlescope;

class TestCpuLanes : public QObject {
    Q_OBJECT
private slots:
    void junoHasSixLaneGroups();
    void everyLaneNamedWithItsDeepestState();
    void oneCpuIsAViewOfTheSameComparison();
    void cpuWithoutSpansIsListedWithTheReason();
    void windowSwitchesCpuWithoutImporting();
    void secondInstanceIsShownByItsLabel();
    void theLatencyLimitReachesEveryCpu();
    void energyFromOneSource();
    void noPowerDataOpensWhereItIsSet();
    void exportStandsAlone();
    void disagreementIsOneClickFromTheInspector();
    void exportDialogProposesANameAndAsksBeforeOverwriting();
    void oneClockInEveryView();
};

namespace {

constexpr int TIMEOUT_MS = 120000;

ScenarioSpec traceScenario(const QString &trace, const QString &table, int cpu)
{
    ScenarioSpec spec;
    spec.target.kind = TargetKind::Builtin;
    spec.target.id = table;
    spec.target.table = builtinTable(table).value();
    spec.workload.kind = WorkloadKind::Trace;
    spec.workload.path = test::tracePath(trace).toStdString();
    spec.workload.cpu = cpu;
    spec.governors = {{"recorded", {}, QColor(Qt::black)},
                      {"menu-6.14", {}, QColor(Qt::red)},
                      {"teo-6.14", {}, QColor(Qt::blue)}};
    return spec;
}

SnapshotPtr juno(int cpu)
{
    return test::simulateOnce(
        traceScenario(QStringLiteral("lisa-juno-sched_load-6cpu.dat"), QStringLiteral("arm-juno-r0"), cpu));
}

bool computed(CpuLanesView &v)
{
    QSignalSpy spy(&v, &CpuLanesView::computed);
    return v.comparison() || spy.wait(TIMEOUT_MS);
}

/// @p v given @p snap, once its comparison is computed (false when none came).
bool computedFor(CpuLanesView &v, const SnapshotPtr &snap)
{
    v.setSnapshot(snap);
    return computed(v);
}

const MachineRun *runNamed(const MachineComparison &c, const std::string &name)
{
    for (const MachineRun &r : c.runs)
        if (r.name == name)
            return &r;
    return nullptr;
}

/// The table row of @p cpu ("cpu4" or "all CPUs") and @p run, or -1.
int tableRow(const QTableWidget *t, const QString &cpu, const QString &run)
{
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0)->text() == cpu && t->item(r, 1)->text() == run)
            return r;
    return -1;
}

} // namespace

void TestCpuLanes::junoHasSixLaneGroups()
{
    // LISA's Juno trace: every one of its 6 CPUs has spans to replay (tst_trace_gui's
    // entries_in_exported_spans 91, 12, 18, 37, 20, 14), so 6 groups of 3 lanes (recorded,
    // menu-6.14, teo-6.14); the table arm-juno-r0 is the built-in board juno-r0's.
    const SnapshotPtr snap = juno(4);
    QVERIFY(snap && snap->trace);
    CpuLanesView v;
    QVERIFY(computedFor(v, snap));
    QVERIFY(v.comparison());
    QCOMPARE(v.comparison()->machine.id, std::string("juno-r0"));
    QCOMPARE(v.groupLabels(), QStringList({"cpu0", "cpu1", "cpu2", "cpu3", "cpu4", "cpu5"}));
    QCOMPARE(v.laneLabels().size(), 18);
    QCOMPARE(v.plot()->graphCount(), 18);
    QCOMPARE(v.laneLabels().at(12), QStringLiteral("cpu4 \u00b7 recorded"));
    QCOMPARE(v.laneLabels().at(13), QStringLiteral("cpu4 \u00b7 menu-6.14"));
    QCOMPARE(v.skippedText(), QString());
    // Like with like (issue 33): the recorded row counts the entries in the replayed spans
    // (trace-stats' entries_in_exported_spans: 91 + 12 + 18 + 37 + 20 + 14 = 192), and the
    // whole trace is a line of its own, said so: trace-stats' 108 + 23 + 27 + 39 + 20 + 14 = 231.
    QVERIFY2(v.statusText().contains(QStringLiteral("every complete entry (231)")), qPrintable(v.statusText()));
    QVERIFY2(v.statusText().contains(QStringLiteral("over the same time")), qPrintable(v.statusText()));
    QCOMPARE(runNamed(*v.comparison(), "recorded")->total().entries, std::int64_t(192));
    QCOMPARE(runNamed(*v.comparison(), WHOLE_TRACE_RUN)->total().entries, std::int64_t(231));
    // The lanes cover what the rows count (the text says "lanes and rows … over the same time"):
    // the recorded lanes drew every complete entry (231, CPU 0's 108 beside its 91 counted),
    // so the kernel had entries where no governor replayed any.
    std::size_t drawn = 0;
    for (const CpuRun &c : runNamed(*v.comparison(), "recorded")->cpus) {
        QCOMPARE(static_cast<std::int64_t>(c.intervals.size()), c.entries);
        drawn += c.intervals.size();
    }
    QCOMPARE(drawn, std::size_t(192));
    QVERIFY2(v.statusText().contains(QStringLiteral("lanes and rows cover its replayed spans")),
             qPrintable(v.statusText()));
    // One time base with the time plots (a fresh user's finding: seconds here, ms there, and
    // trace-cmd timestamps in the list): ns since the first event, under the time plots' title.
    QCOMPARE(v.plot()->xAxis->label(), TimePlot::timeAxisTitle(*snap));
    QVERIFY2(v.plot()->xAxis->label().startsWith(QStringLiteral("trace time since its first event (2084.")),
             qPrintable(v.plot()->xAxis->label()));
    QVERIFY2(v.plot()->xAxis->range().upper > 1e8, qPrintable(QString::number(v.plot()->xAxis->range().upper)));
    // The whole trace has no lane, and its table line is last and labelled.
    const int last = v.table()->rowCount() - 1;
    QCOMPARE(v.table()->item(last, 0)->text(), QStringLiteral("whole trace"));
    QCOMPARE(v.table()->item(last, 2)->text(), QStringLiteral("231"));
    // No timer events in the trace: the dock says what that means.
    QVERIFY2(v.statusText().contains(QStringLiteral("every simulated governor knows the future")),
             qPrintable(v.statusText()));
    // agrees %: `idlescope-cli compare --trace lisa-juno-sched_load-6cpu.dat --machine juno-r0
    // --agreement menu-6.14 --recorded-governor menu` -> all: 192 paired, 124 agreed, 64.6 %.
    const GovernorAgreement *menuAgrees = nullptr;
    for (const GovernorAgreement &g : v.agreement())
        if (g.name == "menu-6.14")
            menuAgrees = &g;
    QVERIFY(menuAgrees);
    QCOMPARE(menuAgrees->agreement.total.paired, std::int64_t(192));
    QCOMPARE(menuAgrees->agreement.total.agreed, std::int64_t(124));
    int menuAll = -1;
    for (int r = 0; r < v.table()->rowCount(); ++r)
        if (v.table()->item(r, 0)->text() == QStringLiteral("all CPUs")
            && v.table()->item(r, 1)->text() == QStringLiteral("menu-6.14"))
            menuAll = r;
    QVERIFY(menuAll >= 0);
    // 124 / 192 = 64.58 %, written as compare --agreement writes it ("%.1f": 64.6).
    QCOMPARE(v.table()->item(menuAll, 9)->text(), QStringLiteral("64.6"));
    QVERIFY(v.table()->item(menuAll, 9)->toolTip().contains(QStringLiteral("124 of 192 paired entries")));
    // ... and the confusion matrix of the same command: the kernel's WFI entries went 91 / 2 / 10
    // to menu-6.14's WFI / cpu-sleep-0 / cluster-sleep-0.
    QVERIFY2(v.table()->item(menuAll, 9)->toolTip().contains(QStringLiteral("state 0: 91  2  10")),
             qPrintable(v.table()->item(menuAll, 9)->toolTip()));
    QCOMPARE(v.cpuSelector()->count(), 7);
    QCOMPARE(v.cpuSelector()->currentText(), QStringLiteral("All CPUs (6)"));

    // CPU 4's recorded counters are trace-stats' (`idlescope-cli trace-stats
    // lisa-juno-sched_load-6cpu.dat --table arm-juno-r0 --format csv`: state_usage 2, 6, 12,
    // state_above 0, 0, 6, state_below 1, 1, 0), its lane one interval per complete entry.
    const MachineRun *rec = runNamed(*v.comparison(), "recorded");
    QVERIFY(rec);
    const CpuRun *cpu4 = rec->find(4);
    QVERIFY(cpu4);
    QCOMPARE(cpu4->states[0].usage, std::int64_t(2));
    QCOMPARE(cpu4->states[1].usage, std::int64_t(6));
    QCOMPARE(cpu4->states[2].usage, std::int64_t(12));
    QCOMPARE(cpu4->above(), std::int64_t(6));
    QCOMPARE(cpu4->below(), std::int64_t(2));
    QCOMPARE(cpu4->intervals.size(), std::size_t(20));
    QCOMPARE(v.plot()->graph(12)->dataCount(), 40); // an entry's start and end
    // The first of them, CPU 4's first complete entry (`grep -n '\[004\].*cpu_idle'
    // lisa-juno-sched_load-6cpu.report.txt`): state=2 at 2084.203451 (line 523), exit at
    // 2084.203658 (line 525); x = 0 is the trace's first event, 2084.021443 (line 2). The report
    // prints microseconds, the .dat holds nanoseconds: within 1 us.
    QVERIFY(std::llabs(cpu4->intervals.front().startNs - (2084203451000 - 2084021443000)) < 1000);
    QVERIFY(std::llabs(cpu4->intervals.front().endNs - (2084203658000 - 2084021443000)) < 1000);
    QCOMPARE(cpu4->intervals.front().state, 2);

    // A simulated lane of CPU 4 replays the same stream as the one-CPU views: the same counters.
    const MachineRun *menu = runNamed(*v.comparison(), "menu-6.14");
    QVERIFY(menu && menu->find(4));
    const GovernorRun &one = *snap->governors[static_cast<std::size_t>(snap->indexOf("menu-6.14"))].run;
    QCOMPARE(menu->find(4)->entries, one.summary.entries);
    QCOMPARE(menu->find(4)->above(), one.summary.totalAbove());
    // ... drawn on the trace's clock, not on the replay's own: its first entry at the start of
    // CPU 4's first replayed span, the switch to swapper/4 at 2084.203441 (report line 522).
    QVERIFY(std::llabs(menu->find(4)->intervals.front().startNs - (2084203441000 - 2084021443000)) < 1000);

    // The table: a row per CPU and run, the runs summed over the CPUs (as sysfs sums them),
    // and the whole trace's line.
    QTableWidget *t = v.table();
    QCOMPARE(t->rowCount(), 6 * 3 + 3 + 1);
    const int row4 = tableRow(t, QStringLiteral("cpu4"), QStringLiteral("recorded"));
    QVERIFY(row4 >= 0);
    QCOMPARE(t->item(row4, 2)->text(), QStringLiteral("20"));
    QCOMPARE(t->item(row4, 3)->text(), QStringLiteral("6"));
    const int all = tableRow(t, QStringLiteral("all CPUs"), QStringLiteral("recorded"));
    QVERIFY(all >= 0);
    std::int64_t sum = 0;
    for (const CpuRun &c : rec->cpus)
        sum += c.entries;
    QCOMPARE(t->item(all, 2)->text(), QString::number(sum));
    // juno-r0 has LISA's energy model: the idle energy column is filled.
    QVERIFY(t->item(all, 8)->text() != QStringLiteral("\u2014"));
}

void TestCpuLanes::everyLaneNamedWithItsDeepestState()
{
    // Issue 14: lanes without names. Each of the 18 lanes (6 CPUs x recorded, menu-6.14,
    // teo-6.14) is named on the left axis by its run, bottom lane first, its CPU once beside its
    // group, and each group's deepest state on the right: arm-juno-r0's cluster-sleep-0
    // (`idlescope-cli replay --table arm-juno-r0 ...` lists WFI, cpu-sleep-0, cluster-sleep-0),
    // the recorded lanes' too (3 states in the trace). A teacher's report: 7 pt "cpu4 · menu-6.14"
    // on every lane and "cluster-sleep-0" eighteen times crowded the axes.
    const SnapshotPtr snap = juno(4);
    QVERIFY(snap && snap->trace);
    CpuLanesView v;
    v.resize(900, 300);
    v.show();
    QVERIFY(computedFor(v, snap));
    QStringList bottomUp;
    for (const QString &lane : v.laneLabels()) // "cpu4 · menu-6.14": the run's name on the axis
        bottomUp.prepend(lane.section(QStringLiteral(" \u00b7 "), 1));
    QCOMPARE(v.axisLaneLabels(), bottomUp);
    QCOMPARE(v.axisLaneLabels().first(), QStringLiteral("teo-6.14"));
    QCOMPARE(v.axisLaneLabels().mid(0, 3),
             QStringList({QStringLiteral("teo-6.14"), QStringLiteral("menu-6.14"), QStringLiteral("recorded")}));
    QCOMPARE(v.axisGroupLabels(), QStringList({"cpu5", "cpu4", "cpu3", "cpu2", "cpu1", "cpu0"}));
    QCOMPARE(v.axisStateLabels(), QStringList(6, QStringLiteral("cluster-sleep-0")));
    // The lanes are tall enough for their labels (the dock scrolls instead).
    v.plot()->replot(QCustomPlot::rpImmediateRefresh);
    const double lanePx = v.plot()->axisRect()->height() / 18.0;
    const double labelPx = QFontMetricsF(v.plot()->yAxis->tickLabelFont()).height();
    QVERIFY2(labelPx <= lanePx + 0.5, qPrintable(QStringLiteral("label %1 px, lane %2 px").arg(labelPx).arg(lanePx)));
    if (const QString dir = qEnvironmentVariable("IDLESCOPE_TEST_SHOTS"); !dir.isEmpty())
        v.grab().save(dir + QStringLiteral("/cpu-lanes.png"));
}

void TestCpuLanes::oneCpuIsAViewOfTheSameComparison()
{
    CpuLanesView v;
    QVERIFY(computedFor(v, juno(4)));
    QCOMPARE(v.computeCount(), 1);
    // Picking cpu4 in the selector: its group only, and the one-CPU views are asked to follow.
    QSignalSpy picked(&v, &CpuLanesView::cpuPicked);
    QComboBox *box = v.cpuSelector();
    const int row = box->findData(4);
    QVERIFY(row > 0);
    box->setCurrentIndex(row);
    emit box->activated(row); // what a click does
    QCOMPARE(picked.size(), 1);
    QCOMPARE(picked.front().front().toInt(), 4);
    QCOMPARE(v.shownCpu(), 4);
    QCOMPARE(v.groupLabels(), QStringList({"cpu4"}));
    QCOMPARE(v.laneLabels().size(), 3);
    // No "all CPUs" rows for one CPU; its whole-trace line last.
    QCOMPARE(v.table()->rowCount(), 4);
    QCOMPARE(v.table()->item(3, 0)->text(), QStringLiteral("whole trace, cpu4"));
    // A snapshot of another CPU of the same trace, table and governors: nothing recomputed.
    v.setSnapshot(juno(5));
    QVERIFY(!v.isComputing());
    QCOMPARE(v.computeCount(), 1);
    v.setShownCpu(TRACE_ALL_CPUS);
    QCOMPARE(v.groupLabels().size(), 6);
}

void TestCpuLanes::cpuWithoutSpansIsListedWithTheReason()
{
    // vm-amd-2cpu-pipe100us: CPU 1 has no complete span (`idlescope-cli import
    // vm-amd-2cpu-pipe100us.ftrace.txt.gz` prints its account: 20785 spans = 0 exported +
    // 20784 missing a sched_switch + 1 cut by the trace's end); it is listed, not drawn.
    const SnapshotPtr snap = test::simulateOnce(
        traceScenario(QStringLiteral("vm-amd-2cpu-pipe100us.ftrace.txt.gz"), QStringLiteral("intel-skx"), 0));
    QVERIFY(snap);
    CpuLanesView v;
    QVERIFY(computedFor(v, snap));
    QCOMPARE(v.groupLabels(), QStringList({"cpu0"}));
    QCOMPARE(v.skippedText(), QStringLiteral("Not replayed: cpu1 (no complete idle span: 20785 spans = 0 exported + "
                                             "20784 missing a sched_switch + 1 cut by the trace's end)"));
    QComboBox *box = v.cpuSelector();
    QCOMPARE(box->count(), 3);
    QCOMPARE(box->itemText(2), QStringLiteral("cpu1 \u2014 not replayed"));
    auto *items = qobject_cast<QStandardItemModel *>(box->model());
    QVERIFY(items && !items->item(2)->isEnabled());
    // intel-skx is no built-in board: its table on every CPU, and no power data.
    QCOMPARE(v.comparison()->machine.clusters.size(), std::size_t(1));
    QCOMPARE(v.table()->item(0, 8)->text(), QStringLiteral("\u2014"));
}

void TestCpuLanes::windowSwitchesCpuWithoutImporting()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const QString path = test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat"));
    SnapshotPtr s = test::nextSnapshot(w, [&] { QVERIFY(w.setupPanel()->loadTraceFile(path, 4)); });
    QVERIFY(s && s->trace);
    CpuLanesView *v = w.cpuLanes();
    QTRY_VERIFY_WITH_TIMEOUT(v->comparison() != nullptr && !v->isComputing(), TIMEOUT_MS);
    QCOMPARE(v->shownCpu(), TRACE_ALL_CPUS);
    QCOMPARE(v->groupLabels().size(), 6);
    const int imports = traceImportCount();
    const int computedBefore = v->computeCount();
    // cpu2 in the dock's selector: the window replays CPU 2, from the import it has.
    QComboBox *box = v->cpuSelector();
    const int row = box->findData(2);
    s = test::nextSnapshot(w, [&] {
        box->setCurrentIndex(row);
        emit box->activated(row);
    });
    QVERIFY(s);
    QCOMPARE(s->spec.workload.cpu, 2);
    QCOMPARE(w.setupPanel()->tracePage()->cpu(), 2);
    QCOMPARE(traceImportCount(), imports);
    QCOMPARE(v->groupLabels(), QStringList({"cpu2"}));
    QCOMPARE(v->computeCount(), computedBefore);
    QVERIFY(!v->isComputing());
}

void TestCpuLanes::theLatencyLimitReachesEveryCpu()
{
    // A fresh user's finding: with a latency limit of 10 us the CPUs dock showed menu-6.14's
    // counters without it (21272 entries, 2200 above, 39 below on vm-amd's CPU 0 on
    // intel-skx, as with no limit), while the one-CPU views and `idlescope-cli compare` gave
    // 21261 / 53 / 135. The dock's CPU 0 is now the one-CPU run, counter for counter.
    // With one row per entry (21570 rows, no cpuidle driver): `idlescope-cli import ... --cpu 0
    // --stream S.csv`, its latency_req_ns set to 10000 by awk, `idlescope-cli replay --table
    // intel-skx --stream S.csv --governor menu-6.14 --summary J` -> 21611 entries, 190 above,
    // 253 below.
    ScenarioSpec spec =
        traceScenario(QStringLiteral("vm-amd-2cpu-pipe100us.ftrace.txt.gz"), QStringLiteral("intel-skx"), 0);
    spec.latencyLimitNs = 10000;
    const SnapshotPtr snap = test::simulateOnce(spec);
    QVERIFY(snap);
    const GovernorRun &one = *snap->governors[1].run;
    QCOMPARE(one.variant, std::string("menu-6.14"));
    QCOMPARE(one.summary.entries, std::int64_t(21611));
    QCOMPARE(one.summary.totalAbove(), std::int64_t(190));
    QCOMPARE(one.summary.totalBelow(), std::int64_t(253));
    CpuLanesView v;
    QVERIFY(computedFor(v, snap));
    const MachineRun *menu = runNamed(*v.comparison(), "menu-6.14");
    QVERIFY(menu);
    const CpuRun *cpu0 = menu->find(0);
    QVERIFY(cpu0);
    QCOMPARE(cpu0->above(), one.summary.totalAbove());
    QCOMPARE(cpu0->below(), one.summary.totalBelow());
    for (int s = 0; s < snap->table.count(); ++s)
        QCOMPARE(cpu0->states[static_cast<std::size_t>(s)].usage,
                 one.summary.states[static_cast<std::size_t>(s)].usage);
    // Another limit is another comparison: not the cached one.
    ScenarioSpec without = spec;
    without.latencyLimitNs = -1;
    SimulationSnapshot other = *snap;
    other.spec = without;
    QVERIFY(traceMachineKey(other) != traceMachineKey(*snap));
}

void TestCpuLanes::energyFromOneSource()
{
    // Issue 33 item 3: the Comparison table said "no power data" for arm-juno-r0 while this dock
    // showed mJ (the dock priced each CPU with the juno-r0 board's energy model, the one-CPU views
    // with the table file's power only). Both now price a CPU with its cluster's numbers in the
    // machine the trace replays on: CPU 4 is in juno-r0's big cluster (Cortex-A57), CPU 0 in
    // the little one (Cortex-A53), whose idle powers differ (builtin_machines.cpp, LISA's model).
    const Machine board = builtinMachine("juno-r0").value();
    for (int cpu : {0, 4}) {
        const SnapshotPtr snap = juno(cpu);
        QVERIFY(snap && snap->trace);
        const PowerModel &want = board.clusters[static_cast<std::size_t>(board.clusterOf(cpu))].power;
        QVERIFY(snap->power.hasIdlePower());
        for (std::size_t k = 0; k < want.states.size(); ++k)
            QCOMPARE(snap->power.states[k].powerMw, want.states[k].powerMw);
        CpuLanesView v;
        QVERIFY(computedFor(v, snap));
        ComparisonTableModel model;
        model.setSnapshot(snap);
        // The recorded run's and menu-6.14's idle energy on this CPU: the table's value is the
        // dock's, the same core numbers (`idlescope-cli compare --trace lisa-juno-sched_load-6cpu.dat
        // --machine juno-r0 --governors menu-6.14 --format csv`, idle_energy_J of CPU 4:
        // recorded 2.702e-05, menu-6.14 0.000183185; 0.000183317 before a replay's exit latency
        // was taken out of the time in each state as waking time, issue 32).
        for (const char *name : {"recorded", "menu-6.14"}) {
            const int g = snap->indexOf(name);
            int row = -1;
            for (int r = 0; r < model.rowCount(); ++r)
                if (model.index(r, 0).data(ComparisonTableModel::GovernorIndexRole).toInt() == g)
                    row = r;
            QVERIFY(row >= 0);
            const QVariant tableJ = model.index(row, ComparisonTableModel::EnergyColumn).data(Qt::EditRole);
            QVERIFY2(tableJ.isValid(),
                     qPrintable(model.index(row, ComparisonTableModel::EnergyColumn).data().toString()));
            const MachineComparison &c = *v.comparison();
            double dockJ = NAN;
            for (std::size_t r = 0; r < c.runs.size(); ++r)
                if (c.runs[r].name == name)
                    for (std::size_t i = 0; i < c.runs[r].cpus.size(); ++i)
                        if (c.runs[r].cpus[i].cpu == cpu)
                            dockJ = c.energy[r].cpus[i].idleJ + c.energy[r].cpus[i].entryExitJ;
            QVERIFY(std::isfinite(dockJ) && dockJ > 0);
            QVERIFY2(std::abs(tableJ.toDouble() - dockJ) <= 1e-9 * dockJ,
                     qPrintable(QStringLiteral("CPU %1, %2: table %3 J, dock %4 J")
                                    .arg(cpu)
                                    .arg(QString::fromLatin1(name))
                                    .arg(tableJ.toDouble())
                                    .arg(dockJ)));
            if (cpu == 4) // the command's figures, to the 4 digits it prints
                QCOMPARE(QString::number(tableJ.toDouble(), 'g', 4),
                         QString::fromLatin1(std::string_view(name) == "recorded" ? "2.702e-05" : "0.0001832"));
        }
    }
}

void TestCpuLanes::noPowerDataOpensWhereItIsSet()
{
    // Issue 33 item 3: "no power data" gave no hint. The window's default table has no power
    // data: the Comparison view shows a link that says how to add it, and a click opens the
    // Setup panel's table choice; a trace on arm-juno-r0 (with power data) hides it.
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    QVERIFY(!w.snapshot()->power.hasIdlePower());
    QLabel *link = w.comparison()->powerLink();
    QVERIFY(link->isVisibleTo(w.comparison()));
    QVERIFY(link->toolTip().contains(QStringLiteral("\"power_mw\"")));
    QVERIFY(link->toolTip().contains(QStringLiteral("Table file")));
    auto *setupDock = w.findChild<QDockWidget *>(QStringLiteral("setupDock"));
    QVERIFY(setupDock);
    setupDock->hide();
    emit link->linkActivated(QStringLiteral("power"));
    QVERIFY(setupDock->isVisible());
    // The how-to in the message bar, whose words wrap (the status bar cut it at the window's width).
    QVERIFY(w.messageBar()->isVisible());
    QVERIFY2(w.messageBar()->text().contains(QStringLiteral("power_mw")), qPrintable(w.messageBar()->text()));
    QTRY_VERIFY(w.setupPanel()->targetPicker()->hasFocus());
    // The energy cell of a row does the same.
    setupDock->hide();
    QTableView *table = w.comparison()->tableView();
    const QModelIndex energy = table->model()->index(0, ComparisonTableModel::EnergyColumn);
    QCOMPARE(energy.data().toString(), QStringLiteral("no power data"));
    emit table->clicked(energy);
    QVERIFY(setupDock->isVisible());
    // arm-juno-r0 under the default (generated) workload: which of the board's clusters the
    // stream runs on is unknown, so no power data yet, and the link stays.
    SnapshotPtr s =
        test::nextSnapshot(w, [&] { w.setupPanel()->targetPicker()->useTable(QStringLiteral("builtin:arm-juno-r0")); });
    QVERIFY(s && !s->trace);
    QCOMPARE(s->spec.target.id, QStringLiteral("arm-juno-r0"));
    QVERIFY(link->isVisibleTo(w.comparison()));
    // A trace on it: CPU 4 has its cluster's power data (energyFromOneSource), nothing to add.
    s = test::nextSnapshot(w, [&] {
        QVERIFY(w.setupPanel()->loadTraceFile(test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat")), 4));
    });
    QVERIFY(s && s->trace);
    QCOMPARE(s->spec.target.id, QStringLiteral("arm-juno-r0"));
    QVERIFY(s->power.hasIdlePower());
    QVERIFY(!link->isVisibleTo(w.comparison()));
}

void TestCpuLanes::exportStandsAlone()
{
    // Issue 33 item 7: the CPUs dock could not be exported. Juno, every CPU, as CSV and as
    // Markdown: a header that says what the table is, then the dock's own cells (core's text).
    CpuLanesView v;
    QVERIFY(computedFor(v, juno(4)));
    QTemporaryDir dir;
    const QString csvPath = dir.filePath(QStringLiteral("cpus.csv"));
    QCOMPARE(v.exportTo(csvPath), QString());
    QFile f(csvPath);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QStringList head;
    QStringList rows;
    for (const QString &l : lines)
        (l.startsWith(QStringLiteral("# ")) ? head : rows) << l;
    const QString header = head.join(QLatin1Char('\n'));
    // The trace, the machine and its tables, the runs, what each row covers, the energy's source.
    for (const QString &want :
         {QStringLiteral("trace ") + test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat")),
          QStringLiteral("machine juno-r0 (6 CPUs"), QStringLiteral("table arm-juno-r0"),
          QStringLiteral("runs: recorded (the kernel's choices"), QStringLiteral("menu-6.14, teo-6.14"),
          QStringLiteral("CPUs: every CPU replayed"), QStringLiteral("every complete entry (231)"),
          QStringLiteral("over the same time"), QStringLiteral("idle_energy_mJ: idle + entry/exit energy"),
          QStringLiteral("The trace cannot tell:"),
          // A fresh user's finding: what wakeups counts, the scenario and the producer were missing.
          QStringLiteral("wakeups: the run's idle spans ended by a non-timer event"),
          QStringLiteral("# Table: arm-juno-r0"), QStringLiteral("# Written by idlescope")})
        QVERIFY2(header.contains(want), qPrintable(want + QStringLiteral("\n") + header));
    QCOMPARE(rows.value(0),
             QStringLiteral("cpu,run,entries,above,below,miss_pct,idle_ms,wakeups,idle_energy_mJ,agrees_pct"));
    // A row per CPU and run, the sums, the whole trace: the dock's rows, cell for cell.
    QCOMPARE(rows.size() - 1, v.table()->rowCount());
    // CPU 4's recorded row: trace-stats' 20 entries, 6 above, 2 below (see junoHasSixLaneGroups),
    // 8 misses of 20 = 40.0 %.
    QString cpu4;
    for (const QString &r : rows)
        if (r.startsWith(QStringLiteral("cpu4,recorded,")))
            cpu4 = r;
    QVERIFY2(cpu4.startsWith(QStringLiteral("cpu4,recorded,20,6,2,40.0,")), qPrintable(cpu4));
    const int row4 = tableRow(v.table(), QStringLiteral("cpu4"), QStringLiteral("recorded"));
    QStringList shown;
    for (int c = 0; c < v.table()->columnCount(); ++c)
        shown << v.table()->item(row4, c)->text();
    QCOMPARE(cpu4.split(QLatin1Char(',')).mid(0, 9), shown.mid(0, 9));
    // menu-6.14 summed: 124 of 192 entries in the kernel's state (compare --agreement: 64.6 %).
    bool menuAll = false;
    for (const QString &r : rows)
        menuAll |= r.startsWith(QStringLiteral("all_CPUs,menu-6.14,")) && r.endsWith(QStringLiteral(",64.6"));
    QVERIFY2(menuAll, qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY2(rows.last().startsWith(QStringLiteral("whole_trace,")) && rows.last().contains(QStringLiteral(",231,")),
             qPrintable(rows.last()));
    // Markdown: the same header as a list, the same rows as a table.
    const QString mdPath = dir.filePath(QStringLiteral("cpus.md"));
    QCOMPARE(v.exportTo(mdPath), QString());
    QFile md(mdPath);
    QVERIFY(md.open(QIODevice::ReadOnly));
    const QString mdText = QString::fromUtf8(md.readAll());
    QVERIFY2(mdText.startsWith(QStringLiteral("- idlescope CPUs table: trace ")), qPrintable(mdText));
    QVERIFY2(mdText.contains(QStringLiteral("| cpu4 | recorded | 20 | 6 | 2 | 40.0 |")), qPrintable(mdText));
    // Written by rename: nothing else in the folder; an unknown suffix writes nothing.
    QVERIFY(!v.exportTo(dir.filePath(QStringLiteral("cpus.txt"))).isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList({"cpus.csv", "cpus.md"}));
}

void TestCpuLanes::disagreementIsOneClickFromTheInspector()
{
    // Issue 29 §3/§5: the dock showed the agreement, but its first disagreements were only in a
    // tooltip. `idlescope-cli compare --trace lisa-juno-sched_load-6cpu.dat --table arm-juno-r0
    // --agreement menu-6.14 --recorded-governor menu` lists menu-6.14's first disagreement:
    // "2084.021931  CPU 3, row 0: kernel cpu-sleep-0 for 389.0 us, menu-6.14 WFI". The window
    // replays CPU 4; one click on that line replays CPU 3 and opens the kernel's entry there.
    MainWindow w;
    w.resize(1280, 900);
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    SnapshotPtr s = test::nextSnapshot(w, [&] {
        w.applySpec(traceScenario(QStringLiteral("lisa-juno-sched_load-6cpu.dat"), "arm-juno-r0", 4));
    });
    QVERIFY(s && s->trace);
    QCOMPARE(s->trace->cpu, 4);
    CpuLanesView *v = w.cpuLanes();
    QTRY_VERIFY_WITH_TIMEOUT(v->comparison() != nullptr && !v->isComputing(), TIMEOUT_MS);
    QListWidget *list = v->disagreementList();
    QListWidgetItem *first = nullptr;
    for (int i = 0; i < list->count() && !first; ++i)
        if (list->item(i)->text().startsWith(QStringLiteral("menu-6.14")))
            first = list->item(i);
    QVERIFY(first);
    QCOMPARE(first->text(), QStringLiteral("menu-6.14 \u00b7 cpu3 at %1: the kernel cpu-sleep-0, menu-6.14 WFI")
                                .arg(traceAxisText(first->data(Qt::UserRole + 1).toLongLong() - s->trace->originNs)));
    QVERIFY2(first->toolTip().startsWith(QStringLiteral("trace-cmd 2084.021931 s")), qPrintable(first->toolTip()));
    // A real click on the item, in the dock as the user sees it.
    v->findChild<QTabWidget *>()->setCurrentWidget(list);
    w.findChild<QDockWidget *>(QStringLiteral("cpusDock"))->raise();
    list->scrollToItem(first);
    s = test::nextSnapshot(w, [&] {
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(first).center());
    });
    QVERIFY(s && s->trace);
    QCOMPARE(s->trace->cpu, 3);
    const int recorded = s->indexOf("recorded");
    QVERIFY(recorded >= 0);
    QTRY_COMPARE_WITH_TIMEOUT(w.viewState()->selectedGovernor(), recorded, TIMEOUT_MS);
    // The kernel's entry: row 0 of CPU 3, which began at 2084.021931 s on the trace's clock.
    QCOMPARE(w.viewState()->selectedEntry(), qint64(0));
    QCOMPARE(w.inspector()->traceTimestamp().left(11), QStringLiteral("2084.021931"));
    QVERIFY2(w.inspector()->plainText().startsWith(QStringLiteral("recorded")), qPrintable(w.inspector()->plainText()));
    // The chart under it: the kernel's entry has no reasoning to draw; it said "Select an entry"
    // while this entry was selected.
    const auto *chartTitle =
        static_cast<QCPTextElement *>(w.inspector()->chart()->customPlot()->plotLayout()->element(0, 0));
    QCOMPARE(chartTitle->text(), QStringLiteral("The kernel's entry: no governor reasoning to chart"));
}

QTEST_MAIN(TestCpuLanes)
// A second instance of menu-6.14 (INTERVALS=4, label m4): its lanes and counter rows say
// "m4"; they said "menu-6.14" twice, while the legend and the comparison table said m4.
void TestCpuLanes::secondInstanceIsShownByItsLabel()
{
    ScenarioSpec spec =
        traceScenario(QStringLiteral("lisa-juno-sched_load-6cpu.dat"), QStringLiteral("arm-juno-r0"), 4);
    GovernorSpec b{"menu-6.14", {{"INTERVALS", 4}}, QColor(Qt::darkRed)};
    b.label = "m4";
    spec.governors.push_back(b);
    const SnapshotPtr snap = test::simulateOnce(spec);
    QVERIFY(snap && snap->trace);
    CpuLanesView v;
    QVERIFY(computedFor(v, snap));
    QCOMPARE(v.laneLabels().size(), 24); // 6 CPUs x (recorded, menu-6.14, teo-6.14, m4)
    QCOMPARE(v.laneLabels().at(19), QStringLiteral("cpu4 \u00b7 m4"));
    QVERIFY(runNamed(*v.comparison(), "m4"));
    QVERIFY(tableRow(v.table(), QStringLiteral("all CPUs"), QStringLiteral("m4")) >= 0);
    QVERIFY(tableRow(v.table(), QStringLiteral("all CPUs"), QStringLiteral("menu-6.14")) >= 0);
    // The export names the tunables the second instance changed, as every export of the window.
    QVERIFY2(v.exportText(false).contains(QStringLiteral("\n# m4: INTERVALS=4\n")), qPrintable(v.exportText(false)));
}

void TestCpuLanes::exportDialogProposesANameAndAsksBeforeOverwriting()
{
    // A fresh user's finding: the CPUs dock's save dialog proposed no name, and a name typed
    // without ".csv" overwrote "cpus.csv" without a question (the suffix was added after the
    // dialog had checked the name typed). The dialog now proposes a name and adds the suffix
    // itself (its default suffix), so that its own overwrite question names the file written.
    // Driving Qt's dialog through the question proved timing-dependent (its file model loads
    // the folder asynchronously): the test reads the dialog's set-up and cancels.
    CpuLanesView v;
    QVERIFY(computedFor(v, juno(4)));
    QString proposed;
    QString suffix;
    bool confirmsOverwrite = false;
    bool seen = false;
    QTimer poll;
    poll.setInterval(20);
    connect(&poll, &QTimer::timeout, [&] {
        auto *d = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
        if (!d || seen)
            return;
        seen = true;
        proposed = QFileInfo(d->selectedFiles().value(0)).fileName();
        suffix = d->defaultSuffix();
        confirmsOverwrite =
            d->acceptMode() == QFileDialog::AcceptSave && !d->testOption(QFileDialog::DontConfirmOverwrite);
        d->reject();
    });
    poll.start();
    v.exportWithDialog();
    poll.stop();
    QVERIFY(seen);
    QCOMPARE(proposed, QStringLiteral("lisa-juno-sched_load-6cpu-cpus.csv"));
    QCOMPARE(suffix, QStringLiteral("csv"));
    QVERIFY(confirmsOverwrite);
}

void TestCpuLanes::oneClockInEveryView()
{
    // The walkthrough of issue 33 item 4 ("one clock everywhere"): the entries list, the
    // inspector and the first-disagreement links gave trace-cmd timestamps (2084.021931) while
    // the lanes' axis counts from the trace's first event. Every view now writes an entry's
    // time where the lanes draw it; the trace-cmd timestamp stays in a tooltip and beside it.
    // The entry: menu-6.14's first disagreement with the kernel, on CPU 3
    // (`idlescope-cli compare --trace lisa-juno-sched_load-6cpu.dat --table arm-juno-r0
    // --agreement menu-6.14 --recorded-governor menu`: "2084.021931  CPU 3, row 0"); the
    // trace's first event is at 2084.021443 (report line 2), so the lanes draw it at 488 us.
    const SnapshotPtr snap = juno(3);
    QVERIFY(snap && snap->trace);
    CpuLanesView v;
    QVERIFY(computedFor(v, snap));
    QListWidgetItem *link = nullptr;
    for (int i = 0; i < v.disagreementList()->count() && !link; ++i)
        if (v.disagreementList()->item(i)->text().startsWith(QStringLiteral("menu-6.14 \u00b7 cpu3")))
            link = v.disagreementList()->item(i);
    QVERIFY(link);
    const qint64 traceNs = link->data(Qt::UserRole + 1).toLongLong();

    // Which entry it is: the inspector selects the kernel's entry of the link, as a click does.
    ViewState view;
    view.setFullRange(0, snap->durationNs());
    EpisodeInspector inspector;
    inspector.setViewState(&view);
    inspector.setSnapshot(snap);
    QVERIFY(inspector.goToTraceEntry(traceNs));
    const int recorded = snap->indexOf("recorded");
    QCOMPARE(view.selectedGovernor(), recorded);
    const std::int64_t e = view.selectedEntry();
    QCOMPARE(e, std::int64_t(0)); // row 0's first entry

    // Where the lanes draw it: the x of its step in the "cpu3 · recorded" lane (each entry is
    // two points, its start and its end), read off the plot, not computed from an origin.
    const QCPGraph *lane = nullptr;
    for (int i = 0; i < v.plot()->graphCount(); ++i)
        if (v.plot()->graph(i)->name() == QStringLiteral("cpu3 \u00b7 recorded"))
            lane = v.plot()->graph(i);
    QVERIFY(lane);
    QVERIFY(lane->dataCount() > 2 * e);
    const auto laneNs = static_cast<Ns>(std::llround((lane->data()->constBegin() + 2 * e)->key));
    QVERIFY2(std::llabs(laneNs - 488000) < 1000, qPrintable(QString::number(laneNs))); // by hand, above
    const QString want = traceAxisText(laneNs);
    QCOMPARE(want, QStringLiteral("0.000488 s"));

    // The CPUs dock's link.
    QVERIFY2(link->text().startsWith(QStringLiteral("menu-6.14 \u00b7 cpu3 at %1:").arg(want)),
             qPrintable(link->text()));
    // The entries list, its trace-cmd timestamp in the cell's tooltip (the report's, above).
    EntriesModel list;
    list.setSnapshot(snap);
    list.setRun(recorded);
    const int row = list.rowOf(e);
    QVERIFY(row >= 0);
    QCOMPARE(list.data(list.index(row, EntriesModel::Time)).toString(), want);
    QCOMPARE(list.data(list.index(row, EntriesModel::Time), Qt::ToolTipRole).toString(),
             QStringLiteral("trace-cmd 2084.021931 s"));
    QCOMPARE(list.headerData(EntriesModel::Time, Qt::Horizontal).toString(), QStringLiteral("trace time"));
    // The inspector's header, and its "In the trace" line.
    const QString title = inspector.plainText().section(QLatin1Char('\n'), 0, 0);
    QVERIFY2(title.contains(QStringLiteral("at %1 trace time (trace-cmd 2084.021931 s)").arg(want)), qPrintable(title));
    QVERIFY2(inspector.plainText().contains(
                 QStringLiteral("In the trace: CPU 3 at %1 (trace-cmd 2084.021931 s)").arg(want)),
             qPrintable(inspector.plainText()));
    // The inspector's own link to the same disagreement.
    const DisagreementLink *own = nullptr;
    for (const DisagreementLink &l : inspector.disagreements())
        if (!own && l.governor == snap->indexOf("menu-6.14"))
            own = &l;
    QVERIFY(own);
    QCOMPARE(own->recordedEntry, e);
    QVERIFY2(inspector.plainText().contains(QStringLiteral("%1: the kernel cpu-sleep-0, menu-6.14 WFI (trace-cmd "
                                                           "2084.021931 s)")
                                                .arg(want)),
             qPrintable(inspector.plainText()));
}

#include "tst_cpu_lanes.moc"
