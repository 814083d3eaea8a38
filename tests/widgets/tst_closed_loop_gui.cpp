// SPDX-License-Identifier: GPL-3.0-or-later
// A closed-loop workload in the window (issue 13, "throughput from the whole-machine issue"):
// the spec page's closed loop runs on the runner's worker (progress, cancel), and the
// comparison table shows each governor's operations per second and added latency (mean,
// p99) with exactly the cells `idlescope-cli compare --closed-loop` prints for the same loop,
// table and seed; the Trade-off view draws the table's values.
#include "tests/cli_process.h"
#include "tests/test_paths.h"
#include "tests/widgets/runner_fixture.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/comparison/tradeoff_view.h"
#include "widgets/export/compare_command.h"
#include "widgets/export/data_export.h"
#include "widgets/panels/governor_legend.h"
#include "widgets/panels/playback_bar.h"
#include "widgets/panels/workload_spec_page.h"
#include "widgets/plots/miss_histogram_plot.h"
#include "widgets/plots/state_timeline_plot.h"
#include "widgets/plots/time_share_plot.h"
#include "widgets/runner/build_snapshot.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/closed_loop_workload.h"
#include "widgets/runner/job_progress.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/trace/cpu_lanes_view.h"
#include "widgets/view_state.h"

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMap>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace idlescope;

class TestClosedLoopGui : public QObject {
    Q_OBJECT
private slots:
    void cellsAreTheCliCells_data();
    void cellsAreTheCliCells();
    void tradeoffViewShowsOpsAndLatency();
    void timePlotsSayThereIsNoTimeline();
    void runsOnTheWorkerWithProgressAndCancel();
    void specPageCommitsAClosedLoop();
    void openLoopHasNoClosedLoopCells();
    void copiedCommandOfAnABLoopRuns();
    void junoLoopHasTheCliEnergyOverItsWindow();
    void ioProgressCountsEveryJob();
    void junoRefusesALoopWiderThanTheBoard();
    void emptyStatisticsAndCpusSayWhy();
};

namespace {

using Col = ComparisonTableModel::Column;

const char *const GOVERNORS[] = {"menu-6.14", "teo-6.14", "ladder-latest"};

ScenarioSpec closedLoopScenario(const QString &loop, int seed = 3)
{
    ScenarioSpec spec;
    spec.target = test::fileTarget(test::powerTablePath());
    spec.workload.kind = WorkloadKind::ClosedLoop;
    spec.workload.text = loop.toStdString();
    spec.workload.seed = seed;
    for (const char *g : GOVERNORS)
        spec.governors.push_back({g, {}, QColor(Qt::darkCyan)});
    return spec;
}

/// `compare --closed-loop LOOP --table T --format csv` rows by governor: column -> cell.
QMap<QString, QMap<QString, QString>> cliRows(const QString &loop, int seed = 3)
{
    return test::cliCsvRows({QStringLiteral("compare"), QStringLiteral("--table"), test::powerTablePath(),
                             QStringLiteral("--closed-loop"), loop, QStringLiteral("--governors"),
                             QStringLiteral("menu-6.14,teo-6.14,ladder-latest"), QStringLiteral("--seed"),
                             QString::number(seed), QStringLiteral("--format"), QStringLiteral("csv")},
                            1); // by governor, the first column
}

const QString MICRO = QStringLiteral(" \u00b5s");

} // namespace

void TestClosedLoopGui::cellsAreTheCliCells_data()
{
    QTest::addColumn<QString>("loop");
    // A device with two requests in flight and jittered service (seeded), one CPU.
    QTest::newRow("io") << QStringLiteral("io:service_us=40,work_us=8,iodepth=2,jitter_us=30,ops=3000");
    // Two CPUs passing a message: both CPUs' wakeups in every round trip.
    QTest::newRow("pingpong") << QStringLiteral("pingpong:work_us=15,peer_work_us=5,ops=2000");
}

void TestClosedLoopGui::cellsAreTheCliCells()
{
    QFETCH(QString, loop);
    const SnapshotPtr snap = test::simulateOnce(closedLoopScenario(loop));
    QVERIFY(snap);
    QVERIFY2(snap->errors.isEmpty(), qPrintable(snap->errors.join(QLatin1Char('\n'))));
    QCOMPARE(snap->governorCount(), 3);
    QCOMPARE(std::count_if(snap->governors.begin(), snap->governors.end(),
                           [](const GovernorResult &g) { return g.closedLoop.has_value(); }),
             3);
    const auto cli = cliRows(loop);
    QCOMPARE(cli.size(), 3);
    ComparisonTableModel model;
    model.setSnapshot(snap);
    QCOMPARE(model.headerData(Col::OpsColumn, Qt::Horizontal, Qt::EditRole).toString(), QStringLiteral("ops_per_s"));
    QCOMPARE(model.headerData(Col::AddedMeanColumn, Qt::Horizontal, Qt::EditRole).toString(),
             QStringLiteral("added_latency_mean_us"));
    QCOMPARE(model.headerData(Col::AddedP99Column, Qt::Horizontal, Qt::EditRole).toString(),
             QStringLiteral("added_latency_p99_us"));
    for (int row = 0; row < 3; ++row) {
        const QString gov = QString::fromUtf8(GOVERNORS[row]);
        QCOMPARE(model.index(row, Col::GovColumn).data(Qt::EditRole).toString(), gov);
        const QMap<QString, QString> &c = cli[gov];
        QCOMPARE(model.index(row, Col::OpsColumn).data().toString(), c.value(QStringLiteral("ops_per_s")));
        QCOMPARE(model.index(row, Col::AddedMeanColumn).data().toString(),
                 c.value(QStringLiteral("added_latency_mean_us")) + MICRO);
        QCOMPARE(model.index(row, Col::AddedP99Column).data().toString(),
                 c.value(QStringLiteral("added_latency_p99_us")) + MICRO);
        // The run's counters, summed over its CPUs, are the table's idles, aboves and belows.
        QCOMPARE(model.index(row, Col::IdlesColumn).data().toString(), c.value(QStringLiteral("entries")));
        QCOMPARE(model.index(row, Col::AbovesColumn).data().toString(), c.value(QStringLiteral("above")));
        QCOMPARE(model.index(row, Col::BelowsColumn).data().toString(), c.value(QStringLiteral("below")));
        // The same ratio (4 decimals in the CLI).
        QVERIFY(qAbs(model.index(row, Col::IdleMissRatioColumn).data(Qt::EditRole).toDouble()
                     - c.value(QStringLiteral("idle_miss_ratio")).toDouble())
                < 5e-5);
        // Energy from the same counters on the same machine (compare prints %.6g, the table too).
        QCOMPARE(model.index(row, Col::EnergyColumn).data().toString(), c.value(QStringLiteral("idle_energy_J")));
        // Real figures: every operation done, a positive rate.
        QCOMPARE(c.value(QStringLiteral("operations")),
                 loop.endsWith(QStringLiteral("ops=3000")) ? QStringLiteral("3000") : QStringLiteral("2000"));
        QVERIFY(model.index(row, Col::OpsColumn).data(Qt::EditRole).toDouble() > 1000.0);
    }
    // The legend's chips: the run's counters, not the "miss 0.0 %" of a run without entries.
    ViewState viewState;
    GovernorLegend legend(&viewState);
    legend.setSnapshot(snap);
    for (int row = 0; row < 3; ++row) {
        const QMap<QString, QString> &c = cli[QString::fromUtf8(GOVERNORS[row])];
        QVERIFY2(legend.chipText(row).contains(
                     QStringLiteral("above %1 \u00b7 below %2")
                         .arg(c.value(QStringLiteral("above")), c.value(QStringLiteral("below")))),
                 qPrintable(legend.chipText(row) + QStringLiteral(" / CLI above ") + c.value(QStringLiteral("above"))));
    }
    // Exported, the closed loop keeps its three columns, each row's ops/s as the CLI prints it.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("summaries.csv"));
    QVERIFY(exportSummariesCsv(snap, path).ok());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // The "# " lines of context above the table (exportSummariesCsv) name the closed loop.
    QVERIFY(lines.filter(QStringLiteral("# Closed loop:")).size() == 1);
    lines.removeIf([](const QString &l) { return l.startsWith(QLatin1Char('#')); });
    QCOMPARE(lines.size(), 4);
    const QStringList head = lines[0].split(QLatin1Char(','));
    const qsizetype ops = head.indexOf(QStringLiteral("ops_per_s"));
    QCOMPARE(ops, qsizetype(Col::OpsColumn));
    QCOMPARE(head.value(ops + 2), QStringLiteral("added_latency_p99_us"));
    for (int row = 0; row < 3; ++row) {
        const QStringList cells = lines[row + 1].split(QLatin1Char(','));
        QCOMPARE(cells[0], QString::fromUtf8(GOVERNORS[row]));
        // The file has 12 digits, the CLI one decimal (%.1f): equal within its rounding.
        QVERIFY(qAbs(cells[ops].toDouble() - cli[cells[0]].value(QStringLiteral("ops_per_s")).toDouble()) <= 0.05);
        // The latencies in µs, as their keys say (they were written in ns: a p99 of 1.000 µs as 1000).
        QVERIFY(
            qAbs(cells[ops + 1].toDouble() - cli[cells[0]].value(QStringLiteral("added_latency_mean_us")).toDouble())
            <= 0.0005);
        QVERIFY(qAbs(cells[ops + 2].toDouble() - cli[cells[0]].value(QStringLiteral("added_latency_p99_us")).toDouble())
                <= 0.0005);
    }
}

void TestClosedLoopGui::tradeoffViewShowsOpsAndLatency()
{
    const SnapshotPtr snap = test::simulateOnce(
        closedLoopScenario(QStringLiteral("io:service_us=40,work_us=8,iodepth=2,jitter_us=30,ops=3000")));
    QVERIFY(snap);
    ComparisonTableModel model;
    model.setSnapshot(snap);
    TradeoffView view(&model);
    view.resize(900, 260);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.refreshNow();
    QVERIFY(view.showsClosedLoop());
    QCOMPARE(view.panelTitle(TradeoffView::Throughput), QStringLiteral("operations/s (more is better)"));
    for (int g = 0; g < 3; ++g) {
        QCOMPARE(view.barValue(TradeoffView::Throughput, g),
                 model.index(g, Col::OpsColumn).data(Qt::EditRole).toDouble());
        // The p99 in us, as the table's cell reads it.
        QCOMPARE(view.barValue(TradeoffView::AddedLatency, g),
                 model.index(g, Col::AddedP99Column).data(Qt::EditRole).toDouble());
    }
    // No two value labels of a panel overlap (issue 33: the latency panel's two-line labels did;
    // a teacher's 1600 x 1000 window ran "16663.716663.716665.0" together in a narrow pane).
    for (const int width : {900, 520}) {
        view.resize(width, 260);
        view.refreshNow();
        view.customPlot()->replot();
        QList<QPair<QCPAxisRect *, QRectF>> labels;
        for (int i = 0; i < view.customPlot()->itemCount(); ++i)
            if (auto *t = qobject_cast<QCPItemText *>(view.customPlot()->item(i)); t && t->visible()) {
                const QPointF corners[] = {t->topLeft->pixelPosition(), t->topRight->pixelPosition(),
                                           t->bottomLeft->pixelPosition(), t->bottomRight->pixelPosition()};
                // A label turned upright has its corners turned too: the box around all four.
                double left = corners[0].x(), right = left, top = corners[0].y(), bottom = top;
                for (const QPointF &c : corners) {
                    left = std::min(left, c.x());
                    right = std::max(right, c.x());
                    top = std::min(top, c.y());
                    bottom = std::max(bottom, c.y());
                }
                labels.append({t->clipAxisRect(), QRectF(QPointF(left, top), QPointF(right, bottom))});
            }
        // Every line of a panel's title fits the panel (a narrow pane cut the one-line titles).
        for (const TradeoffView::Panel p :
             {TradeoffView::Misses, TradeoffView::Throughput, TradeoffView::Energy, TradeoffView::AddedLatency}) {
            QCPTextElement *title = view.panelTitleElement(p);
            const int panel = view.customPlot()->axisRects().value(int(p))->outerRect().width();
            for (const QString &line : title->text().split(QLatin1Char('\n')))
                QVERIFY2(QFontMetrics(title->font()).horizontalAdvance(line) <= panel,
                         qPrintable(QStringLiteral("at %1 px: %2 wider than %3 px").arg(width).arg(line).arg(panel)));
        }
        // Four panels, three governors (a panel too short for its labels upright shows none).
        if (width == 900)
            QVERIFY(labels.size() >= 12);
        for (qsizetype a = 0; a < labels.size(); ++a)
            for (qsizetype b = a + 1; b < labels.size(); ++b)
                QVERIFY2(labels[a].first != labels[b].first || !labels[a].second.intersects(labels[b].second),
                         qPrintable(QStringLiteral("at %1 px labels %2 and %3 overlap").arg(width).arg(a).arg(b)));
    }
    // A replayed stream: wakeups/s again and no latency panel.
    ScenarioSpec open = closedLoopScenario(QString());
    open.workload = defaultScenario().workload;
    model.setSnapshot(test::simulateOnce(open));
    view.refreshNow();
    QVERIFY(!view.showsClosedLoop());
    QCOMPARE(view.panelTitle(TradeoffView::Throughput), QStringLiteral("wakeups/s (more is better)"));
    QVERIFY(std::isnan(view.barValue(TradeoffView::AddedLatency, 0)));
}

void TestClosedLoopGui::timePlotsSayThereIsNoTimeline()
{
    // Issue 33 item 8: a closed loop keeps totals only, and the time plots drew a "0 … 1 ns"
    // axis as if there were a timeline. The axis has no ticks now, and the plot says why.
    const SnapshotPtr snap = test::simulateOnce(closedLoopScenario(QStringLiteral("pingpong:work_us=15,ops=500")));
    QVERIFY(snap && snap->isClosedLoop());
    ViewState view;
    view.setFullRange(0, std::max<qint64>(1, snap->durationNs()));
    StateTimelinePlot lanes(&view);
    lanes.resize(800, 300);
    lanes.setSnapshot(snap);
    lanes.show();
    lanes.refreshNow();
    QVERIFY(!lanes.customPlot()->xAxis->tickLabels());
    QVERIFY(lanes.timeAxisLabel().isEmpty());
    bool said = false;
    for (int i = 0; i < lanes.customPlot()->itemCount(); ++i)
        if (auto *t = qobject_cast<QCPItemText *>(lanes.customPlot()->item(i)); t && t->visible())
            said =
                said
                || t->text().simplified().startsWith(QStringLiteral("A closed loop keeps each governor's totals only"));
    QVERIFY(said);
    // The note was one line, centred, and a narrow plot cut it at both ends: every line of it
    // now fits in the frame.
    lanes.resize(420, 300);
    lanes.refreshNow();
    const int frame = lanes.customPlot()->axisRect()->width();
    for (int i = 0; i < lanes.customPlot()->itemCount(); ++i)
        if (auto *t = qobject_cast<QCPItemText *>(lanes.customPlot()->item(i)); t && t->visible()) {
            QVERIFY(t->text().contains(QLatin1Char('\n')));
            for (const QString &line : t->text().split(QLatin1Char('\n')))
                QVERIFY2(QFontMetrics(t->font()).horizontalAdvance(line) <= frame,
                         qPrintable(QStringLiteral("%1 > %2: %3")
                                        .arg(QFontMetrics(t->font()).horizontalAdvance(line))
                                        .arg(frame)
                                        .arg(line)));
        }
    // The playback label said "whole run, 1 ns" (the loop's placeholder range) as if it were a
    // duration; it says there is no timeline, and an open-loop run's label is back below.
    PlaybackBar bar(&view);
    bar.setSnapshot(snap);
    QCOMPARE(bar.timeText(), QStringLiteral("closed loop: totals only, no timeline"));
    // An open-loop run has its time axis back.
    ScenarioSpec open = closedLoopScenario(QString());
    open.workload = defaultScenario().workload;
    const SnapshotPtr replayed = test::simulateOnce(open);
    view.setFullRange(0, replayed->durationNs());
    lanes.setSnapshot(replayed);
    lanes.refreshNow();
    QVERIFY(lanes.customPlot()->xAxis->tickLabels());
    QVERIFY(!lanes.timeAxisLabel().isEmpty());
    bar.setSnapshot(replayed);
    QVERIFY2(bar.timeText().startsWith(QStringLiteral("whole run, "))
                 && !bar.timeText().endsWith(QStringLiteral(" 1 ns")),
             qPrintable(bar.timeText()));
}

void TestClosedLoopGui::runsOnTheWorkerWithProgressAndCancel()
{
    SimulationRunner runner;
    QSignalSpy ready(&runner, &SimulationRunner::snapshotReady);
    QSignalSpy failed(&runner, &SimulationRunner::runFailed);
    runner.requestNow(closedLoopScenario(QStringLiteral("pingpong:work_us=15,ops=2000")));
    // requestNow returned without the snapshot: the loops run on the worker. (isBusy() was
    // asked here, and failed under a loaded machine when the worker finished first.)
    QCOMPARE(ready.count(), 0);
    QVERIFY(ready.wait(20000));
    QCOMPARE(failed.count(), 0);
    const auto snap = ready.at(0).at(0).value<std::shared_ptr<const SimulationSnapshot>>();
    QCOMPARE(snap->governorCount(), 3);
    QCOMPARE(snap->governors[0].closedLoop->operations, std::int64_t(2000));
    // A long loop (ten million round trips): its progress shows, and Cancel stops it.
    runner.requestNow(closedLoopScenario(QStringLiteral("pingpong:work_us=15,ops=10000000")));
    bool moved = false;
    for (int i = 0; i < 200 && !moved; ++i) {
        QTest::qWait(20);
        for (const JobProgress::Governor &g : runner.progress())
            moved = moved || g.fraction > 0;
    }
    QVERIFY(moved);
    const auto names = runner.progress();
    QCOMPARE(int(names.size()), 3);
    QCOMPARE(names[0].variant, std::string("menu-6.14"));
    runner.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 10000);
    QCOMPARE(ready.count(), 1);  // no snapshot of the cancelled loop
    QCOMPARE(failed.count(), 0); // and no error either
}

void TestClosedLoopGui::specPageCommitsAClosedLoop()
{
    WorkloadSpecPage page;
    QSignalSpy changed(&page, &WorkloadSpecPage::valuesChanged);
    page.loopBox()->setCurrentIndex(page.loopBox()->findData(QStringLiteral("closed")));
    QCOMPARE(changed.count(), 1); // the closed loop's starting text parses: simulated at once
    const WorkloadSourceSpec v = page.workload();
    QCOMPARE(v.kind, WorkloadKind::ClosedLoop);
    QCOMPARE(v.text, std::string("io:service_us=50,work_us=10,iodepth=1,ops=10000")); // the starting text
    // Core's parser judges the text: a missing work_us is refused with its field.
    page.field()->setText(QStringLiteral("io:service_us=50"));
    QTest::keyClick(page.field(), Qt::Key_Return);
    QCOMPARE(page.message(), QStringLiteral("work_us: give the CPU's work per operation (> 0 us)"));
    QCOMPARE(page.workload().text, v.text);
    // A spec-grammar text is no closed loop (core's message names the model it found).
    QCOMPARE(closedLoopRefusal(QStringLiteral("periodic:interval_us=100")),
             QStringLiteral("periodic: unknown closed-loop model (io, pingpong)"));
    // Back to the open loop: its own text again, a Spec.
    page.loopBox()->setCurrentIndex(page.loopBox()->findData(QStringLiteral("open")));
    QCOMPARE(page.workload().kind, WorkloadKind::Spec);
    QVERIFY(QString::fromStdString(page.workload().text).contains(QStringLiteral("periodic")));
}

void TestClosedLoopGui::openLoopHasNoClosedLoopCells()
{
    ScenarioSpec open = closedLoopScenario(QString());
    open.workload = defaultScenario().workload;
    const SnapshotPtr snap = test::simulateOnce(open);
    QVERIFY(snap);
    QVERIFY(!snap->isClosedLoop());
    ComparisonView view;
    view.setSnapshot(snap);
    const QAbstractItemModel *model = view.tableView()->model();
    QCOMPARE(model->index(0, Col::OpsColumn).data().toString(), QStringLiteral("\u2014"));
    QVERIFY(view.tableView()->isColumnHidden(Col::OpsColumn));
    QVERIFY(view.tableView()->isColumnHidden(Col::AddedP99Column));
    // What is shown is what is exported: no closed-loop columns for a replayed stream.
    QVERIFY(!view.csv().contains(QStringLiteral("ops_per_s")));
    view.setSnapshot(test::simulateOnce(closedLoopScenario(QStringLiteral("pingpong:work_us=15,ops=500"))));
    QVERIFY(!view.tableView()->isColumnHidden(Col::OpsColumn));
    QVERIFY(view.traceNoteText().contains(QStringLiteral("Closed loop")));
    const QString csv = view.csv();
    QVERIFY2(csv.contains(QStringLiteral(",wakeups_per_s,idle_energy_J,ops_per_s,added_latency_mean_us,"
                                         "added_latency_p99_us,")),
             qPrintable(csv));
}

void TestClosedLoopGui::junoLoopHasTheCliEnergyOverItsWindow()
{
    // A teacher's finding: on the built-in arm-juno-r0 table the window's closed loop said "no
    // power data" and showed only idle_energy_J, each run over its own time, while
    // `compare --machine juno-r0 --closed-loop` priced every governor with LISA's model over the
    // slowest run's time. The window now runs the board (the loop on CPU 0, the other 5 running compare's default background, its clusters' powers) and
    // shows core's cells; every one is compared with the command line's.
    const QString loop = QStringLiteral("io:service_us=1000,work_us=10,ops=300");
    ScenarioSpec spec = closedLoopScenario(loop);
    spec.target.kind = TargetKind::Builtin;
    spec.target.id = QStringLiteral("arm-juno-r0");
    spec.target.table = *builtinTable(spec.target.id);
    const SnapshotPtr snap = test::simulateOnce(spec);
    QVERIFY(snap && snap->isClosedLoop());
    const auto cli =
        test::cliCsvRows({QStringLiteral("compare"), QStringLiteral("--machine"), QStringLiteral("juno-r0"),
                          QStringLiteral("--closed-loop"), loop, QStringLiteral("--governors"),
                          QStringLiteral("menu-6.14,teo-6.14,ladder-latest"), QStringLiteral("--seed"),
                          QStringLiteral("3"), QStringLiteral("--format"), QStringLiteral("csv")},
                         1);
    QCOMPARE(cli.size(), 3);
    ComparisonTableModel model;
    model.setSnapshot(snap);
    QVERIFY(model.columnApplies(Col::LoopEnergyColumn) && model.columnApplies(Col::LoopEnergyPerOpColumn));
    double slowestMs = 0;
    for (int g = 0; g < 3; ++g) {
        const QMap<QString, QString> row = cli.value(QString::fromUtf8(GOVERNORS[g]));
        QCOMPARE(model.index(g, Col::EnergyColumn).data().toString(), row.value(QStringLiteral("idle_energy_J")));
        QCOMPARE(model.index(g, Col::LoopEnergyColumn).data().toString(), row.value(QStringLiteral("energy_J")));
        QCOMPARE(model.index(g, Col::LoopEnergyPerOpColumn).data().toString(),
                 row.value(QStringLiteral("energy_per_op_uJ")));
        QVERIFY(row.value(QStringLiteral("energy_J")).toDouble() > 0);
        slowestMs = std::max(slowestMs, row.value(QStringLiteral("duration_ms")).toDouble());
    }
    // The window is said: the CLI's slowest duration_ms, on CPU 0 of the board's 6.
    const QString window = QString::number(slowestMs, 'f', 3) + QStringLiteral(" ms");
    ComparisonView view;
    view.setSnapshot(snap);
    QVERIFY2(view.traceNoteText().contains(
                 QStringLiteral("Rows: CPUs 0, 1, 2, 3, 4, 5 of 6 summed; energy over the slowest run's ") + window),
             qPrintable(view.traceNoteText()));
    // So do the exports' heads, beside compare's column names.
    const QString csv = view.csv();
    QVERIFY2(csv.contains(
                 QStringLiteral(
                     "# Rows: whole-run totals; CPUs 0, 1, 2, 3, 4, 5 of 6 summed; energy over the slowest run's ")
                 + window),
             qPrintable(csv));
    QVERIFY2(csv.contains(QStringLiteral(",idle_energy_J,ops_per_s,added_latency_mean_us,added_latency_p99_us,energy_J,"
                                         "energy_per_op_uJ,usage_WFI,usage_cpu-sleep-0,usage_cluster-sleep-0\n")),
             qPrintable(csv));
    // The Trade-off's energy panel draws energy_J and says over what.
    TradeoffView tradeoff(&model);
    tradeoff.resize(1200, 300);
    tradeoff.refreshNow();
    QVERIFY2(tradeoff.panelTitle(TradeoffView::Energy).startsWith(QStringLiteral("energy over the slowest run's ")),
             qPrintable(tradeoff.panelTitle(TradeoffView::Energy)));
    for (int g = 0; g < 3; ++g)
        QCOMPARE(tradeoff.barValue(TradeoffView::Energy, g),
                 model.index(g, Col::LoopEnergyColumn).data(Qt::EditRole).toDouble());
    // A user's finding: the header kept "No power data \u2014 how to add it" beside these filled
    // energy columns. Every row is priced by the board's clusters: no link.
    QVERIFY(!model.lacksPowerData());
    QVERIFY(!view.powerLink()->isVisibleTo(&view));
    // And the header said "CPUs 0..5 of 6 summed" with no word of the background that CPUs 1..5
    // ran (the board's 6 CPUs less the loop's one: CPUs 1..5), which compare prints on stderr.
    const test::CliResult r = test::runCli({QStringLiteral("compare"), QStringLiteral("--machine"),
                                            QStringLiteral("juno-r0"), QStringLiteral("--closed-loop"), loop,
                                            QStringLiteral("--governors"), QStringLiteral("menu-6.14")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("compare: CPUs 1..5 run the background 'idle'\n")), qPrintable(r.err));
    QCOMPARE(snap->closedLoopBackground, QStringLiteral("CPUs 1..5 run the background 'idle'"));
    QVERIFY2(view.traceNoteText().endsWith(QStringLiteral(" CPUs 1..5 run the background 'idle'.")),
             qPrintable(view.traceNoteText()));
    QVERIFY2(csv.contains(QStringLiteral("\n# CPUs 1..5 run the background 'idle'\n")), qPrintable(csv));
    // Copy as command names the board, the command whose numbers these are (--table
    // arm-juno-r0 runs the loop's CPU alone, with no background and no power data).
    const CompareCommand c = compareCommand(spec, QString());
    QVERIFY2(c.text.contains(QStringLiteral(" --machine juno-r0 ")) && !c.args.contains(QStringLiteral("--table")),
             qPrintable(c.text));
    QStringList args = c.args.mid(1); // after "compare", which cliCsvRows puts first
    args.prepend(QStringLiteral("compare"));
    args << QStringLiteral("--format") << QStringLiteral("csv");
    QCOMPARE(test::cliCsvRows(args, 1), cli);
    // A table file without power data: every energy cell reads "no power data", and the link shows.
    ScenarioSpec bare = closedLoopScenario(loop);
    bare.target = test::fileTarget(test::kitDir() + QStringLiteral("/tables/pseries-p10.json"));
    const SnapshotPtr unpriced = test::simulateOnce(bare);
    QVERIFY(unpriced);
    view.setSnapshot(unpriced);
    QVERIFY(view.powerLink()->isVisibleTo(&view));
    QVERIFY(view.tableView()
                ->model()
                ->index(0, Col::EnergyColumn)
                .data()
                .toString()
                .contains(QStringLiteral("no power data")));
    // An open-loop run on the same built-in table stays one CPU of an unknown cluster, with no
    // power data, as compare --table arm-juno-r0 prints it (tst_cpu_lanes noPowerDataOpensWhereItIsSet).
}

void TestClosedLoopGui::ioProgressCountsEveryJob()
{
    // A user's finding: io:device=emmc,work_us=8,numjobs=4096 showed "menu-6.14 2867 %": the
    // loop counts the operations of all its jobs, the progress counted up to one job's ops.
    // Here 4 jobs of 4096 operations: 4 x 4096 = 16384 in all, the last look at 16384
    // (a multiple of CLOSED_LOOP_POLL_OPS, 4096): done / total = 16384 / 16384 = 1 (it was
    // 16384 / 4096 = 4, "400 %").
    const ScenarioSpec spec = closedLoopScenario(QStringLiteral("io:service_us=50,work_us=8,numjobs=4,ops=4096"));
    const std::atomic<bool> cancel{false};
    JobProgress progress;
    const SnapshotBuild build = buildSnapshot(spec, nullptr, cancel, &progress);
    QVERIFY2(build.snapshot, qPrintable(build.error));
    QCOMPARE(build.snapshot->governors[0].closedLoop->operations, std::int64_t(16384));
    const std::vector<JobProgress::Governor> shown = progress.snapshot();
    QCOMPARE(int(shown.size()), 3);
    for (const JobProgress::Governor &g : shown)
        QCOMPARE(g.fraction, 1.0);
}

void TestClosedLoopGui::junoRefusesALoopWiderThanTheBoard()
{
    // A user's finding: compare --machine juno-r0 refuses numjobs=4096 (the board has 6 CPUs),
    // while the window ran it on a 4096-CPU machine of the table for a very long time. The
    // window now refuses it at once with the command line's words.
    const QString loop = QStringLiteral("io:device=emmc,work_us=8,numjobs=4096");
    ScenarioSpec spec = closedLoopScenario(loop);
    spec.target.kind = TargetKind::Builtin;
    spec.target.id = QStringLiteral("arm-juno-r0");
    spec.target.table = *builtinTable(spec.target.id);
    const std::atomic<bool> cancel{false};
    const SnapshotBuild build = buildSnapshot(spec, nullptr, cancel);
    QVERIFY(!build.snapshot);
    QCOMPARE(build.error,
             QStringLiteral("juno-r0: field 'machine': io:device=emmc,work_us=8,numjobs=4096 needs 4096 CPUs"));
    const test::CliResult r = test::runCli({QStringLiteral("compare"), QStringLiteral("--machine"),
                                            QStringLiteral("juno-r0"), QStringLiteral("--closed-loop"), loop,
                                            QStringLiteral("--governors"), QStringLiteral("menu-6.14")});
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains(QStringLiteral("io:device=emmc,work_us=8,numjobs=4096 needs 4096 CPUs")),
             qPrintable(r.err));
    // As many as the board has (6) still run: the loop on all of them, no background.
    spec.workload.text = "io:device=emmc,work_us=8,numjobs=6,ops=100";
    const SnapshotPtr six = test::simulateOnce(spec);
    QVERIFY(six && six->isClosedLoop());
    QCOMPARE(six->closedLoopMachine->cpuCount(), 6);
    QCOMPARE(six->closedLoopBackground, QString());
}

void TestClosedLoopGui::emptyStatisticsAndCpusSayWhy()
{
    // A user's finding: "Misses per state", "Idle time per state" and the CPUs dock were empty
    // for a closed loop with no word of why, while the time plots said it. Each says it now,
    // and says nothing for an open loop, whose entries they count.
    const SnapshotPtr loop = test::simulateOnce(closedLoopScenario(QStringLiteral("pingpong:work_us=15,ops=500")));
    QVERIFY(loop && loop->isClosedLoop());
    ScenarioSpec open = closedLoopScenario(QString());
    open.workload = defaultScenario().workload;
    const SnapshotPtr replayed = test::simulateOnce(open);
    QVERIFY(replayed && !replayed->isClosedLoop());
    ViewState view;
    view.setFullRange(0, replayed->durationNs());
    MissHistogramPlot misses(&view);
    TimeSharePlot shares(&view);
    for (CountsPlot *p : std::initializer_list<CountsPlot *>{&misses, &shares}) {
        p->resize(500, 300);
        p->show();
        p->setSnapshot(loop);
        p->refreshNow();
        QCOMPARE(p->emptyText(), CountsPlot::closedLoopText());
        bool shown = false; // the item on the plot, wrapped to its width
        for (int i = 0; i < p->customPlot()->itemCount(); ++i)
            if (auto *t = qobject_cast<QCPItemText *>(p->customPlot()->item(i)); t && t->visible())
                shown = shown
                        || t->text().simplified().startsWith(
                            QStringLiteral("A closed loop keeps its counters, not its entries"));
        QVERIFY(shown);
        p->setSnapshot(replayed);
        p->refreshNow();
        QCOMPARE(p->emptyText(), QString());
    }
    CpuLanesView cpus;
    QVERIFY(cpus.statusText().startsWith(QStringLiteral("Open a kernel trace")));
    cpus.setSnapshot(loop);
    QVERIFY2(cpus.statusText().startsWith(QStringLiteral("A closed loop keeps its counters, not its entries")),
             qPrintable(cpus.statusText()));
    cpus.setSnapshot(replayed);
    QCOMPARE(cpus.statusText(), QStringLiteral("Open a kernel trace to see every CPU."));
}

QTEST_MAIN(TestClosedLoopGui)
// Copy as command for a closed loop with a second instance of menu-6.14 at INTERVALS=4:
// compare refused both the command's --iterations ("a machine compare runs once") and the
// label; the pasted line now runs and gives the window's ops/s per instance.
void TestClosedLoopGui::copiedCommandOfAnABLoopRuns()
{
    const QString loop = QStringLiteral("pingpong:work_us=15,ops=2000");
    ScenarioSpec spec = closedLoopScenario(loop);
    GovernorSpec b{"menu-6.14", {{"INTERVALS", 4}}, QColor(Qt::darkRed)};
    b.label = "m4";
    spec.governors.push_back(b);
    const SnapshotPtr snap = test::simulateOnce(spec);
    QVERIFY(snap && snap->errors.isEmpty());
    ComparisonTableModel model;
    model.setSnapshot(snap);
    QCOMPARE(model.rowCount(), 4);

    const CompareCommand c = compareCommand(spec, test::powerTablePath());
    QVERIFY2(!c.args.contains(QStringLiteral("--iterations")), qPrintable(c.text));
    QVERIFY2(c.args.join(QLatin1Char(' ')).contains(QStringLiteral("m4=menu-6.14")), qPrintable(c.text));
    QStringList args = c.args;
    args << QStringLiteral("--format") << QStringLiteral("csv");
    const test::CliResult r = test::runCli(args);
    QVERIFY2(r.exitCode == 0, qPrintable(c.text + QLatin1Char('\n') + r.err));
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    const QStringList header = lines[0].split(QLatin1Char(','));
    const qsizetype ops = header.indexOf(QStringLiteral("ops_per_s"));
    QVERIFY(ops > 0);
    for (int row = 0; row < 4; ++row) {
        const QStringList cells = lines[row + 1].split(QLatin1Char(','));
        QCOMPARE(cells[0], model.index(row, Col::GovColumn).data(Qt::EditRole).toString());
        QCOMPARE(cells[ops], model.index(row, Col::OpsColumn).data().toString());
    }
    // The two menu-6.14 instances differ only in INTERVALS; the rows are told apart by name.
    QCOMPARE(lines[4].section(QLatin1Char(','), 0, 0), QStringLiteral("m4"));
}

#include "tst_closed_loop_gui.moc"
