// SPDX-License-Identifier: GPL-3.0-or-later
// The Sweep tab, offscreen: a 3-point sweep of the workload's mean idle time
// gives per point and governor exactly the counts of `idlescope-cli compare`
// with the same '/'-list sweep (run as a process); Cancel stops a long sweep
// before its end, with no figure from it; clicking the marker of point 2
// makes that point the current scenario (the workload parameter at its value).
// IDLESCOPE_SWEEP_SCREENSHOT=FILE also saves the tab as a PNG to look at.
#include "../cli_process.h"
#include "poisson_scenario.h"
#include "widgets/export/compare_command.h"
#include "widgets/export/figure_export.h"
#include "widgets/main_window.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/sweep/sweep_plot.h"
#include "widgets/sweep/sweep_view.h"
#include "window_fixture.h"
#include "workload_param.h"

#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;

namespace {

constexpr int TIMEOUT_MS = test::WINDOW_TIMEOUT_MS;

SweepAxisChoice meanAxis()
{
    SweepAxisChoice a;
    a.param = QStringLiteral("mean_us");
    return a;
}

} // namespace

class TestSweepView : public QObject {
    Q_OBJECT
private slots:
    void threePointSweepEqualsCompareAndOpensPoint2();
    void cancelStopsTheSweep();

private:
    test::IsolatedSettings m_settings;
};

void TestSweepView::threePointSweepEqualsCompareAndOpensPoint2()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, TIMEOUT_MS));
    const SnapshotPtr snap = test::nextSnapshot(w, [&] { w.applySpec(test::poissonScenario(5000, 5)); });
    QVERIFY(snap);
    SweepView *v = w.sweepView();
    w.findChild<QDockWidget *>(QStringLiteral("sweepDock"))->raise();
    QCOMPARE(workloadKindName(v->requestFromControls().scenario.workload),
             QStringLiteral("poisson")); // the tab follows

    // 50, 150, 450 us: three log steps (150 = sqrt(50 x 450)).
    v->setControls(meanAxis(), 50, 450, 3, true);
    QCOMPARE(v->requestFromControls().values, (std::vector<qint64>{50000, 150000, 450000}));
    QSignalSpy finished(v, &SweepView::finished);
    v->startFromControls();
    QVERIFY(v->isRunning());
    QVERIFY(finished.wait(TIMEOUT_MS * 3));
    QVERIFY(!v->isRunning());
    const SweepResult &r = v->result();
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.pointCount(), 3);
    QCOMPARE(v->unitsDone(), 3);
    QCOMPARE(r.governors, (std::vector<std::string>{"menu-6.14", "teo-6.14"}));
    QVERIFY2(r.workloadText.contains(QStringLiteral("mean_us=50/150/450")), qPrintable(r.workloadText));

    // The same sweep from the command line: the window's command with the sweep's workload spec.
    QStringList args = compareCommand(snap->spec).args;
    args[args.indexOf(QStringLiteral("--workload")) + 1] = r.workloadText;
    args << QStringLiteral("--format") << QStringLiteral("json");
    const test::CliResult cli = test::runCli(args);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
    const QJsonArray points =
        QJsonDocument::fromJson(cli.out.toUtf8()).object().value(QStringLiteral("points")).toArray();
    QCOMPARE(points.size(), 3);
    for (int p = 0; p < 3; ++p) {
        const QJsonArray govs = points[p].toObject().value(QStringLiteral("governors")).toArray();
        QCOMPARE(govs.size(), 2);
        for (int g = 0; g < 2; ++g) {
            QCOMPARE(govs[g].toObject().value(QStringLiteral("governor")).toString(),
                     QString::fromStdString(r.governors[static_cast<std::size_t>(g)]));
            const QJsonObject run = govs[g].toObject().value(QStringLiteral("runs")).toArray().at(0).toObject();
            const experiments::RunMetrics &m = r.compare.at(p, g, 0);
            QCOMPARE(m.entries, run.value(QStringLiteral("entries")).toInteger());
            QCOMPARE(m.above, run.value(QStringLiteral("above")).toInteger());
            QCOMPARE(m.below, run.value(QStringLiteral("below")).toInteger());
            QVERIFY(m.spans == 5000);
            // What is plotted is core's column of those counts: above % and below % of entries,
            // misses / entries.
            QCOMPARE(r.value(0, g, p), 100.0 * double(m.above) / double(m.entries));
            QCOMPARE(r.value(1, g, p), 100.0 * double(m.below) / double(m.entries));
            QCOMPARE(r.value(2, g, p), double(m.above + m.below) / double(m.entries));
        }
    }
    // The figure's caption names the swept values, never the scenario's fixed mean (issue 33:
    // "interval 100 us" over a sweep of the interval).
    const QStringList context = v->caption().context;
    const QStringList workloadLines = context.filter(QRegularExpression(QStringLiteral("^Workload: ")));
    QCOMPARE(workloadLines.size(), 1);
    QVERIFY2(workloadLines[0].contains(QStringLiteral("mean_us=50/150/450"))
                 && workloadLines[0].endsWith(QStringLiteral(", mean_us swept")),
             qPrintable(workloadLines[0]));
    const QString fixed = describeWorkload(r.request.scenario.workload); // "… mean 150 µs …"
    QVERIFY2(!context.join(QLatin1Char('\n')).contains(fixed), qPrintable(context.join(QLatin1Char('|'))));
    // A sweep that shows something: Poisson wakeups make menu miss at every mean.
    QVERIFY(r.compare.at(1, 0, 0).above + r.compare.at(1, 0, 0).below > 0);

    if (const QByteArray shot = qgetenv("IDLESCOPE_SWEEP_SCREENSHOT"); !shot.isEmpty()) {
        // The figure at a size to look at (the tab shares the bottom dock with the table).
        SweepPlot big;
        big.resize(1000, 640);
        big.setResult(r, true);
        big.refreshNow();
        QVERIFY(big.grab().save(QString::fromLocal8Bit(shot)));
        v->plot()->refreshNow();
        QVERIFY(w.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral(".window.png")));
    }

    // Click point 2 (150 us) on menu's miss-ratio marker: it becomes the scenario.
    ScenarioSpec moved = test::poissonScenario(5000, 5);
    moved.workload = test::withWorkloadParam(moved.workload, "mean_us", 90000);
    QVERIFY(test::nextSnapshot(w, [&] { w.applySpec(moved); })); // away from 150 us first
    QDockWidget *dock = w.findChild<QDockWidget *>(QStringLiteral("sweepDock"));
    w.resizeDocks({dock}, {480}, Qt::Vertical);
    QTest::qWait(50);
    v->plot()->refreshNow();
    const QPointF at = v->plot()->markerPixel(2, 0, 1);
    QVERIFY2(v->plot()->customPlot()->rect().contains(at.toPoint()), "the marker is on the plot");
    const SnapshotPtr opened =
        test::nextSnapshot(w, [&] { QTest::mouseClick(v->plot()->customPlot(), Qt::LeftButton, {}, at.toPoint()); });
    QVERIFY(opened);
    QCOMPARE(test::workloadParam(opened->spec.workload, "mean_us"), qint64(150000));
    QCOMPARE(test::workloadParam(w.currentSpec().workload, "mean_us"), qint64(150000));
    QVERIFY(w.isWindowModified());
}

void TestSweepView::cancelStopsTheSweep()
{
    MainWindow w;
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, TIMEOUT_MS));
    SweepView *v = w.sweepView();
    SweepRequest rq;
    rq.scenario = test::poissonScenario(400000, 5);
    rq.axis = meanAxis();
    rq.values = sweepValues(5000, 500000, 64, true);
    QCOMPARE(int(rq.values.size()), 64);
    QSignalSpy finished(v, &SweepView::finished);
    v->start(rq, true);
    QVERIFY(v->isRunning());
    // Cancel once the sweep is under way (a value done), as a user would.
    QVERIFY(QTest::qWaitFor([&] { return v->unitsDone() >= 1; }, TIMEOUT_MS));
    v->cancel();
    QVERIFY(finished.wait(TIMEOUT_MS));
    QVERIFY(v->result().cancelled);
    QVERIFY(!v->result().ok());
    // Stopped: the 2 threads had at most a few of the 64 units under way.
    QVERIFY2(v->unitsDone() < 64, qPrintable(QString::number(v->unitsDone())));
    QVERIFY2(v->statusText().startsWith(QStringLiteral("Cancelled")), qPrintable(v->statusText()));
    QVERIFY(!v->plot()->result().ok()); // no figure from a cancelled sweep
}

QTEST_MAIN(TestSweepView)
#include "tst_sweep_view.moc"
