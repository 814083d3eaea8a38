// SPDX-License-Identifier: GPL-3.0-or-later
// Nothing the user did is lost, offscreen: an edit of one state-table cell
// keeps the tick rate chosen; every kind of edit marks the window modified
// (the title's "*") until it is saved; Ctrl+Z / Ctrl+Shift+Z undo and redo
// tick, table, tunable, workload and governor edits; closing a modified
// window asks Save / Discard / Cancel; a window that ends without closing
// leaves a recovery copy that the next window offers and restores.
#include "tests/test_paths.h"
#include "widgets/inspector/episode_inspector.h"
#include "widgets/main_window.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/parameter_row.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/panels/target_picker.h"
#include "widgets/panels/workload_form.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/session/opening_bar.h"
#include "widgets/session/session.h"
#include "widgets/session/session_opener.h"
#include "widgets/session/table_file.h"
#include "widgets/view_state.h"
#include "window_fixture.h"
#include "workload_param.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>

#include <atomic>
#include <memory>

using namespace idlescope;

namespace {
constexpr int TIMEOUT_MS = test::WINDOW_TIMEOUT_MS;

/// Waits for the first snapshot of a new window.
bool firstSnapshot(MainWindow &w)
{
    return QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, TIMEOUT_MS);
}

using test::nextSnapshot;

/// Picks @p hz in the tick-rate control as a user would (the panel's only combo box).
void chooseTick(MainWindow &w, int hz)
{
    auto *combo = w.parameterPanel()->findChild<QComboBox *>();
    QVERIFY(combo);
    combo->setCurrentIndex(combo->findData(hz));
}

/// Types @p us into the exit-latency cell of state @p row, as a double-click edit would.
void editExitLatency(MainWindow &w, int row, const QString &us)
{
    auto *table = w.setupPanel()->findChild<QTableWidget *>();
    QVERIFY(table && table->item(row, 1));
    table->item(row, 1)->setText(us);
}

/// Chooses the entry of combo key @p key ("builtin:ID", "file:PATH") in the Target group, as a user would.
void chooseTable(MainWindow &w, const QString &key)
{
    auto *combo = w.setupPanel()->targetPicker()->findChild<QComboBox *>();
    QVERIFY(combo);
    const int i = combo->findData(key);
    QVERIFY(i >= 0);
    combo->setCurrentIndex(i);
    emit combo->activated(i);
}

/// Clicks the button of the next modal message box that @p pick chooses; its text goes to @p seen.
template <typename Pick>
void answerNextMessageBox(Pick pick, QString *seen = nullptr)
{
    auto *timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, pick, seen] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        timer->stop();
        timer->deleteLater();
        if (seen)
            *seen = box->text();
        if (QAbstractButton *b = pick(*box))
            b->click();
    });
    timer->start();
}

void answer(QMessageBox::StandardButton button, QString *seen = nullptr)
{
    answerNextMessageBox([button](QMessageBox &box) { return box.button(button); }, seen);
}

/// Clicks "Restore" in the next question about unsaved work (its text goes to @p seen).
void answerRestore(QString *seen = nullptr)
{
    answerNextMessageBox(
        [](QMessageBox &box) -> QAbstractButton * {
            for (QAbstractButton *b : box.buttons())
                if (b->text() == QStringLiteral("Restore"))
                    return b;
            return nullptr;
        },
        seen);
}

/// offerRecovery() and its end (the copy is read on the opener's worker): 1 when work was
/// left and restored, 0 when none was restored, -1 when nothing was looked for or it never ended.
int recover(MainWindow &w)
{
    QSignalSpy offered(&w, &MainWindow::recoveryOffered);
    if (!w.offerRecovery())
        return -1;
    if (!offered.wait(TIMEOUT_MS) && offered.isEmpty())
        return -1;
    return offered.first().first().toBool() ? 1 : 0;
}

QAction *editAction(MainWindow &w, const QString &name)
{
    for (QAction *menu : w.menuBar()->actions())
        if (menu->menu())
            for (QAction *a : menu->menu()->actions())
                if (a->text().remove(QLatin1Char('&')).startsWith(name))
                    return a;
    return nullptr;
}
} // namespace

class TestMainWindowEdits : public QObject {
    Q_OBJECT
private slots:
    void stateEditKeepsTheTickRate();
    void editsMarkTheWindowModifiedUntilSaved();
    void undoAndRedoEveryKindOfEdit();
    void closeAsksSaveDiscardOrCancel();
    void recoveryCopyIsOfferedAfterACrash();
    void recoveredSessionKeepsItsName();
    void normalCloseLeavesNoRecoveryCopy();
    void runsReusedAreNotReportedAsASimulation();
    void sliderReleaseSaysWhichGovernorReRan();
    void anotherTableAsksBeforeDroppingEditedStates();
    void aTableFileIsNeverReadOnTheWindowsThread();
    void aRecoveryReadCancelledOrSupersededStillEnds();
    void longSimulationIsMarkedAndCanBeCancelled();
    void nextMissAtWholeRunZoomsToIt();

private:
    test::IsolatedSettings m_settings;
};

void TestMainWindowEdits::stateEditKeepsTheTickRate()
{
    // Audit: Tick rate 250 Hz, then an edit of CEDE's exit latency put 100 Hz (the table's) back.
    MainWindow w;
    QVERIFY(firstSnapshot(w));
    QCOMPARE(w.currentSpec().target.table.tickHz, 100); // POWER10 LPAR table: HZ 100
    QVERIFY(nextSnapshot(w, [&] { chooseTick(w, 250); }));
    QCOMPARE(w.snapshot()->table.tickHz, 250);
    const SnapshotPtr s = nextSnapshot(w, [&] { editExitLatency(w, 1, QStringLiteral("15")); });
    QVERIFY(s);
    QCOMPARE(s->table[1].exitLatencyNs, Ns(15000)); // CEDE: 12 us -> 15 us
    QCOMPARE(s->table.tickHz, 250);
    QCOMPARE(w.parameterPanel()->tickHz(), 250);
    QCOMPARE(w.parameterPanel()->tableTickHz(), 100); // still the table's own
}

void TestMainWindowEdits::editsMarkTheWindowModifiedUntilSaved()
{
    MainWindow w;
    w.show();
    QVERIFY(firstSnapshot(w));
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.windowTitle().contains(QStringLiteral("[*]"))); // Qt draws "*" there when modified
    QVERIFY(nextSnapshot(w, [&] { chooseTick(w, 1000); }));
    QVERIFY(w.isWindowModified());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.idlescope"));
    QCOMPARE(w.saveSessionTo(path), QString());
    QVERIFY(!w.isWindowModified());
    QCOMPARE(w.windowTitle(), QStringLiteral("s.idlescope[*] \u2014 idlescope"));

    // An edit, then its undo: back at the saved scenario, so not modified.
    QVERIFY(nextSnapshot(w, [&] { w.setupPanel()->setGovernorChecked("oracle", false); }));
    QVERIFY(w.isWindowModified());
    QVERIFY(nextSnapshot(w, [&] { w.undoStack()->undo(); }));
    QVERIFY(!w.isWindowModified());

    // A session opened is the saved state: not modified, nothing to undo.
    QVERIFY(nextSnapshot(w, [&] { chooseTick(w, 250); }));
    QVERIFY(w.isWindowModified());
    QVERIFY(nextSnapshot(w, [&] { QCOMPARE(w.openSession(path), QString()); }));
    QVERIFY(!w.isWindowModified());
    QVERIFY(!w.undoStack()->canUndo());
    QCOMPARE(w.currentSpec().target.table.tickHz, 1000);
}

void TestMainWindowEdits::undoAndRedoEveryKindOfEdit()
{
    MainWindow w;
    QVERIFY(firstSnapshot(w));
    const ScenarioSpec start = w.currentSpec();
    // The shortcuts a user expects.
    QAction *undo = editAction(w, QStringLiteral("Undo"));
    QAction *redo = editAction(w, QStringLiteral("Redo"));
    QVERIFY(undo && redo);
    QCOMPARE(undo->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Z));
    QCOMPARE(redo->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));

    // Five edits, one of each kind.
    QVERIFY(nextSnapshot(w, [&] { chooseTick(w, 250); }));
    QVERIFY(nextSnapshot(w, [&] { editExitLatency(w, 1, QStringLiteral("20")); }));
    ParameterRow *row = w.parameterPanel()->row("menu-6.14", QStringLiteral("INTERVALS"));
    QVERIFY(row);
    QVERIFY(nextSnapshot(w, [&] { // typed in the field and committed
        row->field()->setText(QStringLiteral("16"));
        row->field()->setModified(true);
        emit row->field()->editingFinished();
    }));
    QVERIFY(nextSnapshot(w, [&] {
        auto *interval =
            w.setupPanel()->findChild<WorkloadForm *>()->findChild<QDoubleSpinBox *>(); // periodic: interval_us first
        QVERIFY(interval);
        interval->setValue(50);
    }));
    QVERIFY(nextSnapshot(w, [&] { w.setupPanel()->setGovernorChecked("teo-6.14", false); }));
    const ScenarioSpec edited = w.currentSpec();
    QCOMPARE(edited.target.table.tickHz, 250);
    QCOMPARE(edited.target.table[1].exitLatencyNs, Ns(20000));
    QCOMPARE(test::workloadParam(edited.workload, "interval_us"), qint64(50000));
    QCOMPARE(edited.governors.size(), start.governors.size() - 1);
    QCOMPARE(w.undoStack()->count(), 5);

    // Undone one by one, newest first: each takes back only its own edit.
    QVERIFY(nextSnapshot(w, [&] { undo->trigger(); }));
    QCOMPARE(w.currentSpec().governors.size(), start.governors.size());
    QCOMPARE(test::workloadParam(w.currentSpec().workload, "interval_us"), qint64(50000));
    QVERIFY(nextSnapshot(w, [&] { undo->trigger(); }));
    QCOMPARE(test::workloadParam(w.currentSpec().workload, "interval_us"), qint64(100000));
    QVERIFY(nextSnapshot(w, [&] { undo->trigger(); }));
    QCOMPARE(w.parameterPanel()->row("menu-6.14", QStringLiteral("INTERVALS"))->value(), std::int64_t(8));
    QCOMPARE(w.currentSpec().target.table[1].exitLatencyNs, Ns(20000));
    QVERIFY(nextSnapshot(w, [&] { undo->trigger(); }));
    QCOMPARE(w.currentSpec().target.table[1].exitLatencyNs, Ns(12000));
    QCOMPARE(w.currentSpec().target.table.tickHz, 250);
    QVERIFY(nextSnapshot(w, [&] { undo->trigger(); }));
    QCOMPARE(w.currentSpec().target.table.tickHz, 100);
    QVERIFY(sameScenario(w.currentSpec(), start));
    QVERIFY(!w.undoStack()->canUndo());
    QVERIFY(!w.isWindowModified());

    // Redone all the way: the edited scenario again, in the panels and in the run.
    for (int i = 0; i < 5; ++i)
        QVERIFY(nextSnapshot(w, [&] { redo->trigger(); }));
    QVERIFY(sameScenario(w.currentSpec(), edited));
    QVERIFY(sameScenario(w.snapshot()->spec, edited));
    QCOMPARE(w.parameterPanel()->row("menu-6.14", QStringLiteral("INTERVALS"))->value(), std::int64_t(16));
}

void TestMainWindowEdits::closeAsksSaveDiscardOrCancel()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("c.idlescope"));
    MainWindow w;
    w.show();
    QVERIFY(firstSnapshot(w));
    QCOMPARE(w.saveSessionTo(path), QString());
    // Unmodified: closes without a question.
    QVERIFY(w.close());

    MainWindow v;
    v.show();
    QVERIFY(firstSnapshot(v));
    QVERIFY(nextSnapshot(v, [&] { QCOMPARE(v.openSession(path), QString()); }));
    QVERIFY(nextSnapshot(v, [&] { chooseTick(v, 300); }));
    // Cancel: the window stays, still modified.
    QString asked;
    answer(QMessageBox::Cancel, &asked);
    QVERIFY(!v.close());
    QVERIFY(asked.contains(QStringLiteral("c.idlescope")));
    QVERIFY(v.isVisible());
    QVERIFY(v.isWindowModified());
    // Save: written to the session's file, then closed.
    answer(QMessageBox::Save);
    QVERIFY(v.close());
    QCOMPARE(loadSession(path)->scenario.target.table.tickHz, 300);

    MainWindow u;
    u.show();
    QVERIFY(firstSnapshot(u));
    QVERIFY(nextSnapshot(u, [&] { QCOMPARE(u.openSession(path), QString()); }));
    QVERIFY(nextSnapshot(u, [&] { chooseTick(u, 1000); }));
    // Discard: closed, the file untouched.
    answer(QMessageBox::Discard);
    QVERIFY(u.close());
    QCOMPARE(loadSession(path)->scenario.target.table.tickHz, 300);
}

void TestMainWindowEdits::recoveryCopyIsOfferedAfterACrash()
{
    QTemporaryDir recovery;
    QString copy;
    {
        auto crashed = std::make_unique<MainWindow>();
        crashed->enableRecovery(recovery.path());
        QVERIFY(firstSnapshot(*crashed));
        QVERIFY(!crashed->autosaveNow()); // nothing unsaved: no copy
        QVERIFY(nextSnapshot(*crashed, [&] { chooseTick(*crashed, 250); }));
        QVERIFY(nextSnapshot(*crashed, [&] { editExitLatency(*crashed, 1, QStringLiteral("30")); }));
        QVERIFY(crashed->autosaveNow());
        copy = crashed->recoveryPath();
        QVERIFY(QFileInfo::exists(copy));
        QCOMPARE(loadSession(copy)->scenario.target.table.tickHz, 250);
        // Destroyed without closing, as a crash ends it: the copy stays.
    }
    QVERIFY(QFileInfo::exists(copy));

    MainWindow w;
    w.enableRecovery(recovery.path());
    QVERIFY(firstSnapshot(w));
    QString asked;
    answerRestore(&asked);
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    QCOMPARE(recover(w), 1);
    QVERIFY(asked.contains(QStringLiteral("unsaved")));
    QVERIFY(shown.wait(TIMEOUT_MS) || !shown.isEmpty());
    QCOMPARE(w.snapshot()->table.tickHz, 250);
    QCOMPARE(w.parameterPanel()->tableTickHz(), 100); // the table's own rate is still named as such
    QCOMPARE(w.snapshot()->table[1].exitLatencyNs, Ns(30000));
    QVERIFY(w.isWindowModified()); // restored work is not saved anywhere yet
    QVERIFY(!QFileInfo::exists(copy));
    QVERIFY(QFileInfo::exists(w.recoveryPath())); // now kept in this window's copy
    // Nothing more to offer: the copy was taken.
    MainWindow next;
    next.enableRecovery(recovery.path());
    QCOMPARE(recover(next), 0); // w still runs: its copy is not an orphan
}

void TestMainWindowEdits::recoveredSessionKeepsItsName()
{
    // Issue 33 item 12: the unsaved work of ab.idlescope came back as "idlescope*", and Save
    // asked for a path again.
    QTemporaryDir recovery;
    QTemporaryDir files;
    const QString path = files.filePath(QStringLiteral("ab.idlescope"));
    {
        auto crashed = std::make_unique<MainWindow>();
        crashed->enableRecovery(recovery.path());
        QVERIFY(firstSnapshot(*crashed));
        QCOMPARE(crashed->saveSessionTo(path), QString());
        QVERIFY(nextSnapshot(*crashed, [&] { chooseTick(*crashed, 250); }));
        QVERIFY(crashed->autosaveNow());
        QCOMPARE(loadSession(crashed->recoveryPath())->sessionPath, path);
        // Destroyed without closing, as a crash ends it.
    }
    MainWindow w;
    w.enableRecovery(recovery.path());
    QVERIFY(firstSnapshot(w));
    answerNextMessageBox([](QMessageBox &box) -> QAbstractButton * {
        for (QAbstractButton *b : box.buttons())
            if (b->text() == QStringLiteral("Restore"))
                return b;
        return nullptr;
    });
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    QCOMPARE(recover(w), 1);
    QVERIFY(shown.wait(TIMEOUT_MS) || !shown.isEmpty());
    QCOMPARE(w.windowTitle(), QStringLiteral("ab.idlescope[*] \u2014 idlescope"));
    QVERIFY(w.isWindowModified());
    // Save writes the session's own file, with no dialog (a dialog would block this test).
    QAction *save = editAction(w, QStringLiteral("Save session"));
    QVERIFY(save);
    save->trigger();
    QVERIFY(!w.isWindowModified());
    QCOMPARE(loadSession(path)->scenario.target.table.tickHz, 250);
    // The key is a recovery copy's: the session file itself does not name itself.
    QFile saved(path);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(!saved.readAll().contains("session_path"));
}

void TestMainWindowEdits::normalCloseLeavesNoRecoveryCopy()
{
    QTemporaryDir recovery;
    MainWindow w;
    w.show();
    w.enableRecovery(recovery.path());
    QVERIFY(firstSnapshot(w));
    QVERIFY(nextSnapshot(w, [&] { chooseTick(w, 250); }));
    QVERIFY(w.autosaveNow());
    const QString copy = w.recoveryPath();
    QVERIFY(QFileInfo::exists(copy));
    answer(QMessageBox::Discard);
    QVERIFY(w.close());
    QVERIFY(!QFileInfo::exists(copy));
    MainWindow next;
    next.enableRecovery(recovery.path());
    QCOMPARE(recover(next), 0);
}

void TestMainWindowEdits::runsReusedAreNotReportedAsASimulation()
{
    MainWindow w;
    QVERIFY(firstSnapshot(w));
    QVERIFY2(w.statusText().contains(QStringLiteral("simulated in")), qPrintable(w.statusText()));
    // The same scenario again (a slider released where the drag left it): every run is reused,
    // and the line says that the runs shown are the last simulation's.
    QVERIFY(nextSnapshot(w, [&] { w.runner()->requestNow(w.currentSpec()); }));
    QVERIFY2(w.statusText().contains(QStringLiteral("nothing left to re-run")), qPrintable(w.statusText()));
    // Once more: the last snapshot re-ran nothing either.
    QVERIFY(nextSnapshot(w, [&] { w.runner()->requestNow(w.currentSpec()); }));
    QVERIFY2(w.statusText().contains(QStringLiteral("unchanged")), qPrintable(w.statusText()));
    QVERIFY(!w.statusText().contains(QStringLiteral("simulated in")));
    // One tunable of one governor: only that governor is replayed (default scenario: 4 runs).
    QCOMPARE(w.snapshot()->governorCount(), 4);
    ParameterRow *row = w.parameterPanel()->row("menu-6.19", QStringLiteral("RESIDENCY_THRESHOLD_NS"));
    QVERIFY(row);
    QVERIFY(nextSnapshot(w, [&] {
        row->field()->setText(QStringLiteral("200"));
        row->field()->setModified(true);
        emit row->field()->editingFinished();
    }));
    QVERIFY2(w.statusText().contains(QStringLiteral("1 of 4 governors simulated in")), qPrintable(w.statusText()));
    QVERIFY2(w.statusText().contains(QStringLiteral(": menu-6.19 (the others kept)")), qPrintable(w.statusText()));
    // A latency limit of 2 ms, then 3 ms: above both of POWER10's exit latencies (0 and 12 us),
    // so every governor's replay makes its previous run again and keeps it (the same run
    // objects), but all four were simulated.
    QVERIFY(nextSnapshot(w, [&] {
        w.parameterPanel()->setLatencyLimitNs(2000000);
        w.runner()->requestNow(w.currentSpec());
    }));
    const SnapshotPtr at2ms = w.snapshot();
    QVERIFY(nextSnapshot(w, [&] {
        w.parameterPanel()->setLatencyLimitNs(3000000);
        w.runner()->requestNow(w.currentSpec());
    }));
    QCOMPARE(w.snapshot()->spec.latencyLimitNs, Ns(3000000));
    for (int g = 0; g < 4; ++g)
        QVERIFY(w.snapshot()->governors[static_cast<std::size_t>(g)].run
                == at2ms->governors[static_cast<std::size_t>(g)].run);
    QVERIFY2(w.statusText().contains(QStringLiteral("simulated in")), qPrintable(w.statusText()));
    QVERIFY2(!w.statusText().contains(QStringLiteral("of 4 governors")), qPrintable(w.statusText()));
    QVERIFY(!w.statusText().contains(QStringLiteral("unchanged")));
}

void TestMainWindowEdits::longSimulationIsMarkedAndCanBeCancelled()
{
    // Audit: a 10 M-span workload re-simulated for ~35 s with the old numbers on screen,
    // un-greyed, and no way to stop it.
    MainWindow w;
    w.show();
    QVERIFY(firstSnapshot(w));
    const SnapshotPtr before = w.snapshot();
    QDoubleSpinBox *spans = nullptr;
    for (QDoubleSpinBox *box : w.setupPanel()->findChild<WorkloadForm *>()->findChildren<QDoubleSpinBox *>())
        if (box->maximum() == WORKLOAD_MAX_SPANS)
            spans = box;
    QVERIFY(spans);
    spans->setValue(5000000); // seconds of replay for four governors on any machine
    QTRY_VERIFY_WITH_TIMEOUT(w.isStaleShown(), TIMEOUT_MS);
    QVERIFY2(w.busyText().contains(QStringLiteral("previous run")), qPrintable(w.busyText()));
    // Once the stream is built: each governor's share of it replayed so far.
    QTRY_VERIFY_WITH_TIMEOUT(w.busyText().contains(QStringLiteral(" %")), TIMEOUT_MS);
    for (const GovernorResult &g : before->governors)
        QVERIFY2(w.busyText().contains(QString::fromStdString(g.run->variant)), qPrintable(w.busyText()));
    w.cancelSimulation();
    QVERIFY(!w.isStaleShown());
    QVERIFY(!w.isBusyShown());
    QCOMPARE(w.snapshot(), before);
    // The panels describe the plots again; the cancelled edit is no step to undo.
    QVERIFY(sameScenario(w.currentSpec(), before->spec));
    QVERIFY(!w.undoStack()->canUndo());
    QVERIFY(!w.isWindowModified());
}

void TestMainWindowEdits::nextMissAtWholeRunZoomsToIt()
{
    // Audit: at whole-run zoom (200000 entries in ~900 px) Next Miss selected an entry no one could see.
    MainWindow w;
    w.show();
    QVERIFY(firstSnapshot(w));
    const qint64 whole = w.viewState()->rangeEndNs() - w.viewState()->rangeStartNs();
    w.viewState()->selectEntry(0, 0); // menu-6.14: almost every entry is "above" on POWER10
    w.inspector()->nextMissAction()->trigger();
    const qint64 entry = w.viewState()->selectedEntry();
    QVERIFY(entry > 0);
    const GovernorRun &run = *w.snapshot()->governors[0].run;
    const qint64 t = run.startNs[static_cast<std::size_t>(entry)];
    QVERIFY(t >= w.viewState()->rangeStartNs() && t <= w.viewState()->rangeEndNs());
    // 25 entries either side of it: ~51 IPI periods of ~100 us, a few ms of a ~23 s run.
    const qint64 width = w.viewState()->rangeEndNs() - w.viewState()->rangeStartNs();
    QVERIFY2(width < whole / 1000, qPrintable(QStringLiteral("%1 of %2 ns").arg(width).arg(whole)));
    // Already zoomed in: the next one moves the view no more than it must.
    w.inspector()->nextMissAction()->trigger();
    QCOMPARE(w.viewState()->rangeEndNs() - w.viewState()->rangeStartNs(), width);
}

QTEST_MAIN(TestMainWindowEdits)
void TestMainWindowEdits::sliderReleaseSaysWhichGovernorReRan()
{
    // A fresh user's finding: after dragging a tunable's slider the status bar said
    // "unchanged: no governor needed a new run" although menu-6.19 had been re-run. The drag
    // replays the governor while the slider is down; the release asks for the same scenario
    // again, which re-runs nothing, and its line hid the drag's run.
    MainWindow w;
    QVERIFY(firstSnapshot(w));
    ParameterRow *row = w.parameterPanel()->row("menu-6.19", QStringLiteral("RESIDENCY_THRESHOLD_NS"));
    QVERIFY(row);
    QSlider *slider = row->slider();
    slider->setSliderDown(true);
    // Moved while down: not final, the governor is replayed on its own.
    QVERIFY(nextSnapshot(w, [&] { slider->setValue(slider->value() + slider->pageStep()); }));
    QVERIFY2(w.statusText().contains(QStringLiteral("1 of 4 governors simulated in")), qPrintable(w.statusText()));
    // Released where it was dragged to: the same scenario, nothing to run again.
    QVERIFY(nextSnapshot(w, [&] { slider->setSliderDown(false); }));
    QVERIFY2(!w.statusText().contains(QStringLiteral("unchanged")), qPrintable(w.statusText()));
    QVERIFY2(w.statusText().contains(QStringLiteral("menu-6.19 (the others kept); nothing left to re-run")),
             qPrintable(w.statusText()));
}

void TestMainWindowEdits::anotherTableAsksBeforeDroppingEditedStates()
{
    // A fresh user's finding: an edited target residency vanished without a word when another
    // table was chosen. POWER10's CEDE (state 1) has a target residency of 120 us
    // (resources/targets/pseries-power10-lpar.json); edited to
    // 50 us, then arm-juno-r0 chosen: Cancel keeps the table and the edit, Discard replaces it.
    MainWindow w;
    QVERIFY(firstSnapshot(w));
    const QString table = w.currentSpec().target.id;
    auto *cells = w.setupPanel()->findChild<QTableWidget *>();
    QVERIFY(cells && cells->item(1, 2));
    QCOMPARE(cells->item(1, 2)->text(), QStringLiteral("120"));
    QVERIFY(nextSnapshot(w, [&] { cells->item(1, 2)->setText(QStringLiteral("50")); }));
    QCOMPARE(w.snapshot()->table[1].targetResidencyNs, Ns(50000));
    QCOMPARE(w.setupPanel()->targetPicker()->editedStates(), QStringList({"CEDE: target residency 50 \u00b5s"}));
    auto *combo = w.setupPanel()->targetPicker()->findChild<QComboBox *>();
    QVERIFY(combo);
    const int juno = combo->findData(QStringLiteral("builtin:arm-juno-r0"));
    QVERIFY(juno >= 0);
    QString asked;
    answer(QMessageBox::Cancel, &asked);
    QSignalSpy changed(w.setupPanel(), &SetupPanel::targetChanged);
    combo->setCurrentIndex(juno);
    emit combo->activated(juno);
    QVERIFY2(asked.contains(QStringLiteral("CEDE: target residency 50 \u00b5s")), qPrintable(asked));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(w.currentSpec().target.id, table);
    QCOMPARE(w.currentSpec().target.table[1].targetResidencyNs, Ns(50000));
    QCOMPARE(combo->currentData().toString(), QStringLiteral("builtin:") + table);
    QCOMPARE(cells->item(1, 2)->text(), QStringLiteral("50"));
    // Discard: the other table, as its source gives it.
    answer(QMessageBox::Discard);
    const SnapshotPtr s = nextSnapshot(w, [&] {
        combo->setCurrentIndex(juno);
        emit combo->activated(juno);
    });
    QVERIFY(s);
    QCOMPARE(s->targetId, QStringLiteral("arm-juno-r0"));
    QVERIFY(w.setupPanel()->targetPicker()->editedStates().isEmpty());
}

void TestMainWindowEdits::aTableFileIsNeverReadOnTheWindowsThread()
{
    // Issue 30: a session whose target is a table file, and every undo or redo of an edit,
    // read that file again on the GUI thread (to know the table without edits and its own
    // tick rate), so a file on a network folder that stopped answering, or a huge one, held
    // the window. The file is read on the opener's worker (alone, chosen again in the Target
    // combo, with a session, with a recovery copy) and the table read is kept. The values: intel-skx.json's C1 has an exit
    // latency of 2000 ns and the file's tick_hz is 250; the edits are C1 at 20 us and 1000 Hz.
    QTemporaryDir dir;
    const QString table = dir.filePath(QStringLiteral("skx.json"));
    QVERIFY(QFile::copy(test::kitDir() + QStringLiteral("/tables/intel-skx.json"), table));
    const QStringList edited{QStringLiteral("C1: exit latency 20 \u00b5s")};
    const int before = tableFileReadsOnGuiThread();
    const QString session = dir.filePath(QStringLiteral("skx.idlescope"));
    {
        MainWindow w;
        QVERIFY(firstSnapshot(w));
        QVERIFY(nextSnapshot(w, [&] { w.sessionOpener()->openTable(table); }));
        QCOMPARE(w.currentSpec().target.path, table);
        // Another table, then the file's entry in the combo again: read again, on the worker.
        QVERIFY(nextSnapshot(w, [&] { chooseTable(w, QStringLiteral("builtin:arm-juno-r0")); }));
        QVERIFY(nextSnapshot(w, [&] { chooseTable(w, QStringLiteral("file:") + table); }));
        QCOMPARE(w.currentSpec().target.path, table);
        QVERIFY(nextSnapshot(w, [&] { editExitLatency(w, 1, QStringLiteral("20")); }));
        QVERIFY(nextSnapshot(w, [&] { chooseTick(w, 1000); }));
        QCOMPARE(w.setupPanel()->targetPicker()->editedStates(), edited);
        // Undone to the file as opened, then redone: the states and the table's own rate are
        // known without the file.
        QVERIFY(nextSnapshot(w, [&] { w.undoStack()->undo(); }));
        QVERIFY(nextSnapshot(w, [&] { w.undoStack()->undo(); }));
        QCOMPARE(w.currentSpec().target.table[1].exitLatencyNs, Ns(2000));
        QVERIFY(w.setupPanel()->targetPicker()->editedStates().isEmpty());
        QCOMPARE(w.parameterPanel()->tableTickHz(), 250);
        QVERIFY(nextSnapshot(w, [&] { w.undoStack()->redo(); }));
        QVERIFY(nextSnapshot(w, [&] { w.undoStack()->redo(); }));
        QCOMPARE(w.setupPanel()->targetPicker()->editedStates(), edited);
        QCOMPARE(w.parameterPanel()->tickHz(), 1000);
        QCOMPARE(w.parameterPanel()->tableTickHz(), 250);
        QCOMPARE(w.saveSessionTo(session), QString());
    }
    // The session opened in a window that never read the file: the edit is told against the
    // file's table, the tick control names the file's rate (the session holds 1000 Hz).
    {
        MainWindow w;
        QVERIFY(firstSnapshot(w));
        QVERIFY(nextSnapshot(w, [&] { QCOMPARE(w.openSession(session), QString()); }));
        QCOMPARE(w.setupPanel()->targetPicker()->editedStates(), edited);
        QCOMPARE(w.parameterPanel()->tickHz(), 1000);
        QCOMPARE(w.parameterPanel()->tableTickHz(), 250);
    }
    // The same work restored from a recovery copy.
    QTemporaryDir recovery;
    QVERIFY(QFile::copy(session, recovery.filePath(QStringLiteral("recovery-1-1.idlescope"))));
    {
        MainWindow w;
        w.enableRecovery(recovery.path());
        QVERIFY(firstSnapshot(w));
        answerRestore();
        QSignalSpy shown(&w, &MainWindow::snapshotShown);
        QCOMPARE(recover(w), 1);
        QVERIFY(shown.wait(TIMEOUT_MS) || !shown.isEmpty());
        QCOMPARE(w.setupPanel()->targetPicker()->editedStates(), edited);
        QCOMPARE(w.parameterPanel()->tableTickHz(), 250);
    }
    QCOMPARE(tableFileReadsOnGuiThread(), before);
}

void TestMainWindowEdits::aRecoveryReadCancelledOrSupersededStillEnds()
{
    // Issue 30: Cancel on the read of the recovery copy (the opening bar's "looking for unsaved
    // work") ended it without recoveryOffered(), so whoever waited for the offer's outcome
    // never heard it; a session opened while it was read dropped it just as silently. Either
    // way the offer now ends having restored nothing, recoveryOffered(false), and the copy
    // stays for the next offer, which restores it (its marker: a latency limit of 20 us).
    QTemporaryDir recovery;
    QTemporaryDir dir;
    const QString copy = recovery.filePath(QStringLiteral("recovery-1-1.idlescope"));
    const QString session = dir.filePath(QStringLiteral("s.idlescope"));
    MainWindow w;
    QVERIFY(firstSnapshot(w));
    Session left;
    left.scenario = w.currentSpec();
    QVERIFY(saveSession(left, session).ok());
    left.scenario.latencyLimitNs = 20000;
    QVERIFY(saveSession(left, copy).ok());
    w.enableRecovery(recovery.path());
    auto hold = std::make_shared<std::atomic<bool>>(true);
    auto passed = std::make_shared<std::atomic<int>>(0); // reads let through the gate
    w.sessionOpener()->setReadGateForTesting([hold, passed](const QString &) {
        while (hold->load())
            QThread::msleep(5);
        ++*passed;
    });
    QSignalSpy offered(&w, &MainWindow::recoveryOffered);
    const Ns shownLimit = w.currentSpec().latencyLimitNs;

    // Cancelled in the opening bar while held: the offer ends at once, nothing restored.
    QVERIFY(w.offerRecovery());
    QTRY_VERIFY_WITH_TIMEOUT(w.openingBar()->isVisibleTo(&w), TIMEOUT_MS);
    w.openingBar()->cancelButton()->click();
    QCOMPARE(offered.size(), 1);
    QCOMPARE(offered.first().first().toBool(), false);
    hold->store(false);
    QTRY_COMPARE_WITH_TIMEOUT(passed->load(), 1, TIMEOUT_MS);
    QTest::qWait(300); // the worker's end reaches the GUI thread through the event loop: dropped
    QCOMPARE(offered.size(), 1);
    QCOMPARE(w.currentSpec().latencyLimitNs, shownLimit);
    QVERIFY(QFileInfo::exists(copy));

    // Superseded by a session opened while it is held: the offer ends, the session opens.
    hold->store(true);
    offered.clear();
    QVERIFY(w.offerRecovery());
    QCOMPARE(w.openSession(session), QString());
    QCOMPARE(offered.size(), 1);
    QCOMPARE(offered.first().first().toBool(), false);
    hold->store(false);
    QTRY_COMPARE_WITH_TIMEOUT(w.windowTitle(), QStringLiteral("s.idlescope[*] \u2014 idlescope"), TIMEOUT_MS);
    QCOMPARE(offered.size(), 1);
    QVERIFY(QFileInfo::exists(copy));

    // Offered again, not held: the copy is there, and restored.
    answerRestore();
    QCOMPARE(recover(w), 1);
    QCOMPARE(w.currentSpec().latencyLimitNs, Ns(20000));
}

#include "tst_main_window_edits.moc"
