// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 32 §1 in the window: the Target group chooses a wult CSV of measured wake delays
// (compare --wake-delays) and shows, state by state, the wake delay and entry cost in force
// and where each comes from. The file re-simulates like any other edit (undo, redo, the
// title's "*"), goes into Copy as command and into a session, and a file that does not read
// is reported naming its line and column, the scenario on screen kept.
#include "tests/test_paths.h"
#include "tests/widgets/runner_fixture.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/export/scenario_context.h"
#include "widgets/main_window.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/panels/target_picker.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_runner.h"
#include "window_fixture.h"

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include <cmath>

using namespace idlescope;

namespace {

using Col = ComparisonTableModel::Column;
using test::nextSnapshot;

// The scenario: the test power table (snooze, CEDE: exit latency 12 us, 500 mW, 5 uJ per
// entry and exit; running 4000 mW), IPI wakeups every 1000 us, 2000 spans, the oracle (it
// sleeps in CEDE through every 1000 us span) and menu-6.14.
constexpr qint64 SPANS = 2000;
constexpr const char *WORKLOAD = "periodic:kind=ipi,interval_us=1000";

bool write(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

ScenarioSpec powerScenario()
{
    ScenarioSpec s;
    s.target = test::fileTarget(test::powerTablePath());
    s.workload = WorkloadSourceSpec(WorkloadKind::Spec);
    s.workload.text = WORKLOAD;
    s.workload.spans = SPANS;
    for (const char *g : {"oracle", "menu-6.14"})
        s.governors.push_back({g, {}, QColor(Qt::red)});
    return s;
}

/// The comparison table's cell of governor @p gov in @p column (raw value).
QVariant cell(MainWindow &w, const char *gov, int column)
{
    const ComparisonTableModel *m = w.comparison()->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, Col::GovColumn).data(Qt::EditRole).toString() == QLatin1String(gov))
            return m->index(r, column).data(Qt::EditRole);
    return {};
}

/// The tooltip of that cell (the energy's says the energy with the busy time, energy_J).
QString tip(MainWindow &w, const char *gov, int column)
{
    const ComparisonTableModel *m = w.comparison()->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, Col::GovColumn).data(Qt::EditRole).toString() == QLatin1String(gov))
            return m->index(r, column).data(Qt::ToolTipRole).toString();
    return {};
}

/// The Target table's column titled @p title (its first line).
int column(QTableWidget *t, const QString &title)
{
    for (int c = 0; c < t->columnCount(); ++c)
        if (t->horizontalHeaderItem(c)->text().section(QLatin1Char('\n'), 0, 0) == title)
            return c;
    return -1;
}

} // namespace

class TestWakeDelaysGui : public QObject {
    Q_OBJECT
private slots:
    void measuredFileChangesTheComparison();
    void tableShowsEachWakeDelayAndItsSource();
    void wakeDelayAndEntryCostAreEditable();

private:
    test::IsolatedSettings m_settings;
};

void TestWakeDelaysGui::measuredFileChangesTheComparison()
{
    QTemporaryDir dir;
    // Two samples of CEDE: a wake delay of (4 + 6) / 2 = 5 us instead of the table's 12 us exit latency.
    const QString wult = dir.filePath(QStringLiteral("datapoints.csv"));
    QVERIFY(write(wult, "SilentTime,WakeLatency,ReqCState\n900,4,CEDE\n900,6,CEDE\n"));
    const QString session = dir.filePath(QStringLiteral("s.idlescope"));

    MainWindow w;
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, test::WINDOW_TIMEOUT_MS));
    // The scenario as a session opened: the start of the undo history.
    QVERIFY(nextSnapshot(w, [&] { w.applySpec(powerScenario()); }));
    QCOMPARE(w.saveSessionTo(session), QString());
    QVERIFY(nextSnapshot(w, [&] { QCOMPARE(w.openSession(session), QString()); }));
    QVERIFY(!w.isWindowModified());
    TargetPicker *picker = w.setupPanel()->targetPicker();

    // Without the file: every oracle entry is CEDE and ends by an IPI, each costing the 12 us exit latency.
    QCOMPARE(cell(w, "oracle", Col::LatencyCostColumn).toLongLong(), SPANS * 12); // us, as the CLI's latency_cost_us
    // 2000 wakeups in 2000 x 1017 us; energy 1.01 J + 2000 x 17 us x 4000 mW (see below).
    QVERIFY(std::abs(cell(w, "oracle", Col::ThroughputColumn).toDouble() - 2000 / 2.034) < 1e-9);
    QVERIFY2(tip(w, "oracle", Col::EnergyColumn).endsWith(QStringLiteral("active power 1.146 J")),
             qPrintable(tip(w, "oracle", Col::EnergyColumn)));

    const SnapshotPtr s = nextSnapshot(w, [&] { picker->chooseWakeDelaysFile(wult); });
    QVERIFY(s);
    QVERIFY2(s->errors.isEmpty(), qPrintable(s->errors.join(QLatin1Char('\n'))));
    QCOMPARE(s->spec.wakeDelaysPath, wult);
    QCOMPARE(s->table[1].exitLatencyNs, Ns(12000)); // what the governors read, unchanged
    QCOMPARE(s->table[1].wakeDelayNs, Ns(5000));
    // The Target group's wake-up table says it, from the run that read the file.
    auto *wakeUp = picker->findChild<QTableWidget *>(QStringLiteral("wakeTable"));
    QVERIFY(wakeUp);
    QCOMPARE(wakeUp->item(1, column(wakeUp, QStringLiteral("Wake")))->text(), QStringLiteral("5"));
    QCOMPARE(wakeUp->item(1, column(wakeUp, QStringLiteral("From")))->text(), QStringLiteral("wult"));
    QCOMPARE(wakeUp->item(0, column(wakeUp, QStringLiteral("From")))->text(), QStringLiteral("exit")); // snooze
    QCOMPARE(picker->findChild<QLabel *>(QStringLiteral("wakeDelaysFile"))->text(), QStringLiteral("datapoints.csv"));
    // By hand: 2000 entries, each woken in the measured 5 us; each span is 1000 us idle + 5 us
    // of run (the generator's run_us) + the wake delay, so the run lasts 2000 x 1010 us (2034 ms
    // with the 12 us exit latency); its energy is the idle 2000 x (1000 us x 500 mW + 5 uJ) =
    // 1.01 J, unchanged, plus 2000 x (5 + 5) us x 4000 mW of running = 0.08 J (0.136 J before).
    // `idlescope-cli compare --table tests/data/power/pseries-p10-power.json --workload
    // periodic:kind=ipi,interval_us=1000 --spans 2000 --governors oracle,menu-6.14 --throughput
    // --wake-delays datapoints.csv --format csv` prints the same oracle row: latency_cost_us
    // 10000.000, duration_ms 2020.000, wakeups_per_s 990.099, idle_energy_J 1.01, energy_J 1.09
    // (24000.000, 2034.000, 983.284, 1.01, 1.146 without --wake-delays).
    QCOMPARE(cell(w, "oracle", Col::LatencyCostColumn).toLongLong(), SPANS * 5); // us
    QVERIFY(std::abs(cell(w, "oracle", Col::ThroughputColumn).toDouble() - 2000 / 2.020) < 1e-9);
    QVERIFY(std::abs(cell(w, "oracle", Col::EnergyColumn).toDouble() - 1.01) < 1e-9);
    QVERIFY2(tip(w, "oracle", Col::EnergyColumn).endsWith(QStringLiteral("active power 1.09 J")),
             qPrintable(tip(w, "oracle", Col::EnergyColumn)));

    // An edit like any other: the title's "*", one undo step, undone and redone.
    QVERIFY(w.isWindowModified());
    QCOMPARE(w.undoStack()->count(), 1);
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("Choose wake delays"));
    QVERIFY(nextSnapshot(w, [&] { w.undoStack()->undo(); }));
    QCOMPARE(picker->wakeDelaysPath(), QString());
    QCOMPARE(cell(w, "oracle", Col::LatencyCostColumn).toLongLong(), SPANS * 12); // us, as the CLI's latency_cost_us
    QVERIFY(!w.isWindowModified());
    QVERIFY(nextSnapshot(w, [&] { w.undoStack()->redo(); }));
    QCOMPARE(picker->wakeDelaysPath(), wult);
    QCOMPARE(cell(w, "oracle", Col::LatencyCostColumn).toLongLong(), SPANS * 5); // us

    // Copy as command names the file (core/scenario/scenario_command.h spells it).
    const QString command = w.copyAsCommand();
    QVERIFY2(command.contains(QStringLiteral("--wake-delays ") + wult), qPrintable(command));

    // A session keeps it: another window opens it with the file chosen.
    QCOMPARE(w.saveSessionTo(session), QString());
    {
        MainWindow other;
        QVERIFY(QTest::qWaitFor([&] { return other.snapshot() != nullptr; }, test::WINDOW_TIMEOUT_MS));
        const SnapshotPtr opened = nextSnapshot(other, [&] { QCOMPARE(other.openSession(session), QString()); });
        QVERIFY(opened);
        QCOMPARE(other.setupPanel()->targetPicker()->wakeDelaysPath(), wult);
        QCOMPARE(opened->table[1].wakeDelayNs, Ns(5000));
    }

    // A file that does not read: its error names the file, the line and the column, and the
    // scenario on screen (the measured file before it) stays, in the panels too.
    const QString bad = dir.filePath(QStringLiteral("bad.csv"));
    QVERIFY(write(bad, "WakeLatency,ReqCState\n4,CEDE\nfast,CEDE\n"));
    QSignalSpy failed(w.runner(), &SimulationRunner::runFailed);
    picker->chooseWakeDelaysFile(bad);
    QVERIFY(failed.wait(test::WINDOW_TIMEOUT_MS));
    const QString shown = w.messageBar()->text();
    QVERIFY2(shown.contains(bad + QStringLiteral(":3")) && shown.contains(QStringLiteral("WakeLatency"))
                 && shown.contains(QStringLiteral("fast is not a latency")),
             qPrintable(shown));
    QCOMPARE(picker->wakeDelaysPath(), wult);
    QCOMPARE(w.currentSpec().wakeDelaysPath, wult);
    // A state the table does not have is refused by the file's name and the column.
    const QString other = dir.filePath(QStringLiteral("skx.csv"));
    QVERIFY(write(other, "WakeLatency,ReqCState\n40,C6\n"));
    picker->chooseWakeDelaysFile(other);
    QVERIFY(failed.wait(test::WINDOW_TIMEOUT_MS));
    QVERIFY2(w.messageBar()->text().contains(QStringLiteral("ReqCState"))
                 && w.messageBar()->text().contains(QStringLiteral("no state named C6")),
             qPrintable(w.messageBar()->text()));
    QCOMPARE(picker->wakeDelaysPath(), wult);

    // Clear: the table's own again.
    auto *clear = picker->findChild<QToolButton *>(QStringLiteral("wakeDelaysClear"));
    QVERIFY(clear && clear->isEnabled());
    QVERIFY(nextSnapshot(w, [&] { clear->click(); }));
    QCOMPARE(w.snapshot()->spec.wakeDelaysPath, QString());
    QCOMPARE(cell(w, "oracle", Col::LatencyCostColumn).toLongLong(), SPANS * 12); // us, as the CLI's latency_cost_us
    QVERIFY(!clear->isEnabled());
}

void TestWakeDelaysGui::tableShowsEachWakeDelayAndItsSource()
{
    TargetPicker picker;
    auto *t = picker.findChild<QTableWidget *>(QStringLiteral("wakeTable"));
    QVERIFY(t);
    const int wake = column(t, QStringLiteral("Wake"));
    const int entry = column(t, QStringLiteral("Entry"));
    const int from = column(t, QStringLiteral("From"));
    QVERIFY(wake > 0 && entry > 0 && from > 0);
    auto *file = picker.findChild<QLabel *>(QStringLiteral("wakeDelaysFile"));
    QVERIFY(file);
    QCOMPARE(file->text(), QStringLiteral("the table's own"));

    // rk3399 (docs/workloads.md): WFI none of its own (1 us, its exit latency); cpu-sleep the
    // device tree's 250 us + entry 120 us (exit latency 370 us = their sum); cluster-sleep 500 + 400.
    picker.useTable(QStringLiteral("builtin:arm-rk3399"));
    QCOMPARE(t->item(0, wake)->text(), QStringLiteral("1"));
    QCOMPARE(t->item(0, from)->text(), QStringLiteral("exit"));
    QCOMPARE(t->item(1, wake)->text(), QStringLiteral("250"));
    QCOMPARE(t->item(1, entry)->text(), QStringLiteral("120"));
    QCOMPARE(t->item(1, from)->text(), QStringLiteral("DT"));
    QCOMPARE(t->item(2, wake)->text(), QStringLiteral("500"));
    QCOMPARE(t->item(2, entry)->text(), QStringLiteral("400"));
    QCOMPARE(t->item(2, from)->text(), QStringLiteral("DT"));

    // intel-skx: C6 wakes in the table's documented 92 us (its exit latency, 133 us, has the package's).
    picker.useTable(QStringLiteral("builtin:intel-skx"));
    QCOMPARE(t->item(3, wake)->text(), QStringLiteral("92"));
    QCOMPARE(t->item(3, from)->text(), QStringLiteral("table"));
    QCOMPARE(t->item(2, wake)->text(), QStringLiteral("10")); // C1E: its exit latency
    QCOMPARE(t->item(2, from)->text(), QStringLiteral("exit"));

    // A measured file names C6 only: C6's row is the file's mean, not editable; C1E keeps its own.
    QSignalSpy changed(&picker, &TargetPicker::wakeDelaysChanged);
    picker.chooseWakeDelaysFile(QStringLiteral("/data/skx c6.csv"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(file->text(), QStringLiteral("skx c6.csv"));
    picker.showMeasuredWakeDelays(QStringLiteral("/data/skx c6.csv"), {{"C6", 3, 47500}});
    QCOMPARE(t->item(3, wake)->text(), QStringLiteral("47.5"));
    QCOMPARE(t->item(3, from)->text(), QStringLiteral("wult"));
    QVERIFY(!(t->item(3, wake)->flags() & Qt::ItemIsEditable));
    QVERIFY2(t->item(3, from)->toolTip().contains(QStringLiteral("3 samples")),
             qPrintable(t->item(3, from)->toolTip()));
    QCOMPARE(t->item(2, from)->text(), QStringLiteral("exit"));
    // Another file's states are not this file's.
    picker.showMeasuredWakeDelays(QStringLiteral("/data/other.csv"), {{"C1E", 1, 3000}});
    QCOMPARE(t->item(2, from)->text(), QStringLiteral("exit"));
    // The same file again is no change; a session or an undo showing another emits nothing.
    picker.chooseWakeDelaysFile(QStringLiteral("/data/skx c6.csv"));
    picker.setWakeDelaysPath(QString());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(t->item(3, wake)->text(), QStringLiteral("92"));
    QCOMPARE(file->text(), QStringLiteral("the table's own"));
}

void TestWakeDelaysGui::wakeDelayAndEntryCostAreEditable()
{
    TargetPicker picker;
    picker.useTable(QStringLiteral("builtin:intel-skx"));
    auto *t = picker.findChild<QTableWidget *>(QStringLiteral("wakeTable"));
    const int wake = column(t, QStringLiteral("Wake"));
    const int entry = column(t, QStringLiteral("Entry"));
    const int from = column(t, QStringLiteral("From"));
    QSignalSpy edited(&picker, &TargetPicker::statesEdited);
    QSignalSpy errors(&picker, &TargetPicker::errorOccurred);

    t->item(2, wake)->setText(QStringLiteral("7.5")); // C1E: a wake delay of its own
    QCOMPARE(edited.count(), 1);
    QCOMPARE(picker.target().table[2].wakeDelayNs, Ns(7500));
    QCOMPARE(picker.target().table[2].exitLatencyNs, Ns(10000)); // the governors' figure stays
    QCOMPARE(t->item(2, from)->text(), QStringLiteral("edited"));
    t->item(3, entry)->setText(QStringLiteral("20"));
    QCOMPARE(picker.target().table[3].entryLatencyNs, Ns(20000));
    QCOMPARE(picker.editedStates(),
             QStringList({QStringLiteral("C1E: wake delay 7.5 \u00b5s"), QStringLiteral("C6: entry cost 20 \u00b5s")}));

    // Copy as command and the exports say the table was edited (the command names the file's
    // table, whose wake-ups are not these).
    QCOMPARE(tableEdits(*builtinTable(QStringLiteral("intel-skx")), picker.target().table),
             QStringList({QStringLiteral("C1E wake delay 7.5 \u00b5s (table 10 \u00b5s)"),
                          QStringLiteral("C6 entry cost 20 \u00b5s (table 0 \u00b5s)")}));

    // Refused as a table file's value would be, naming the field; the value in force shown again.
    t->item(3, wake)->setText(QStringLiteral("-3"));
    QCOMPARE(errors.count(), 1);
    QVERIFY2(errors.first().first().toString().contains(QStringLiteral("wake_delay_ns")),
             qPrintable(errors.first().first().toString()));
    QCOMPARE(t->item(3, wake)->text(), QStringLiteral("92"));
    t->item(3, entry)->setText(QStringLiteral("soon"));
    QCOMPARE(errors.count(), 2);
    QVERIFY(errors.last().first().toString().contains(QStringLiteral("entry_latency_ns")));
    QCOMPARE(edited.count(), 2);

    // Emptied: none of the state's own, as a table file without the keys.
    t->item(2, wake)->setText(QString());
    QCOMPARE(picker.target().table[2].wakeDelayNs, NO_WAKE_DELAY);
    QCOMPARE(t->item(2, wake)->text(), QStringLiteral("10"));
    QCOMPARE(t->item(2, from)->text(), QStringLiteral("exit"));
}

QTEST_MAIN(TestWakeDelaysGui)
#include "tst_wake_delays_gui.moc"
