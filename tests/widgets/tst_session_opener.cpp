// SPDX-License-Identifier: GPL-3.0-or-later
// Opening sessions and command-line files (widgets/session/session_opener.h), without a
// window: what is refused at once (naming the file, applying nothing), what stays pending
// until the session's first snapshot, what a failed run of it says, and the start-up fallback.
#include "tests/test_paths.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/session/recent_files.h"
#include "widgets/session/recovery_store.h"
#include "widgets/session/session.h"
#include "widgets/session/session_opener.h"

#include "core/source_governor/source_build.h"
#include "core/source_governor/source_consent.h"
#include "widgets/runner/source_file_watch.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace idlescope;

namespace {

/// What the window holds: a setup panel showing the default scenario's workload and an
/// opener on it, with what the opener emitted: the scenarios it read (scenarioRead()) and
/// the sessions it adopted (sessionAdopted()).
struct OpenerRig {
    SetupPanel setup;
    SessionOpener opener{&setup};
    int read = 0;
    QSignalSpy adopted{&opener, &SessionOpener::sessionAdopted};

    OpenerRig()
    {
        setup.setWorkload(defaultScenario().workload);
        QObject::connect(&opener, &SessionOpener::scenarioRead, &opener, [this] { ++read; });
    }
};

/// Opens session @p path as the window does (its read runs on the worker) and waits for the
/// read to end: "" when it was read and allowed (scenarioRead() came), else the error it
/// reported (errorOccurred(), emitted right after readingEnded()).
QString openAndWait(SessionOpener &opener, const QString &path)
{
    QSignalSpy ended(&opener, &SessionOpener::readingEnded);
    QSignalSpy errors(&opener, &SessionOpener::errorOccurred);
    if (const QString err = opener.openSession(path); !err.isEmpty())
        return err;
    if (!ended.wait(10000) && ended.isEmpty())
        return QStringLiteral("the read did not end in 10 s");
    return errors.isEmpty() ? QString() : errors.first().first().toString();
}

} // namespace

class TestSessionOpener : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void unreadableSessionIsRefusedAtOnce();
    void aFifoSessionIsRefusedOnTheWorker();
    void sessionIsAdoptedWithItsFirstSnapshot();
    void sessionWhoseRunFailsIsRefusedInItsWords();
    void cancelledSessionIsNotAdopted();
    void missingFilesOnTheCommandLine();
    void fallbackHappensOncePerStart();
    void leftWorkIsTheNewestCopy();
    void unreadableLeftWorkIsReportedAndRemoved();
    void aSessionRunsNoSourceWithoutAYes();
    void aScriptedOpenSaysHowToAllowTheSource();
    void aLinkIsAskedAboutByItsTarget();
    void aTableFileReadButNotUsedIsSaid();
    void fileNamesAreEscapedInMessages();
    void aSourceStampNeverWaits();

private:
    /// A session of the default scenario on @p target, its view at 1000..5000 ns, saved in m_dir.
    QString writeSession(const QString &name, const QString &target);

    QTemporaryDir m_settings;
    QTemporaryDir m_dir;
};

void TestSessionOpener::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("idlescope-tests"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
}

void TestSessionOpener::init()
{
    RecentFiles().clear();
}

QString TestSessionOpener::writeSession(const QString &name, const QString &target)
{
    Session s;
    s.scenario = defaultScenario();
    s.scenario.target.kind = TargetKind::Builtin;
    s.scenario.target.id = target;
    s.scenario.target.table = *builtinTable(target);
    s.view.rangeStartNs = 1000;
    s.view.rangeEndNs = 5000;
    const QString path = m_dir.filePath(name);
    if (!saveSession(s, path).ok())
        return {};
    return path;
}

void TestSessionOpener::unreadableSessionIsRefusedAtOnce()
{
    OpenerRig rig;
    const QString path = m_dir.filePath(QStringLiteral("broken.idlescope"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{ not json");
    f.close();
    RecentFiles().add(path); // it opened once; it does not any more

    QSignalSpy ended(&rig.opener, &SessionOpener::readingEnded);
    QSignalSpy errors(&rig.opener, &SessionOpener::errorOccurred);
    QCOMPARE(rig.opener.openSession(path), QString()); // read on the worker: nothing known yet
    QCOMPARE(rig.opener.readingSession(), path);
    QVERIFY(ended.wait(10000) || !ended.isEmpty());
    QCOMPARE(rig.opener.readingSession(), QString());
    QCOMPARE(errors.size(), 1);
    const QString err = errors.first().first().toString();
    QVERIFY2(err.contains(path), qPrintable(err)); // the error names the file
    QCOMPARE(rig.read, 0);                         // nothing applied: the scenario on screen stays
    QCOMPARE(rig.opener.pendingSession(), QString());
    QVERIFY(!rig.opener.takePendingView());
    QVERIFY(!RecentFiles().files().contains(path)); // and it leaves the recent files
    QCOMPARE(rig.setup.workload().kind, defaultScenario().workload.kind);
}

void TestSessionOpener::aFifoSessionIsRefusedOnTheWorker()
{
    // Issue 30: a FIFO named as a session, with a writer that is open and never writes. The
    // read (on the worker) refuses it as no file, without waiting for the writer; the window
    // is told, and the scenario on screen stays.
    OpenerRig rig;
    const QString fifo = m_dir.filePath(QStringLiteral("pipe.idlescope"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const int writer = ::open(QFile::encodeName(fifo).constData(), O_RDWR | O_CLOEXEC); // never blocks (fifo(7))
    QVERIFY(writer >= 0);
    const QString err = openAndWait(rig.opener, fifo);
    ::close(writer);
    QCOMPARE(err,
             QStringLiteral("%1: is a FIFO (named pipe), not a file (a session must be a regular file)").arg(fifo));
    QCOMPARE(rig.read, 0);
    QCOMPARE(rig.opener.readingSession(), QString());
}

void TestSessionOpener::sessionIsAdoptedWithItsFirstSnapshot()
{
    OpenerRig rig;
    QStringList targetsRead;
    connect(&rig.opener, &SessionOpener::scenarioRead, this,
            [&targetsRead](const ScenarioSpec &s) { targetsRead << s.target.id; });
    const QString path = writeSession(QStringLiteral("skx.idlescope"), QStringLiteral("intel-skx"));
    QVERIFY(!path.isEmpty());

    QCOMPARE(openAndWait(rig.opener, path), QString());
    QCOMPARE(targetsRead, QStringList{QStringLiteral("intel-skx")}); // the scenario written, to show
    // Pending until it simulated: not yet the window's, not yet recent.
    QCOMPARE(rig.opener.pendingSession(), path);
    QCOMPARE(rig.adopted.count(), 0);
    QVERIFY(RecentFiles().files().isEmpty());

    const std::unique_ptr<SessionView> view = rig.opener.takePendingView();
    QVERIFY(view);
    QCOMPARE(view->rangeStartNs, 1000);
    QCOMPARE(view->rangeEndNs, 5000);
    rig.opener.snapshotShown();
    QCOMPARE(rig.adopted.count(), 1);
    QCOMPARE(rig.adopted.at(0).at(0).toString(), path);
    QCOMPARE(RecentFiles().files(), QStringList{path});
    QCOMPARE(rig.opener.pendingSession(), QString());
    // Later snapshots adopt nothing more.
    rig.opener.snapshotShown();
    QCOMPARE(rig.adopted.count(), 1);
}

void TestSessionOpener::sessionWhoseRunFailsIsRefusedInItsWords()
{
    OpenerRig rig;
    const QString path = writeSession(QStringLiteral("fails.idlescope"), QStringLiteral("intel-skx"));
    QCOMPARE(openAndWait(rig.opener, path), QString());

    QCOMPARE(rig.opener.runFailed(QStringLiteral("gone.csv: no such file")),
             QStringLiteral("Could not open session %1: gone.csv: no such file").arg(path));
    QVERIFY(!rig.opener.takePendingView()); // its view is not applied to the scenario on screen
    rig.opener.snapshotShown();             // the scenario on screen simulated again
    QCOMPARE(rig.adopted.count(), 0);
    QVERIFY(RecentFiles().files().isEmpty());
    // With no session being opened, the failure's own message says it all.
    QCOMPARE(rig.opener.runFailed(QStringLiteral("gone.csv: no such file")), QString());
}

void TestSessionOpener::cancelledSessionIsNotAdopted()
{
    OpenerRig rig;
    const QString path = writeSession(QStringLiteral("cancel.idlescope"), QStringLiteral("intel-skx"));
    QCOMPARE(openAndWait(rig.opener, path), QString());
    rig.opener.cancelled();
    QVERIFY(!rig.opener.takePendingView());
    rig.opener.snapshotShown();
    QCOMPARE(rig.adopted.count(), 0);
}

void TestSessionOpener::missingFilesOnTheCommandLine()
{
    OpenerRig rig;
    QSignalSpy errors(&rig.opener, &SessionOpener::errorOccurred);
    const QString csv = m_dir.filePath(QStringLiteral("gone.csv"));
    const QString trace = m_dir.filePath(QStringLiteral("gone.dat"));
    const QString session = m_dir.filePath(QStringLiteral("gone.idlescope"));

    // A stream or a trace: the setup panel's own error, the workload unchanged.
    QCOMPARE(rig.opener.openFile(csv), QStringLiteral("%1: no such file").arg(csv));
    QCOMPARE(rig.opener.openFile(trace), QStringLiteral("%1: no such file").arg(trace));
    QCOMPARE(rig.setup.workload().kind, defaultScenario().workload.kind);
    QCOMPARE(errors.count(), 0); // the panel reports those itself

    // A session: read on the worker, then refused naming it, for the message bar.
    QSignalSpy ended(&rig.opener, &SessionOpener::readingEnded);
    QCOMPARE(rig.opener.openFile(session), QString());
    QVERIFY(ended.wait(10000) || !ended.isEmpty());
    QCOMPARE(errors.count(), 1);
    const QString err = errors.at(0).at(0).toString();
    QVERIFY2(err.contains(session), qPrintable(err));
    QCOMPARE(rig.read, 0);
}

void TestSessionOpener::fallbackHappensOncePerStart()
{
    OpenerRig rig;
    QVERIFY(!rig.opener.isFallingBack());
    QVERIFY(rig.opener.startFallback()); // the start-up file failed: the default scenario takes its place
    QVERIFY(rig.opener.isFallingBack());
    QVERIFY(!rig.opener.startFallback()); // and if that fails too, nothing more is tried
    rig.opener.snapshotShown();           // the default scenario is on screen
    QVERIFY(!rig.opener.isFallingBack());
}

void TestSessionOpener::leftWorkIsTheNewestCopy()
{
    QTemporaryDir recovery;
    // Two copies left by windows that ended without closing (no lock held): an older on
    // intel-skx, a newer on intel-icx.
    const QString older = recovery.filePath(QStringLiteral("recovery-1-1.idlescope"));
    const QString newer = recovery.filePath(QStringLiteral("recovery-2-1.idlescope"));
    QVERIFY(QFile::copy(writeSession(QStringLiteral("old.idlescope"), QStringLiteral("intel-skx")), older));
    QVERIFY(QFile::copy(writeSession(QStringLiteral("new.idlescope"), QStringLiteral("intel-icx")), newer));
    QFile f(older);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-3600), QFileDevice::FileModificationTime));
    f.close();

    OpenerRig rig;
    QVERIFY(!rig.opener.leftWork()); // recovery off: nothing is looked for
    rig.opener.enableRecovery(recovery.path());
    const std::optional<SessionOpener::LeftWork> left = rig.opener.leftWork();
    QVERIFY(left);
    QCOMPARE(left->path, newer);
    QCOMPARE(left->session.scenario.target.id, QStringLiteral("intel-icx"));
    QCOMPARE(left->session.view.rangeEndNs, 5000);
    QVERIFY(!QFile::exists(older)); // superseded by the newer end
    QVERIFY(QFile::exists(newer));  // until it is restored or declined
    SessionOpener::forgetLeftWork(left->path);
    QVERIFY(!QFile::exists(newer));
    QVERIFY(!rig.opener.leftWork());
}

void TestSessionOpener::unreadableLeftWorkIsReportedAndRemoved()
{
    QTemporaryDir recovery;
    const QString copy = recovery.filePath(QStringLiteral("recovery-3-1.idlescope"));
    QFile f(copy);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": "); // cut short by the crash
    f.close();
    OpenerRig rig;
    rig.opener.enableRecovery(recovery.path());
    QSignalSpy errors(&rig.opener, &SessionOpener::errorOccurred);
    QVERIFY(!rig.opener.leftWork());
    QCOMPARE(errors.count(), 1);
    const QString err = errors.first().first().toString();
    QVERIFY2(err.startsWith(QStringLiteral("The recovery copy could not be read: ")) && err.contains(copy),
             qPrintable(err));
    QVERIFY(!QFile::exists(copy));
}

void TestSessionOpener::aSessionRunsNoSourceWithoutAYes()
{
    // A colleague's tarball: gov-ok.c and a session naming it as "src:gov-ok.c", unpacked in
    // a folder of its own; the window started elsewhere. Before, the window built and ran the
    // file at once, and took the relative path from the folder it was started in.
    using namespace source_governor;
    const QString folder = m_dir.filePath(QStringLiteral("tarball"));
    QVERIFY(QDir().mkpath(folder));
    const QString source = folder + QStringLiteral("/gov-ok.c");
    QVERIFY(QFile::copy(QStringLiteral(IDLESCOPE_TEST_DATA "/source_governors/hostile/gov-ok.c"), source));
    QFile::setPermissions(source, QFile::ReadOwner | QFile::WriteOwner);
    QFile templ(QStringLiteral(IDLESCOPE_TEST_DATA "/source_governors/hostile/session-template.idlescope"));
    QVERIFY(templ.open(QIODevice::ReadOnly));
    const QString session = folder + QStringLiteral("/experiment.idlescope");
    QFile out(session);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(templ.readAll().replace("GOVERNOR_PATH", "gov-ok.c"));
    out.close();
    const QString started = QDir::currentPath();
    QVERIFY(QDir::setCurrent(m_settings.path()));

    requireSourceConsent(true);
    OpenerRig rig;
    ScenarioSpec shown;
    QObject::connect(&rig.opener, &SessionOpener::scenarioRead, &rig.opener, [&](const ScenarioSpec &s) { shown = s; });
    QList<SourceConsentRequest> asked;
    bool yes = false;
    rig.opener.setSourceConsentAsker([&](const SourceConsentRequest &r) {
        asked << r;
        return yes;
    });
    // The hash shown is the file's SHA-256, as sha256sum prints it (QCryptographicHash here).
    QFile src(source);
    QVERIFY(src.open(QIODevice::ReadOnly));
    const QString sha =
        QString::fromLatin1(QCryptographicHash::hash(src.readAll(), QCryptographicHash::Sha256).toHex());
    src.close();

    // No: the session is refused, nothing read, and the build itself refuses the file.
    QString err = openAndWait(rig.opener, session);
    QVERIFY2(err.contains(QStringLiteral("you did not allow building and running the governor source %1 (sha256 %2)")
                              .arg(source, sha)),
             qPrintable(err));
    QCOMPARE(rig.read, 0);
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked[0].session, session);
    QCOMPARE(asked[0].source, source); // the session's folder's, not the current folder's
    QCOMPARE(asked[0].sha256, sha);
    const auto refused = buildSourceGovernor(source.toStdString());
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("needs your yes") != std::string::npos);

    // Yes: opened, the governor being the file in the session's folder; remembered, so that
    // the same content opens without a question.
    yes = true;
    err = openAndWait(rig.opener, session);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QCOMPARE(rig.read, 1);
    QCOMPARE(asked.size(), 2);
    QCOMPARE(shown.governors.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(shown.governors[1].variant), QStringLiteral("src:") + source);
    // Stamped by the read, on its worker (the governor picker hashed it on the GUI thread):
    // with no header beside it, the stamp is the file's SHA-256.
    QCOMPARE(shown.governors[1].sourceStamp, sha);
    QVERIFY(openAndWait(rig.opener, session).isEmpty());
    QCOMPARE(asked.size(), 2);
    QVERIFY(SourceConsentStore().hashes().contains(sha));

    // A changed file asks again.
    QVERIFY(src.open(QIODevice::Append));
    src.write("/* changed */\n");
    src.close();
    yes = false;
    QVERIFY(!openAndWait(rig.opener, session).isEmpty());
    QCOMPARE(asked.size(), 3);
    QVERIFY(asked[2].sha256 != sha);

    // A header beside it is built with it: the question names it, and its change asks again
    // (the yes covered the .c only, and a changed gov.h was compiled in unasked).
    yes = true;
    QFile header(folder + QStringLiteral("/gov.h"));
    QVERIFY(header.open(QIODevice::WriteOnly));
    header.write("#define GOV_OK 1\n");
    header.close();
    QVERIFY(openAndWait(rig.opener, session).isEmpty());
    QCOMPARE(asked.size(), 4);
    QCOMPARE(asked[3].headers, QStringList{QStringLiteral("gov.h")});
    QVERIFY(openAndWait(rig.opener, session).isEmpty());
    QCOMPARE(asked.size(), 4);
    QVERIFY(header.open(QIODevice::Append));
    header.write("#define GOV_CHANGED 1\n");
    header.close();
    yes = false;
    err = openAndWait(rig.opener, session);
    QCOMPARE(asked.size(), 5);
    QVERIFY(asked[4].sha256 != asked[3].sha256);
    QVERIFY2(err.contains(QStringLiteral("%1 with the headers beside it (gov.h)").arg(source)), qPrintable(err));

    QVERIFY(QDir::setCurrent(started));
    requireSourceConsent(false);
    forgetSourceConsents();
}

void TestSessionOpener::aScriptedOpenSaysHowToAllowTheSource()
{
    // `idlescope --screenshot X SESSION` sets no asker: refused, with the way to allow it.
    using namespace source_governor;
    const QString source = m_dir.filePath(QStringLiteral("scripted.c"));
    QVERIFY(QFile::copy(QStringLiteral(IDLESCOPE_TEST_DATA "/source_governors/hostile/gov-ok.c"), source));
    QFile::setPermissions(source, QFile::ReadOwner | QFile::WriteOwner);
    QFile edit(source); // content of its own: gov-ok.c's may have been allowed by the test above
    QVERIFY(edit.open(QIODevice::Append));
    edit.write("/* scripted */\n");
    edit.close();
    QFile templ(QStringLiteral(IDLESCOPE_TEST_DATA "/source_governors/hostile/session-template.idlescope"));
    QVERIFY(templ.open(QIODevice::ReadOnly));
    const QString session = m_dir.filePath(QStringLiteral("scripted.idlescope"));
    QFile out(session);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(templ.readAll().replace("GOVERNOR_PATH", source.toUtf8()));
    out.close();
    requireSourceConsent(true);
    OpenerRig rig;
    const QString err = openAndWait(rig.opener, session);
    requireSourceConsent(false);
    QVERIFY2(err.contains(QStringLiteral("which you have not allowed")), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("--allow-source")), qPrintable(err));
    QCOMPARE(rig.read, 0);
}

void TestSessionOpener::aLinkIsAskedAboutByItsTarget()
{
    // A hostile user's h/link.c -> /etc/passwd: the question said "File: link.c", and the
    // content hashed and built was the link's target. It names the target now.
    using namespace source_governor;
    const QString folder = m_dir.filePath(QStringLiteral("linked"));
    const QString elsewhere = m_dir.filePath(QStringLiteral("elsewhere"));
    QVERIFY(QDir().mkpath(folder) && QDir().mkpath(elsewhere));
    const QString target = elsewhere + QStringLiteral("/secret.c");
    QVERIFY(QFile::copy(QStringLiteral(IDLESCOPE_TEST_DATA "/source_governors/hostile/gov-ok.c"), target));
    QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    QFile edit(target); // content of its own: gov-ok.c's may have been allowed above
    QVERIFY(edit.open(QIODevice::Append));
    edit.write("/* behind a link */\n");
    edit.close();
    QVERIFY(QFile::link(target, folder + QStringLiteral("/link.c")));
    QFile templ(QStringLiteral(IDLESCOPE_TEST_DATA "/source_governors/hostile/session-template.idlescope"));
    QVERIFY(templ.open(QIODevice::ReadOnly));
    const QString session = folder + QStringLiteral("/link.idlescope");
    QFile out(session);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(templ.readAll().replace("GOVERNOR_PATH", "link.c"));
    out.close();

    requireSourceConsent(true);
    OpenerRig rig;
    QList<SourceConsentRequest> asked;
    rig.opener.setSourceConsentAsker([&](const SourceConsentRequest &r) {
        asked << r;
        return false;
    });
    const QString err = openAndWait(rig.opener, session);
    requireSourceConsent(false);
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked[0].source, folder + QStringLiteral("/link.c"));
    QCOMPARE(asked[0].resolved, QFileInfo(target).canonicalFilePath());
    const QString shown = QStringLiteral("link.c -> ") + QFileInfo(target).canonicalFilePath();
    QCOMPARE(sourceConsentFileText(asked[0]), shown);
    QVERIFY2(sourceConsentQuestion(asked[0]).startsWith(QStringLiteral("File: ") + shown + QLatin1Char('\n')),
             qPrintable(sourceConsentQuestion(asked[0])));
    // The refusal names both too.
    QVERIFY2(err.contains(folder + QStringLiteral("/link.c -> ") + QFileInfo(target).canonicalFilePath()),
             qPrintable(err));
    QCOMPARE(rig.read, 0);
}

void TestSessionOpener::aTableFileReadButNotUsedIsSaid()
{
    // A hostile user's target-shadow.idlescope: "target": {"kind": "file", "path":
    // "/etc/shadow"} was read on the worker and dropped without a word (the session's own
    // table was shown). It is still shown, and the window says why the file is not used.
    const QString notATable = m_dir.filePath(QStringLiteral("shadow"));
    QFile f(notATable);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("root:*:19000:0:99999:7:::\n");
    f.close();
    Session s;
    s.scenario = defaultScenario();
    s.scenario.target.kind = TargetKind::File;
    s.scenario.target.path = notATable;
    const QString path = m_dir.filePath(QStringLiteral("shadow.idlescope"));
    QVERIFY(saveSession(s, path));
    OpenerRig rig;
    std::optional<IdleStateTable> fileTable = IdleStateTable();
    connect(&rig.opener, &SessionOpener::scenarioRead, this,
            [&fileTable](const ScenarioSpec &, const std::optional<IdleStateTable> &t) { fileTable = t; });
    QSignalSpy notes(&rig.opener, &SessionOpener::targetTableNotUsed);
    QCOMPARE(openAndWait(rig.opener, path), QString());
    QCOMPARE(rig.read, 1); // opened, with its own table
    QVERIFY(!fileTable);
    QCOMPARE(notes.size(), 1);
    const QString note = notes.at(0).at(0).toString();
    QVERIFY2(note.startsWith(
                 QStringLiteral("Session %1: its table file (target.path) is not used: %2").arg(path, notATable)),
             qPrintable(note));
    QVERIFY2(note.endsWith(QStringLiteral("the table saved in the session is shown")), qPrintable(note));
    // A table file that is one is used, and nothing is said.
    s.scenario.target.path = test::kitDir() + QStringLiteral("/tables/pseries-p10.json");
    QVERIFY(saveSession(s, path));
    QCOMPARE(openAndWait(rig.opener, path), QString());
    QVERIFY(fileTable);
    QCOMPARE(fileTable->id, std::string("pseries-p10"));
    QCOMPARE(notes.size(), 1);
}

void TestSessionOpener::fileNamesAreEscapedInMessages()
{
    // A hostile user's "x\nSHA-256: ok.idlescope": its name, printed raw in the error,
    // faked a line of its own on stderr. Every message names it escaped, on one line.
    const QString path = m_dir.filePath(QStringLiteral("x\nSHA-256: ok.idlescope"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{");
    f.close();
    OpenerRig rig;
    const QString err = openAndWait(rig.opener, path);
    QVERIFY2(err.startsWith(m_dir.path() + QStringLiteral("/x\\nSHA-256: ok.idlescope:1: ")), qPrintable(err));
    QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
    // The same in the words of a session whose run failed.
    const QString good = writeSession(QStringLiteral("y\nSHA-256: ok.idlescope"), QStringLiteral("intel-skx"));
    QCOMPARE(openAndWait(rig.opener, good), QString());
    const QString refused = rig.opener.runFailed(QStringLiteral("gone.csv: no such file"));
    QCOMPARE(refused, QStringLiteral("Could not open session %1/y\\nSHA-256: ok.idlescope: gone.csv: no such file")
                          .arg(m_dir.path()));
}

void TestSessionOpener::aSourceStampNeverWaits()
{
    // The window reads a session's source file for its stamp on its own thread: a src: FIFO
    // blocked it for ever, a link to /dev/zero kept it at 100 % CPU. Both are no file now.
    const QString fifo = m_dir.filePath(QStringLiteral("stamp-fifo.c"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    const QString zero = m_dir.filePath(QStringLiteral("stamp-zero.c"));
    QVERIFY(QFile::link(QStringLiteral("/dev/zero"), zero));
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(sourceFileStamp(fifo), QString());
    QCOMPARE(sourceFileStamp(zero), QString());
    QVERIFY(clock.elapsed() < 5000);
}

QTEST_MAIN(TestSessionOpener)
#include "tst_session_opener.moc"
