// SPDX-License-Identifier: GPL-3.0-or-later
// "Copy as command", offscreen: the idlescope-cli compare line copied from the
// window, run as a process, counts exactly what the window's comparison table
// shows (one seed derivation for both: core/workloads/workload_spec.h,
// seededStream); a session saved before that (format 2) keeps its legacy
// spans, says so when its command is copied, and switches to the common
// seeding only when asked (the window is then modified).
#include "../cli_process.h"
#include "compare_command_check.h"
#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "poisson_scenario.h"
#include "tests/test_files.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/export/compare_command.h"
#include "widgets/main_window.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/runner/spec_workload.h"
#include "widgets/runner/workload_seeding.h"
#include "widgets/session/session_json.h"
#include "window_fixture.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace idlescope;

namespace {

constexpr int TIMEOUT_MS = test::WINDOW_TIMEOUT_MS;

/// Shows @p spec and waits for its snapshot.
SnapshotPtr showScenario(MainWindow &w, const ScenarioSpec &spec)
{
    return test::nextSnapshot(w, [&] { w.applySpec(spec); });
}

/// The first @p n idle durations (wake, ns) of @p stream.
QList<qint64> firstWakes(const IdleStream &stream, int n)
{
    QList<qint64> out;
    for (int i = 0; i < n && i < static_cast<int>(stream.size()); ++i)
        out << stream[static_cast<std::size_t>(i)].wakeNs;
    return out;
}

} // namespace

class TestCopyCommand : public QObject {
    Q_OBJECT
private slots:
    void copiedCommandCountsWhatTheTableShows();
    void specCommandCountsWhatTheTableShows();
    void editedTableIsSaidNotHidden();
    void legacySessionKeepsItsSpansUntilSwitched();
    void traceRecordedRowIsACaveat();

private:
    test::IsolatedSettings m_settings;
};

// A trace with the recorded row: the one-CPU command has no such row, and says where it is
// (the copied line left it out without a word: a user-test finding).
void TestCopyCommand::traceRecordedRowIsACaveat()
{
    ScenarioSpec spec = defaultScenario();
    spec.workload = WorkloadSourceSpec{};
    spec.workload.kind = WorkloadKind::Trace;
    spec.workload.path = "/traces/juno.dat";
    spec.workload.cpu = 4;
    spec.governors = {{"recorded", {}, QColor(Qt::black)}, {"menu-6.14", {}, QColor(Qt::red)}};
    const CompareCommand c = compareCommand(spec);
    QVERIFY2(c.text.contains(QStringLiteral("--trace /traces/juno.dat --cpu 4")), qPrintable(c.text));
    QVERIFY2(c.text.contains(QStringLiteral("--governors menu-6.14")), qPrintable(c.text));
    QCOMPARE(c.caveats.size(), 1);
    QVERIFY2(c.caveats.front().contains(QStringLiteral("compare --trace without --cpu")),
             qPrintable(c.caveats.front()));
    // Without the recorded row: nothing to say.
    spec.governors.erase(spec.governors.begin());
    QVERIFY(compareCommand(spec).caveats.isEmpty());
}

void TestCopyCommand::copiedCommandCountsWhatTheTableShows()
{
    MainWindow w;
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, TIMEOUT_MS));
    const SnapshotPtr snap = showScenario(w, test::poissonScenario(30000, 7));
    QVERIFY(snap);
    QVERIFY(sameWorkload(snap->spec.workload, test::poissonScenario(30000, 7).workload));

    const QString copied = w.copyAsCommand();
    QCOMPARE(QGuiApplication::clipboard()->text(), copied);
    QVERIFY2(copied.startsWith(QStringLiteral("idlescope-cli compare --table intel-skx --hz 1000 --workload poisson:")),
             qPrintable(copied));
    QVERIFY2(copied.contains(QStringLiteral("--latency-limit 100 ")) && copied.contains(QStringLiteral("--seed 7"))
                 && copied.contains(QStringLiteral("--spans 30000"))
                 && copied.contains(QStringLiteral("--set menu-6.14:INTERVALS=4")),
             qPrintable(copied));

    test::checkTableAgainstCommand(w, snap->spec.target.table, copied, 30000);
}

void TestCopyCommand::specCommandCountsWhatTheTableShows()
{
    // A compound workload typed as text: the command carries the text, seed and spans as
    // they are, and compare generates the window's spans from them.
    MainWindow w;
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, TIMEOUT_MS));
    ScenarioSpec spec = test::poissonScenario(20000, 5);
    spec.latencyLimitNs = -1;
    spec.workload = WorkloadSourceSpec{};
    spec.workload.kind = WorkloadKind::Spec;
    spec.workload.text = "poisson:mean_us=300+periodic:interval_us=700";
    spec.workload.spans = 20000;
    spec.workload.seed = 5;
    spec.workload.description = describeWorkload(spec.workload);
    const SnapshotPtr snap = showScenario(w, spec);
    QVERIFY(snap);
    QCOMPARE(snap->stream->size(), std::size_t(20000));

    const QString copied = w.copyAsCommand();
    QVERIFY2(copied.contains(QStringLiteral("--workload poisson:mean_us=300+periodic:interval_us=700 --seed 5 "
                                            "--spans 20000")),
             qPrintable(copied));
    test::checkTableAgainstCommand(w, snap->spec.target.table, copied, 20000);
}

void TestCopyCommand::editedTableIsSaidNotHidden()
{
    ScenarioSpec s = test::poissonScenario(30000, 7);
    s.target.table.states[1].exitLatencyNs += 1000;
    const CompareCommand c = compareCommand(s);
    QVERIFY(c.tableEdited);
    QCOMPARE(c.caveats.size(), 1);
    QVERIFY(c.caveats.front().contains(QStringLiteral("edited")));
    // With the edited table saved as a file, the command names that file and nothing is left out.
    const CompareCommand saved = compareCommand(s, QStringLiteral("/tmp/my table.json"));
    QVERIFY2(saved.text.startsWith(QStringLiteral("idlescope-cli compare --table '/tmp/my table.json' --hz 1000 ")),
             qPrintable(saved.text));
    QVERIFY(saved.caveats.isEmpty());
}

void TestCopyCommand::legacySessionKeepsItsSpansUntilSwitched()
{
    // A session as idlescope wrote it before the common seeding (format 2).
    Session old;
    old.scenario = test::poissonScenario(30000, 3);
    QByteArray json = sessionToJson(old);
    QVERIFY(json.contains("\"format_version\": 4"));
    json.replace("\"format_version\": 4", "\"format_version\": 2");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("old.idlescope"));
    test::writeFile(path, json);

    MainWindow w;
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, TIMEOUT_MS));
    const SnapshotPtr snap = test::nextSnapshot(w, [&] { QCOMPARE(w.openSession(path), QString()); });
    QVERIFY(snap);
    QVERIFY(usesLegacySeeding(snap->spec.workload));
    QVERIFY(w.undoStack()->isClean());

    // The spans the window showed before: the generator seeded with the session's seed itself
    // (buildStream at 1154920: g->make(values, 3)). Its first idle durations, 175,987 / 36,935 /
    // 82,902 ns (Poisson, mean 150 us), are those of that code, run here as it was.
    const workloads::GeneratorInfo *g = workloads::findGenerator("poisson");
    workloads::ParamValues values = g->defaults();
    values.set("mean_us", 150000);
    auto src = g->make(values, 3);
    QList<qint64> former;
    for (int i = 0; i < 3; ++i)
        former << src->next().wakeNs;
    QCOMPARE(firstWakes(*snap->stream, 3), former);
    QCOMPARE(former, (QList<qint64>{175987, 36935, 82902}));

    // Copy as command says the CLI would not reproduce it, and offers the switch.
    const CompareCommand legacy = compareCommand(snap->spec);
    QVERIFY(legacy.legacySeeding);
    QVERIFY(legacy.caveats.join(QLatin1Char(' ')).contains(QStringLiteral("legacy seeding")));

    // Saved again, it stays legacy (format 3 writes the mark).
    const QString again = dir.filePath(QStringLiteral("again.idlescope"));
    QCOMPARE(w.saveSessionTo(again), QString());
    QFile a(again);
    QVERIFY(a.open(QIODevice::ReadOnly));
    const auto reread = sessionFromJson(a.readAll(), again);
    QVERIFY(reread);
    QVERIFY(usesLegacySeeding(reread->scenario.workload));

    // Switched: modified, the common seeding's spans (those of compare --iterations 1 --seed 3).
    const SnapshotPtr common = test::nextSnapshot(w, [&] { w.switchToCommonSeeding(); });
    QVERIFY(common);
    QVERIFY(!usesLegacySeeding(common->spec.workload));
    QVERIFY(!w.undoStack()->isClean());
    QVERIFY(w.isWindowModified());
    workloads::WorkloadSpec one;
    one.root.params = values;
    QCOMPARE(firstWakes(*common->stream, 3), firstWakes(workloads::seededStream(one, 0, 0, 3, 3), 3));
    QVERIFY(firstWakes(*common->stream, 3) != former);
    QVERIFY(!compareCommand(common->spec).legacySeeding);
}

QTEST_MAIN(TestCopyCommand)
#include "tst_copy_command.moc"
