// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Governors → "Add governor from source…" and "First difference"
 * (widgets/source_governor_actions.h): a governor file of tests/data/
 * source_governors/, or one a test writes (tests/governor_source.h), built
 * and shown like any governor, with the decisions
 * `idlescope-cli replay --governor-source` makes; its file watched, so that
 * a save (in place or by rename) re-simulates it and a save that breaks it
 * keeps the last good run, marked stale with the compiler's file:line; a
 * crash named by its signal and entry with the window still working; and
 * the first difference against the variant it patches, as `idlescope-cli
 * diff-governors` finds it.
 */
#include "tests/cli_process.h"
#include "tests/governor_source.h"
#include "tests/widgets/window_fixture.h"

#include "core/io/table_json.h"
#include "core/source_governor/source_governor_names.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/inspector/episode_inspector.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/source_file_watch.h"
#include "widgets/source_governor_actions.h"
#include "widgets/view_state.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

using namespace idlescope;
using namespace Qt::StringLiterals;
using test::governorSource;
using test::nextSnapshot;
using test::runCli;
using test::TestGovernor;
using test::WINDOW_TIMEOUT_MS;

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(IDLESCOPE_TEST_DATA) + u"/source_governors/"_s + name;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

/// @p dir's file @p name holding @p bytes; "" when it cannot be written.
QString fileWith(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    return writeFile(path, bytes) ? path : QString();
}

/// Picks state 0 and dereferences NULL in its fourth select() (entry 3, stream row 3 of hop.csv).
const TestGovernor kCrash = test::crashingGovernor("crash", 3);
/// Builds with one compiler warning, its #warning, at the line and column placeOf() reads.
const TestGovernor kWarns{.name = "warns",
                          .select = "return 0;\n",
                          .fileScope = "#warning \"warns.c is built with this warning\"\n"};
/// Where gcc and clang put kWarns' warning in the file at @p path: at the word "warning"
/// after the '#'.
QString warnsWarningAt(const QString &path)
{
    return path + u':' + test::placeOf(governorSource(kWarns), "warning \"") + u": warning: "_s;
}

/// Saves @p bytes as an editor that writes a new file and renames it over the old one.
bool saveByRename(const QString &path, const QByteArray &bytes)
{
    const QString temp = path + u".new"_s;
    return writeFile(temp, bytes) && QFile::remove(path) && QFile::rename(temp, path);
}

/// The run's entries in the format of `idlescope-cli replay --entries`.
QByteArray entriesCsv(const GovernorRun &run)
{
    QByteArray out("span,entry,state,stop_tick,residency_ns,above,below,got_tick,poll_time_limit\n");
    int entryInSpan = 0;
    for (std::size_t i = 0; i < run.size(); ++i) {
        entryInSpan = i > 0 && run.span[i] == run.span[i - 1] ? entryInSpan + 1 : 0;
        out += QByteArray::number(run.span[i]) + ',' + QByteArray::number(entryInSpan) + ','
               + QByteArray::number(run.state[i]) + ',' + (run.has(i, ENTRY_STOP_TICK) ? "1" : "0") + ','
               + QByteArray::number(run.residencyNs[i]) + ',' + (run.has(i, ENTRY_ABOVE) ? "1" : "0") + ','
               + (run.has(i, ENTRY_BELOW) ? "1" : "0") + ',' + (run.has(i, ENTRY_GOT_TICK) ? "1" : "0") + ','
               + (run.has(i, ENTRY_POLL_TIME_LIMIT) ? "1" : "0") + '\n';
    }
    return out;
}

/// The comparison table's governor cell of row @p g, as shown.
QString governorCell(MainWindow &w, int g)
{
    const ComparisonTableModel *m = w.comparison()->model();
    return m->data(m->index(g, 0)).toString();
}

std::vector<int> states(const GovernorRun &run)
{
    return std::vector<int>(run.state.begin(), run.state.end());
}

/// The window on three_states.json and hop.csv with ladder-latest only (hop.c's comment tables).
SnapshotPtr showHopScenario(MainWindow &w)
{
    if (!QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, WINDOW_TIMEOUT_MS))
        return nullptr;
    ScenarioSpec spec = w.currentSpec();
    const QString table = dataFile(u"three_states.json"_s);
    auto t = readTableJson(table.toStdString());
    if (!t)
        return nullptr;
    spec.target = TargetSpec{TargetKind::File, u"three-states"_s, table, *t};
    spec.workload = WorkloadSourceSpec{};
    spec.workload.kind = WorkloadKind::Csv;
    spec.workload.path = dataFile(u"hop.csv"_s).toStdString();
    spec.workload.description = u"hop.csv"_s;
    spec.governors = {GovernorSpec{"ladder-latest", {}, QColor(0x4e, 0x79, 0xa7), {}}};
    spec.latencyLimitNs = -1;
    return nextSnapshot(w, [&] { w.applySpec(spec); });
}

/// Adds @p path from source; the snapshot that has its run (null when none came).
SnapshotPtr addSource(MainWindow &w, const QString &path, const QString &kernel = QString())
{
    const QString id = u"src:"_s + path + (kernel.isEmpty() ? QString() : u"@"_s + kernel);
    QSignalSpy built(w.sourceGovernors(), &SourceGovernorActions::built);
    w.sourceGovernors()->addFromSource(path, kernel);
    if (!built.wait(WINDOW_TIMEOUT_MS) && built.isEmpty())
        return nullptr;
    if (!QTest::qWaitFor([&] { return w.snapshot() && w.snapshot()->indexOf(id.toStdString()) >= 0; },
                         WINDOW_TIMEOUT_MS))
        return nullptr;
    return w.snapshot();
}

/// A copy of hop.c in a folder of its own: added from source, the window watches it.
struct WatchedHop {
    QTemporaryDir dir;
    QString path;        ///< the copy
    QByteArray original; ///< hop.c's bytes
    std::string id;      ///< its variant: src:PATH
};

/// showHopScenario() with @p hop's copy written and added from source: the snapshot that has
/// its run (null when none came, or the copy could not be written).
SnapshotPtr showWatchedHop(MainWindow &w, WatchedHop &hop)
{
    hop.path = hop.dir.filePath(u"hop.c"_s);
    hop.original = readAll(dataFile(u"hop.c"_s));
    hop.id = (u"src:"_s + hop.path).toStdString();
    if (!showHopScenario(w) || !writeFile(hop.path, hop.original))
        return nullptr;
    return addSource(w, hop.path);
}

/// showHopScenario() with hop.c added from source.
SnapshotPtr showHopScenarioWithHopC(MainWindow &w)
{
    return showHopScenario(w) ? addSource(w, dataFile(u"hop.c"_s)) : nullptr;
}

} // namespace

class TestSourceGovernorGui : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_cache;

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        qputenv("IDLESCOPE_CACHE_DIR", m_cache.path().toUtf8()); // the builds of this test only
    }

    void anAddedGovernorDecidesAsTheCli()
    {
        MainWindow w;
        const QString hop = dataFile(u"hop.c"_s);
        const SnapshotPtr s = showHopScenarioWithHopC(w);
        QVERIFY(s);
        const int g = s->indexOf((u"src:"_s + hop).toStdString());
        QVERIFY(g >= 0);
        QVERIFY(s->indexOf("ladder-latest") >= 0);
        const GovernorRun &run = *s->governors[std::size_t(g)].run;
        // hop.c's comment: states C1 C2 C3 C2 C1 C1, rows 0, 1, 5 below and 2, 3 above.
        QCOMPARE(states(run), (std::vector<int>{0, 1, 2, 1, 0, 0}));
        QCOMPARE(run.summary.states[0].below, 2);
        QCOMPARE(run.summary.states[1].above + run.summary.states[2].above, 2);
        // The same entries, bit for bit, as the command line's replay of the file.
        QTemporaryDir out;
        const QString entries = out.filePath(u"entries.csv"_s);
        const auto r = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor-source"_s, hop, u"--entries"_s, entries});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(entriesCsv(run), readAll(entries));
        // A row like any other: its colour, its comparison row, its inspector.
        QVERIFY(s->governors[std::size_t(g)].color.isValid());
        QVERIFY(governorCell(w, g).startsWith(u"src:"_s));
        QVERIFY(s->governors[std::size_t(g)].stale.isEmpty());
        QSignalSpy shown(w.inspector(), &EpisodeInspector::detailShown);
        w.viewState()->selectEntry(g, 2);
        QVERIFY(shown.wait(WINDOW_TIMEOUT_MS) || !shown.isEmpty());
        QCOMPARE(shown.last().at(0).toInt(), g);
        QCOMPARE(shown.last().at(1).toLongLong(), 2);
    }

    void savingTheWatchedFileReSimulates()
    {
        MainWindow w;
        WatchedHop hop;
        SnapshotPtr s = showWatchedHop(w, hop);
        QVERIFY(s);
        const QString &path = hop.path;
        const QByteArray &original = hop.original;
        const std::string &id = hop.id;
        QCOMPARE(states(*s->governors[std::size_t(s->indexOf(id))].run), (std::vector<int>{0, 1, 2, 1, 0, 0}));
        QVERIFY(w.sourceGovernors()->watch()->paths().contains(path));

        // Saved by rename with the deeper hop taken out: hop stays on C1 (idx never grows).
        // Each row is then one C1 entry to its wakeup, residency = wake_ns + 1 us:
        // 201000, 2001000, 31000, 21000, 6000, 151000 ns; below (residency - 1 us >= C2's
        // 50 us target) on rows 0, 1 and 5; above (< C1's 1 us) on none.
        QByteArray stayOnC1 = original;
        QVERIFY(stayOnC1.contains("data->idx++;"));
        stayOnC1.replace("data->idx++;", "data->idx += 0;");
        s = nextSnapshot(w, [&] { QVERIFY(saveByRename(path, stayOnC1)); });
        QVERIFY(s);
        const GovernorRun &c1 = *s->governors[std::size_t(s->indexOf(id))].run;
        QCOMPARE(states(c1), (std::vector<int>(6, 0)));
        QCOMPARE(c1.summary.states[0].usage, 6);
        QCOMPARE(c1.summary.states[0].below, 3);
        QCOMPARE(c1.summary.states[0].above, 0);
        QCOMPARE(std::vector<Ns>(c1.residencyNs.begin(), c1.residencyNs.end()),
                 (std::vector<Ns>{201000, 2001000, 31000, 21000, 6000, 151000}));
        QVERIFY(s->governors[std::size_t(s->indexOf(id))].stale.isEmpty());

        // Saved in place back to the original: the first run's decisions again (the file
        // is still watched after the rename).
        s = nextSnapshot(w, [&] { QVERIFY(writeFile(path, original)); });
        QVERIFY(s);
        QCOMPARE(states(*s->governors[std::size_t(s->indexOf(id))].run), (std::vector<int>{0, 1, 2, 1, 0, 0}));

        // A save that does not compile keeps those results, marked stale with the
        // compiler's file:line:column (the line added is the file's last).
        const int brokenLine = int(original.count('\n')) + 1;
        s = nextSnapshot(w, [&] { QVERIFY(writeFile(path, original + "static int oops = ;\n")); });
        QVERIFY(s);
        const int g = s->indexOf(id);
        QVERIFY(g >= 0);
        QCOMPARE(states(*s->governors[std::size_t(g)].run), (std::vector<int>{0, 1, 2, 1, 0, 0}));
        const QString where = u"hop.c:%1:"_s.arg(brokenLine);
        const QString &stale = s->governors[std::size_t(g)].stale;
        QVERIFY2(stale.contains(where) && stale.contains(u"error"_s), qPrintable(stale));
        QVERIFY2(w.messageBar()->text().contains(where), qPrintable(w.messageBar()->text()));
        QVERIFY2(governorCell(w, g).endsWith(u"(stale)"_s), qPrintable(governorCell(w, g)));

        // The inspector cannot replay a stale run: it says why in one short line (the reason's
        // first, cut at 160 characters), not the compiler's whole output flattened.
        QSignalSpy shown(w.inspector(), &EpisodeInspector::detailShown);
        w.viewState()->selectEntry(g, 2);
        QVERIFY(
            QTest::qWaitFor([&] { return !shown.isEmpty() && shown.last().at(0).toInt() == -1; }, WINDOW_TIMEOUT_MS));
        const QString title = w.inspector()->plainText().section(u'\n', 0, 0);
        QVERIFY2(title.startsWith(u"Cannot explain this entry: "_s), qPrintable(title));
        QVERIFY2(title.size() <= int(u"Cannot explain this entry: "_s.size()) + 161, qPrintable(title));
        QVERIFY2(!title.contains(u"static int oops"_s), qPrintable(title)); // the compiler's quote of the line
    }

    void aSavedFileIsHashedOffTheWindowsThread()
    {
        // Issue 30: a save of a watched file was hashed on the GUI thread (a large file, or one
        // on a network folder that stopped answering, held the window). It is hashed on the
        // file threads now: while the hash is held the window's timer keeps firing and nothing
        // re-simulates; once it ends the save re-simulates (the rows of
        // savingTheWatchedFileReSimulates: hop stays on C1, state 0 on all six rows).
        MainWindow w;
        WatchedHop hop;
        const SnapshotPtr added = showWatchedHop(w, hop);
        QVERIFY(added);
        const QString &path = hop.path;
        const QByteArray &original = hop.original;
        const std::string &id = hop.id;
        auto hold = std::make_shared<std::atomic<bool>>(true);
        auto asked = std::make_shared<std::atomic<int>>(0);
        w.sourceGovernors()->setStampReaderForTesting([hold, asked](const QString &file) {
            ++*asked;
            while (hold->load())
                QThread::msleep(5);
            return sourceFileStamp(file);
        });
        int ticks = 0;
        QTimer tick;
        tick.setInterval(10);
        connect(&tick, &QTimer::timeout, &w, [&ticks] { ++ticks; });
        tick.start();

        QByteArray stayOnC1 = original;
        stayOnC1.replace("data->idx++;", "data->idx += 0;");
        QVERIFY(writeFile(path, stayOnC1));
        QTRY_VERIFY_WITH_TIMEOUT(asked->load() >= 1, WINDOW_TIMEOUT_MS);
        const int before = ticks;
        QTRY_VERIFY_WITH_TIMEOUT(ticks >= before + 30, WINDOW_TIMEOUT_MS);
        QCOMPARE(w.snapshot(), added); // held: nothing re-simulated
        hold->store(false);
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != added && w.snapshot()->indexOf(id) >= 0
                                     && states(*w.snapshot()->governors[std::size_t(w.snapshot()->indexOf(id))].run)
                                            == std::vector<int>(6, 0),
                                 WINDOW_TIMEOUT_MS);
    }

    void aFileThatDoesNotCompileShowsTheCompilersLine()
    {
        MainWindow w;
        QVERIFY(showHopScenario(w));
        QSignalSpy failed(w.sourceGovernors(), &SourceGovernorActions::buildFailed);
        w.sourceGovernors()->addFromSource(dataFile(u"broken.c"_s));
        QVERIFY(failed.wait(WINDOW_TIMEOUT_MS) || !failed.isEmpty());
        // tst_source_governor: gcc and clang both put broken.c's error at 15:9.
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(u"broken.c:15:9: error:"_s), qPrintable(message));
        QVERIFY2(w.messageBar()->text().contains(u"broken.c:15:9: error:"_s), qPrintable(w.messageBar()->text()));
        QVERIFY(w.setupPanel()->sourceGovernorIds().isEmpty()); // nothing added

        // A kernel symbol the shim lacks is named.
        failed.clear();
        w.sourceGovernors()->addFromSource(dataFile(u"unsupported.c"_s));
        QVERIFY(failed.wait(WINDOW_TIMEOUT_MS) || !failed.isEmpty());
        QVERIFY2(failed.first().first().toString().contains(u"is not provided yet by idlescope's kernel shim"_s),
                 qPrintable(failed.first().first().toString()));
    }

    void aCrashIsNamedAndTheWindowSurvives()
    {
        MainWindow w;
        QVERIFY(showHopScenario(w));
        QSignalSpy built(w.sourceGovernors(), &SourceGovernorActions::built);
        QTemporaryDir dir;
        const QString crash = test::writeGovernor(dir.path(), kCrash);
        const SnapshotPtr s = nextSnapshot(w, [&] { w.sourceGovernors()->addFromSource(crash); });
        QVERIFY(s);
        QCOMPARE(built.size(), 1); // it builds; it crashes when it runs
        // kCrash dereferences NULL on its fourth select: entry 3, stream row 3.
        const QString errors = s->errors.join(u"\n"_s);
        QVERIFY2(errors.contains(u"SIGSEGV"_s) && errors.contains(u"entry 3"_s), qPrintable(errors));
        QVERIFY2(w.messageBar()->text().contains(u"SIGSEGV"_s), qPrintable(w.messageBar()->text()));
        QVERIFY(s->indexOf("ladder-latest") >= 0); // the other governors ran
        // The window still simulates.
        const SnapshotPtr next = nextSnapshot(w, [&] { w.setupPanel()->setGovernorChecked("teo-6.19", true); });
        QVERIFY(next);
        QVERIFY(next->indexOf("teo-6.19") >= 0);
    }

    void theCompilersWarningsAreShownOnEveryAdd()
    {
        // kWarns' #warning, as idlescope-cli prints it: after the first build (the first
        // window's) and after one found in the cache (the second's). Before, the window
        // showed no warning at all.
        QTemporaryDir dir;
        const QString warns = test::writeGovernor(dir.path(), kWarns);
        const QString where = warnsWarningAt(warns);
        QStringList shown;
        for (int window = 0; window < 2; ++window) {
            MainWindow w;
            QVERIFY(showHopScenario(w));
            QVERIFY(addSource(w, warns));
            shown << w.messageBar()->text();
            QVERIFY2(shown.last().contains(where), qPrintable(shown.last()));
        }
        const auto cli = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                                 dataFile(u"hop.csv"_s), u"--governor-source"_s, warns});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QCOMPARE(shown.first(), cli.err.trimmed());
        QCOMPARE(shown.last(), cli.err.trimmed());
    }

    void aSaveShowsTheWarningsOfItsBuild()
    {
        // Saved with kWarns' bytes, the file's warning (naming this file) is shown after its
        // run; saved back to hop.c's, none; saved with kWarns' again, the build found in the
        // cache shows it again. Before, a save showed no warning.
        MainWindow w;
        QVERIFY(showHopScenario(w));
        QTemporaryDir dir;
        const QString path = fileWith(dir, u"saved.c"_s, readAll(dataFile(u"hop.c"_s)));
        QVERIFY(!path.isEmpty() && addSource(w, path));
        const std::string id = (u"src:"_s + path).toStdString();
        const QString where = warnsWarningAt(path);
        for (int round = 0; round < 2; ++round) {
            SnapshotPtr s = nextSnapshot(w, [&] { QVERIFY(writeFile(path, governorSource(kWarns))); });
            QVERIFY(s && s->indexOf(id) >= 0);
            QVERIFY2(QTest::qWaitFor([&] { return w.messageBar()->text().contains(where); }, WINDOW_TIMEOUT_MS),
                     qPrintable(w.messageBar()->text()));
            s = nextSnapshot(w, [&] { QVERIFY(writeFile(path, readAll(dataFile(u"hop.c"_s)))); });
            QVERIFY(s && s->indexOf(id) >= 0);
            QVERIFY2(!w.messageBar()->text().contains(where), qPrintable(w.messageBar()->text()));
        }
    }

    void aSessionKeepsTheSourceGovernorByPath()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(u"hop.idlescope"_s);
        const QString hop = dataFile(u"hop.c"_s);
        const std::string id = (u"src:"_s + hop + u"@6.19"_s).toStdString();
        {
            MainWindow w;
            QVERIFY(showHopScenario(w));
            QVERIFY(addSource(w, hop, u"6.19"_s));
            QVERIFY(w.saveSessionTo(session).isEmpty());
        }
        QVERIFY(readAll(session).contains(QByteArray(id.c_str())));
        MainWindow w;
        QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, WINDOW_TIMEOUT_MS));
        const SnapshotPtr s = nextSnapshot(w, [&] { QVERIFY(w.openSession(session).isEmpty()); });
        QVERIFY(s);
        const int g = s->indexOf(id);
        QVERIFY2(g >= 0, qPrintable(s->errors.join(u"\n"_s)));
        QCOMPARE(states(*s->governors[std::size_t(g)].run), (std::vector<int>{0, 1, 2, 1, 0, 0}));
        QVERIFY(w.setupPanel()->sourceGovernorIds().contains(QString::fromStdString(id)));
        QVERIFY(w.sourceGovernors()->watch()->paths().contains(hop));
    }

    void aNamedGovernorIsShownSavedAndRenamedByItsName()
    {
        MainWindow w;
        const QString hop = dataFile(u"hop.c"_s);
        QVERIFY(showHopScenario(w));
        // The dialog proposes the file's base name, and takes the one typed instead.
        QString proposed;
        QSignalSpy built(w.sourceGovernors(), &SourceGovernorActions::built);
        QTimer::singleShot(0, [&] {
            QWidget *dialog = QApplication::activeModalWidget();
            QVERIFY(dialog);
            auto *path = dialog->findChild<QLineEdit *>(u"sourcePath"_s);
            auto *kernel = dialog->findChild<QLineEdit *>(u"sourceKernel"_s);
            auto *name = dialog->findChild<QLineEdit *>(u"sourceName"_s);
            QVERIFY(path && kernel && name);
            path->setText(hop);
            kernel->setText(u"6.19"_s);
            proposed = name->text();
            name->clear();
            QTest::keyClicks(name, u"my-hop"_s);
            path->setText(hop); // the name the user typed stays
            dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        });
        w.sourceGovernors()->addFromSourceAction()->trigger();
        QCOMPARE(proposed, u"hop"_s);
        QVERIFY(built.wait(WINDOW_TIMEOUT_MS) || !built.isEmpty());
        QCOMPARE(built.first().first().toString(), u"src:my-hop"_s);
        QVERIFY(QTest::qWaitFor([&] { return w.snapshot() && w.snapshot()->indexOf("src:my-hop") >= 0; },
                                WINDOW_TIMEOUT_MS));
        SnapshotPtr s = w.snapshot();
        int g = s->indexOf("src:my-hop");
        // hop.c's comment: C1 C2 C3 C2 C1 C1, under its name in the list, the table and the watch.
        QCOMPARE(states(*s->governors[std::size_t(g)].run), (std::vector<int>{0, 1, 2, 1, 0, 0}));
        QCOMPARE(governorCell(w, g), u"src:my-hop"_s);
        QCOMPARE(w.setupPanel()->sourceGovernorIds(), QStringList{u"src:my-hop"_s});
        QVERIFY(w.sourceGovernors()->watch()->paths().contains(hop));
        QVERIFY(w.sourceGovernors()->renameAction()->isEnabled());

        // The session keeps the name and the file it stands for.
        QTemporaryDir dir;
        const QString session = dir.filePath(u"named.idlescope"_s);
        QVERIFY(w.saveSessionTo(session).isEmpty());
        const QByteArray saved = readAll(session);
        QVERIFY2(saved.contains("\"variant\": \"src:my-hop\""), saved.constData());
        QVERIFY2(saved.contains("\"kernel\": \"6.19\""), saved.constData());
        QVERIFY2(saved.contains(("\"path\": \"" + hop + "\"").toUtf8()), saved.constData());

        // Renamed: the same run under the new name; a name of another file is refused.
        s = nextSnapshot(w, [&] { QVERIFY(w.sourceGovernors()->renameSourceGovernor(u"src:my-hop"_s, u"hop-b"_s)); });
        QVERIFY(s);
        QCOMPARE(s->indexOf("src:my-hop"), -1);
        g = s->indexOf("src:hop-b");
        QVERIFY(g >= 0);
        QCOMPARE(states(*s->governors[std::size_t(g)].run), (std::vector<int>{0, 1, 2, 1, 0, 0}));
        QCOMPARE(w.setupPanel()->sourceGovernorIds(), QStringList{u"src:hop-b"_s});
        QVERIFY(nameSourceGovernor("window", NamedSourceFile{dataFile(u"window.c"_s).toStdString(), {}}).ok());
        QVERIFY(!w.sourceGovernors()->renameSourceGovernor(u"src:hop-b"_s, u"window"_s));
        QCOMPARE(w.setupPanel()->sourceGovernorIds(), QStringList{u"src:hop-b"_s});
        // Taken by window.c, "window" is not proposed for another file.
        QCOMPARE(SourceGovernorActions::proposedName(dataFile(u"window.c"_s), QString()), u"window"_s);
        QCOMPARE(SourceGovernorActions::proposedName(u"/elsewhere/window.c"_s, QString()), u"window-2"_s);

        // A session names its files in a window that never saw them.
        QByteArray other = saved;
        other.replace("src:my-hop", "src:from-session");
        const QString otherSession = dir.filePath(u"other.idlescope"_s);
        QVERIFY(writeFile(otherSession, other));
        s = nextSnapshot(w, [&] { QVERIFY(w.openSession(otherSession).isEmpty()); });
        QVERIFY(s);
        g = s->indexOf("src:from-session");
        QVERIFY2(g >= 0, qPrintable(s->errors.join(u"\n"_s)));
        QCOMPARE(states(*s->governors[std::size_t(g)].run), (std::vector<int>{0, 1, 2, 1, 0, 0}));
        QCOMPARE(namedSourceFile("from-session")->path, hop.toStdString());
        QCOMPARE(namedSourceFile("from-session")->core.name(), std::string("6.19"));
    }

    void theDialogKeepsABadKernelVersionToFix()
    {
        MainWindow w;
        QVERIFY(showHopScenario(w));
        bool fileLabelFound = false, buddyIsThePath = false;
        bool stayedOpen = false;
        QString error;
        QSignalSpy failed(w.sourceGovernors(), &SourceGovernorActions::buildFailed);
        QTimer::singleShot(0, [&] {
            QWidget *dialog = QApplication::activeModalWidget();
            if (!dialog)
                return;
            auto *pathEdit = dialog->findChild<QLineEdit *>(u"sourcePath"_s);
            for (QLabel *l : dialog->findChildren<QLabel *>())
                if (l->text().contains(u"File:"_s)) {
                    fileLabelFound = true;
                    buddyIsThePath = l->buddy() == pathEdit;
                }
            auto *kernel = dialog->findChild<QLineEdit *>(u"sourceKernel"_s);
            pathEdit->setText(dataFile(u"hop.c"_s));
            // The name typed in the wrong field (the user's shot-4).
            QTest::keyClicks(kernel, u"menu-decay4"_s);
            dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
            stayedOpen = QApplication::activeModalWidget() == dialog && dialog->isVisible();
            if (auto *e = dialog->findChild<QLabel *>(u"sourceKernelError"_s); e && e->isVisible())
                error = e->text();
            dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->click();
        });
        w.sourceGovernors()->addFromSourceAction()->trigger();
        // "&File:" is a mnemonic for the path, not a literal ampersand.
        QVERIFY(fileLabelFound);
        QVERIFY(buddyIsThePath);
        QVERIFY(stayedOpen);
        QVERIFY2(error.contains(u"\u201cmenu-decay4\u201d is not a kernel version"_s), qPrintable(error));
        QVERIFY2(!error.contains(u"field"_s) && !error.contains(u"src:"_s), qPrintable(error)); // not the CLI's words
        QVERIFY(failed.isEmpty());
        QVERIFY(w.setupPanel()->sourceGovernorIds().isEmpty());
    }

    void theProposedNameKeepsTheFilesLetters()
    {
        // The user's "/…/sp ace ü/mü nu.c" was proposed as "m---nu" (one '-' per byte of ü).
        QCOMPARE(SourceGovernorActions::proposedName(u"/tmp/sp ace \u00fc/m\u00fc nu.c"_s, QString()), u"mu-nu"_s);
        // A character with no letter in it is one '-', whatever its UTF-8 or UTF-16 length.
        QCOMPARE(SourceGovernorActions::proposedName(u"/tmp/a\U0001F600b.c"_s, QString()), u"a-b"_s);
        QCOMPARE(SourceGovernorActions::proposedName(u"/tmp/menu-patched.c"_s, QString()), u"menu-patched"_s);
    }

    void aGovernorThatCrashesInItsFirstRunStaysToBeFixed()
    {
        // kCrash dies in its first run (entry 3, as in aCrashIsNamedAndTheWindowSurvives).
        // Before, it was taken out of the list and had to be added again; now it stays,
        // marked with its crash, watched, and the save that fixes it (hop.c's bytes) runs it.
        MainWindow w;
        QVERIFY(showHopScenario(w));
        QTemporaryDir dir;
        const QString path = fileWith(dir, u"fixme.c"_s, governorSource(kCrash));
        QVERIFY(!path.isEmpty());
        const QString id = u"src:"_s + path;
        SnapshotPtr s = nextSnapshot(w, [&] { w.sourceGovernors()->addFromSource(path); });
        QVERIFY(s);
        QCOMPARE(s->indexOf(id.toStdString()), -1);
        QVERIFY(w.setupPanel()->sourceGovernorIds().contains(id));
        QVERIFY(w.sourceGovernors()->watch()->paths().contains(path));
        const QString failure = w.setupPanel()->sourceFailure(id);
        QVERIFY2(failure.contains(u"crashed in select() at entry 3 (stream row 3): SIGSEGV"_s), qPrintable(failure));
        QVERIFY2(w.messageBar()->text().contains(u"SIGSEGV"_s), qPrintable(w.messageBar()->text()));
        QVERIFY2(!w.messageBar()->text().contains(u"was not added"_s), qPrintable(w.messageBar()->text()));

        s = nextSnapshot(w, [&] { QVERIFY(writeFile(path, readAll(dataFile(u"hop.c"_s)))); });
        QVERIFY(s);
        const int g = s->indexOf(id.toStdString());
        QVERIFY(g >= 0);
        QCOMPARE(states(*s->governors[std::size_t(g)].run), (std::vector<int>{0, 1, 2, 1, 0, 0}));
        QVERIFY(s->governors[std::size_t(g)].stale.isEmpty());
        QCOMPARE(w.setupPanel()->sourceFailure(id), QString());
    }

    void anAddThatDoesNotRunLeavesNothing()
    {
        MainWindow w;
        QVERIFY(showHopScenario(w));
        QSignalSpy built(w.sourceGovernors(), &SourceGovernorActions::built);
        QSignalSpy failed(w.sourceGovernors(), &SourceGovernorActions::buildFailed);
        // Its initcall line is missing: it builds, and registers no governor.
        QTemporaryDir dir;
        w.sourceGovernors()->addFromSource(
            test::writeGovernor(dir.path(), {.name = "unregistered", .select = "return 0;\n", .registered = false}));
        QVERIFY(QTest::qWaitFor([&] { return !failed.isEmpty(); }, WINDOW_TIMEOUT_MS));
        QCOMPARE(built.size(), 1); // it compiles; its first run finds no governor registered
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(u"was not added"_s) && message.contains(u"registers no governor"_s),
                 qPrintable(message));
        QVERIFY(w.messageBar()->text().contains(u"was not added"_s));
        // No row, no watched file, no Parameters box (the user's "src:empty" box).
        QVERIFY(w.setupPanel()->sourceGovernorIds().isEmpty());
        QVERIFY(w.sourceGovernors()->watch()->paths().isEmpty());
        for (const QLabel *l : w.parameterPanel()->findChildren<QLabel *>())
            QVERIFY2(!l->text().contains(u"unregistered"_s), qPrintable(l->text()));
        QVERIFY(w.parameterPanel()->findChildren<QLabel *>().size() > 0); // ladder-latest's box is there
    }

    void aHugeMessageKeepsTheWindowsSize()
    {
        // A binary file's compiler output was megabytes: the bar laid out all of it,
        // froze the window for minutes and grew it to 7838x32767 px.
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, WINDOW_TIMEOUT_MS));
        QApplication::processEvents();
        const QSize before = w.size();
        // 1 MB in one line without a space: only its first 240 characters are laid out.
        const QString oneLine(1 << 20, u'x');
        w.messageBar()->showMessage(MessageBar::Kind::Error, oneLine);
        QApplication::processEvents();
        QCOMPARE(w.size(), before);
        QCOMPARE(w.messageBar()->text().size(), 1 << 20); // the message itself is kept whole
        QCOMPARE(w.messageBar()->shownText(), QString(240, u'x') + u"\u2026"_s);
        // 20,000 lines: the first six, and how many more (20,000 - 6).
        QStringList lines;
        for (int i = 1; i <= 20000; ++i)
            lines << u"binary.c:%1:1: error: stray '\\377' in program"_s.arg(i);
        w.messageBar()->showMessage(MessageBar::Kind::Error, lines.join(u'\n'));
        QApplication::processEvents();
        QCOMPARE(w.size(), before);
        QCOMPARE(w.messageBar()->shownText(),
                 QStringList(lines.mid(0, 6)).join(u'\n') + u"\n\u2026 (19994 more lines)"_s);
        QVERIFY(w.messageBar()->height() < before.height() / 2);
    }

    void firstDifferenceIsTheCliDiffs()
    {
        MainWindow w;
        const QString hop = dataFile(u"hop.c"_s);
        const SnapshotPtr s = showHopScenarioWithHopC(w);
        QVERIFY(s);
        QVERIFY(w.sourceGovernors()->firstDifferenceAction()->isEnabled());
        // Its shortcut is its own (an ambiguous one would fire neither action).
        const QKeySequence key = w.sourceGovernors()->firstDifferenceAction()->shortcut();
        int sameKey = 0;
        for (QAction *top : w.menuBar()->actions())
            if (top->menu())
                for (QAction *a : top->menu()->actions())
                    sameKey += !key.isEmpty() && a->shortcuts().contains(key) ? 1 : 0;
        QCOMPARE(sameKey, 1);
        // tst_source_governor's diffFindsWhereHopLeavesTheLadder computes this by hand:
        // 3 entries differ in 3 of 6 rows, the first at entry 1 (stream row 1).
        const auto r = runCli({u"diff-governors"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor"_s, u"ladder-latest"_s, u"--governor-source"_s, hop,
                               u"--name"_s, u"hop"_s, u"--first"_s, u"1"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith(u"ladder-latest and src:hop decide differently on 3 entries in 3 of 6 stream rows"_s),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(u"\nentry 1 (stream row 1, entry 0 of the row)\n"_s), qPrintable(r.out));

        QSignalSpy shown(w.sourceGovernors(), &SourceGovernorActions::differenceShown);
        w.sourceGovernors()->firstDifferenceAction()->trigger();
        QVERIFY(shown.wait(WINDOW_TIMEOUT_MS) || !shown.isEmpty());
        const FirstDifference &d = w.sourceGovernors()->lastDifference();
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.sourceIndex, s->indexOf((u"src:"_s + hop).toStdString()));
        QCOMPARE(d.variantIndex, s->indexOf("ladder-latest"));
        QCOMPARE(d.diff.differingEntries, 3);
        QCOMPARE(d.diff.differingSpans, 3);
        QCOMPARE(d.diff.first.size(), std::size_t(1));
        QCOMPARE(d.diff.first.front().entry, 1);
        QCOMPARE(d.diff.first.front().span, 1);
        // hop: C2 there, ladder-latest C1 (the CLI's lines for entry 1).
        QCOMPARE(d.diff.first.front().a.state, 1);
        QCOMPARE(d.diff.first.front().b.state, 0);
        QVERIFY(r.out.contains(u"  ladder-latest:  state 0 C1, stop_tick 1"_s));
        QVERIFY(r.out.contains(u"  src:hop:        state 1 C2, stop_tick 1"_s));
        // The entry is selected, and the count is said.
        QCOMPARE(w.viewState()->selectedGovernor(), d.sourceIndex);
        QCOMPARE(w.viewState()->selectedEntry(), 1);
        QVERIFY2(shown.last().first().toString().contains(u"decide differently on 3 entries in 3 of 6 stream rows"_s),
                 qPrintable(shown.last().first().toString()));
    }

    void firstDifferenceTakesTheVariantOfTheFilesKernel()
    {
        // Of menu's variants, the one of the file's --kernel; else the nearest (the newer on a tie).
        const std::vector<std::string> list{"menu-6.14", "ladder-latest", "menu-6.19", "oracle"};
        QCOMPARE(SourceGovernorActions::patchedVariantIndex("src:/x/menu-hop.c@6.19", list), 2);
        QCOMPARE(SourceGovernorActions::patchedVariantIndex("src:/x/menu-hop.c@6.14", list), 0);
        QCOMPARE(SourceGovernorActions::patchedVariantIndex("src:/x/menu-hop.c@6.16", list),
                 0); // 2 from 6.14, 3 from 6.19
        QCOMPARE(SourceGovernorActions::patchedVariantIndex("src:/x/menu-hop.c@6.17", list), 2); // a tie: the newer
        // No teo shown and several built-ins: none is guessed.
        QCOMPARE(SourceGovernorActions::patchedVariantIndex("src:/x/teo-hop.c@6.19", list), -1);

        // hop.c as "menu-hop.c" for 6.19, with menu-6.14 listed before menu-6.19.
        MainWindow w;
        QVERIFY(showHopScenario(w));
        QTemporaryDir dir;
        const QString path = dir.filePath(u"menu-hop.c"_s);
        QVERIFY(writeFile(path, readAll(dataFile(u"hop.c"_s))));
        QVERIFY(nextSnapshot(w, [&] { w.setupPanel()->setGovernorChecked("menu-6.14", true); }));
        QVERIFY(nextSnapshot(w, [&] { w.setupPanel()->setGovernorChecked("menu-6.19", true); }));
        QSignalSpy built(w.sourceGovernors(), &SourceGovernorActions::built);
        w.sourceGovernors()->addFromSource(path, u"6.19"_s, u"menu-hop"_s);
        QVERIFY(built.wait(WINDOW_TIMEOUT_MS) || !built.isEmpty());
        QVERIFY(QTest::qWaitFor([&] { return w.snapshot() && w.snapshot()->indexOf("src:menu-hop") >= 0; },
                                WINDOW_TIMEOUT_MS));
        const SnapshotPtr s = w.snapshot();
        QVERIFY(s->indexOf("menu-6.14") >= 0 && s->indexOf("menu-6.14") < s->indexOf("menu-6.19"));

        QSignalSpy shown(w.sourceGovernors(), &SourceGovernorActions::differenceShown);
        w.sourceGovernors()->firstDifferenceAction()->trigger();
        QVERIFY(shown.wait(WINDOW_TIMEOUT_MS) || !shown.isEmpty());
        const FirstDifference &d = w.sourceGovernors()->lastDifference();
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.sourceIndex, s->indexOf("src:menu-hop"));
        QCOMPARE(d.variantIndex, s->indexOf("menu-6.19"));
        // The count is the command line's against menu-6.19.
        const auto r = runCli({u"diff-governors"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor"_s, u"menu-6.19"_s, u"--governor-source"_s, path,
                               u"--kernel"_s, u"6.19"_s, u"--name"_s, u"menu-hop"_s, u"--first"_s, u"1"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QRegularExpressionMatch m =
            QRegularExpression(u"menu-6.19 and src:menu-hop decide differently on (\\d+) entries"_s).match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QCOMPARE(d.diff.differingEntries, m.captured(1).toInt());
        // Both are named where the count is said, with what differs at the first entry.
        const auto *result = w.findChild<QLabel *>(u"firstDifferenceResult"_s);
        QVERIFY(result);
        const EntryDifference &x = d.diff.first.front();
        QVERIFY2(result->text().startsWith(
                     u"src:menu-hop vs menu-6.19: %1 entries differ, first at entry %2 "_s.arg(d.diff.differingEntries)
                         .arg(x.entry)),
                 qPrintable(result->text()));
        if (x.a.stopTick != x.b.stopTick)
            QVERIFY2(result->text().contains(u"stop_tick %1 vs %2"_s.arg(int(x.a.stopTick)).arg(int(x.b.stopTick))),
                     qPrintable(result->text()));
    }
};

QTEST_MAIN(TestSourceGovernorGui)
#include "tst_source_governor_gui.moc"
