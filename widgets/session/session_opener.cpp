// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/session_opener.h"

#include "core/common/text_cells.h"
#include "core/source_governor/source_governor.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/source_file_watch.h"
#include "widgets/session/file_threads.h"
#include "widgets/session/recent_files.h"
#include "widgets/session/recovery_store.h"
#include "widgets/session/session.h"
#include "widgets/session/table_file.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace idlescope {

namespace {

/// The stamp of each source file of @p scenario as it is now (the governor picker's, which
/// would otherwise read the file on the GUI thread); a session never carries one.
void stampSources(ScenarioSpec &scenario)
{
    for (GovernorSpec &g : scenario.governors)
        if (const Result<SourceGovernorSpec> spec = parseSourceGovernorId(g.variant); spec)
            g.sourceStamp = sourceFileStamp(QString::fromStdString(spec->path));
}

/// What leftWork() finds in @p dir (never @p ownCopy): plain values, so that it runs on a worker.
Result<std::optional<SessionOpener::LeftWork>> findLeftWork(const QString &dir, const QString &ownCopy)
{
    const QStringList orphans = RecoveryStore::orphans(dir, ownCopy);
    if (orphans.isEmpty())
        return std::optional<SessionOpener::LeftWork>();
    // Only the newest copy is offered: older ones are from earlier ends, already superseded.
    for (qsizetype i = 1; i < orphans.size(); ++i)
        RecoveryStore::removeOrphan(orphans[i]);
    const QString copy = orphans.first();
    auto recovered = loadSession(copy);
    if (!recovered) {
        RecoveryStore::removeOrphan(copy);
        return recovered.error();
    }
    return std::optional<SessionOpener::LeftWork>(SessionOpener::LeftWork{copy, std::move(*recovered), {}});
}

/// The table file @p scenario's target names, as it is now: read here, on the worker, so that
/// the target picker takes it as the table without edits and never reads the file itself. None
/// for another target, or for a file that does not read any more (the scenario's own table
/// stands for it then, as it always did).
/// A table file read but not usable (a user's "target.path": "/etc/shadow" was read and
/// dropped without a word) is said in @p note: why it is not used, and that the session's
/// own table stands for it.
std::optional<IdleStateTable> readTargetTable(const ScenarioSpec &scenario, QString *note = nullptr)
{
    if (scenario.target.kind != TargetKind::File || scenario.target.path.isEmpty())
        return std::nullopt;
    Result<IdleStateTable> table = readTableFile(scenario.target.path);
    if (!table) {
        if (note)
            *note = QCoreApplication::translate("idlescope::SessionOpener",
                                                "its table file (target.path) is not used: %1; the table saved "
                                                "in the session is shown")
                        .arg(QString::fromStdString(table.error().toString()));
        return std::nullopt;
    }
    return std::move(*table);
}

/// @p path as a message names it (printableFileName(): a newline in it fakes no line).
QString shown(const QString &path)
{
    return QString::fromStdString(printableFileName(path.toStdString()));
}

QString recoveryError(const Error &e)
{
    return QCoreApplication::translate("idlescope::SessionOpener", "The recovery copy could not be read: %1")
        .arg(QString::fromStdString(e.toString()));
}

} // namespace

SessionOpener::SessionOpener(SetupPanel *setup, QObject *parent) : QObject(parent), m_setup(setup)
{
    connect(&m_watcher, &QFutureWatcher<ReadJob>::finished, this, &SessionOpener::readFinished);
}

// A read still running is left to end on its own: it holds copies only (path, reader, progress).
SessionOpener::~SessionOpener() = default;

void SessionOpener::startRead(const QString &path, int firstStep, Read read, std::function<void()> dropped)
{
    if (m_progress)
        m_progress->cancel.store(true); // an older read still running is dropped
    // What the older read owes its listener is said once this one runs (m_dropped is set only
    // while a read runs: its end or its cancel clears it).
    const std::function<void()> superseded = std::exchange(m_dropped, std::move(dropped));
    const std::uint64_t serial = ++m_serial;
    m_reading = path;
    m_progress = std::make_shared<ReadProgress>();
    m_progress->step.store(firstStep);
    emit readingStarted(path);
    m_watcher.setFuture(
        QtConcurrent::run(&fileThreads(), [path, serial, progress = m_progress, gate = m_gate, read = std::move(read)] {
            if (gate)
                gate(path);
            return ReadJob{serial, read(*progress)};
        }));
    if (superseded)
        superseded();
}

QString SessionOpener::openSession(const QString &path)
{
    startRead(path, 0, [this, path, reader = m_reader](ReadProgress &progress) -> std::function<void()> {
        // On the worker: only copies are touched here; `this` is used by what it returns, on
        // the GUI thread.
        SessionRead job;
        Result<Session> s = reader ? reader(path) : loadSession(path);
        if (!s) {
            job.error = QString::fromStdString(s.error().toString());
        } else if (!progress.cancel.load()) { // dropped: no need to hash its sources
            // Hashed here, asked on the GUI thread: the question itself reads nothing.
            progress.step.store(1);
            job.sources = sourceConsentChecks(s->scenario);
            stampSources(s->scenario);
            progress.step.store(3);
            job.targetTable = readTargetTable(s->scenario, &job.targetTableNote);
            job.session = std::move(*s);
        }
        return [this, path, job = std::move(job)] { adopt(path, job); };
    });
    return {};
}

void SessionOpener::openTable(const QString &path)
{
    startRead(path, 0, [this, path](ReadProgress &) -> std::function<void()> {
        Result<IdleStateTable> table = readTableFile(path);
        if (!table)
            return [this, error = QString::fromStdString(table.error().toString())] { emit errorOccurred(error); };
        return [this, path, table = std::move(*table)] { emit tableRead(path, table); };
    });
}

bool SessionOpener::readLeftWork()
{
    if (!m_recovery)
        return false;
    // Cancelled or superseded, the read still ends for whoever waits for it (the window's
    // recoveryOffered()), having found nothing: the copy stays where it is, for the next offer.
    const auto foundNothing = [this] {
        m_leftWork.reset();
        emit leftWorkRead();
    };
    startRead(
        m_recovery->dir(), 2,
        [this, dir = m_recovery->dir(), own = m_recovery->path()](ReadProgress &progress) -> std::function<void()> {
            auto left = findLeftWork(dir, own);
            if (!left)
                return [this, error = recoveryError(left.error())] {
                    emit errorOccurred(error);
                    emit leftWorkRead();
                };
            if (*left && !progress.cancel.load()) {
                progress.step.store(1);
                (*left)->sources = sourceConsentChecks((*left)->session.scenario);
                stampSources((*left)->session.scenario);
                progress.step.store(3);
                (*left)->targetTable = readTargetTable((*left)->session.scenario);
            }
            return [this, found = std::move(*left)] {
                m_leftWork = found;
                emit leftWorkRead();
            };
        },
        foundNothing);
    return true;
}

QString SessionOpener::readingStep() const
{
    if (!m_progress || m_reading.isEmpty())
        return {};
    switch (m_progress->step.load()) {
    case 0: return tr("reading the file");
    case 1: return tr("hashing its governor source files");
    case 3: return tr("reading its table file");
    default: return tr("looking for unsaved work");
    }
}

void SessionOpener::cancelReading()
{
    if (m_reading.isEmpty())
        return;
    const QString path = std::exchange(m_reading, QString());
    m_progress->cancel.store(true);
    ++m_serial; // whatever the worker gives back is dropped
    const std::function<void()> dropped = std::exchange(m_dropped, {});
    emit readingEnded();
    emit readingCancelled(tr("Opening %1 cancelled: the scenario on screen stays").arg(shown(path)));
    if (dropped)
        dropped();
}

void SessionOpener::readFinished()
{
    if (m_watcher.future().resultCount() == 0)
        return;
    ReadJob job = m_watcher.result();
    // A read cancelled, or superseded by another, is dropped.
    if (job.serial != m_serial || m_reading.isEmpty())
        return;
    m_reading.clear();
    m_dropped = nullptr; // it ended: it owes nothing more
    emit readingEnded();
    job.finish();
}

void SessionOpener::adopt(const QString &path, SessionRead job)
{
    if (!job.session) {
        RecentFiles().remove(path);
        emit recentFilesChanged();
        emit errorOccurred(job.error);
        return;
    }
    // Before anything of it is built: the user's yes for each source file it names.
    if (const QString refused = askSourceConsent(path, job.sources, m_askConsent, m_consents); !refused.isEmpty()) {
        emit errorOccurred(tr("Could not open session %1: %2").arg(shown(path), refused));
        return;
    }
    m_pendingView = std::make_unique<SessionView>(job.session->view);
    // The title and recent files take the session when its snapshot arrives
    // (snapshotShown); a workload that fails to build is refused by runFailed.
    m_openingSession = path;
    emit scenarioRead(job.session->scenario, job.targetTable);
    if (!job.targetTableNote.isEmpty())
        emit targetTableNotUsed(tr("Session %1: %2").arg(shown(path), job.targetTableNote),
                                job.session->scenario.workload);
}

QString SessionOpener::openFile(const QString &path)
{
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".idlescope")))
        return openSession(path); // its errors come when it is read (errorOccurred)
    // The panel reports its own errors (no such file) through errorOccurred -> the message bar.
    QString reported;
    const auto c = connect(m_setup, &SetupPanel::errorOccurred, this, [&reported](const QString &m) { reported = m; });
    const bool ok = lower.endsWith(QLatin1String(".csv")) || lower.endsWith(QLatin1String(".csv.gz"))
                        ? m_setup->loadStreamFile(path)
                        : m_setup->loadTraceFile(path);
    disconnect(c);
    if (!ok)
        return reported.isEmpty() ? tr("%1: could not be opened").arg(shown(path)) : reported;
    return {};
}

void SessionOpener::sessionSaved(const QString &path)
{
    RecentFiles().add(path);
    emit recentFilesChanged();
}

void SessionOpener::snapshotShown()
{
    m_fallingBack = false;
    if (m_openingSession.isEmpty())
        return;
    const QString path = std::exchange(m_openingSession, QString());
    RecentFiles().add(path);
    emit recentFilesChanged();
    emit sessionAdopted(path);
}

QString SessionOpener::runFailed(const QString &message)
{
    m_pendingView.reset();
    if (m_openingSession.isEmpty())
        return {};
    const QString refused =
        tr("Could not open session %1: %2").arg(shown(std::exchange(m_openingSession, QString())), message);
    emit sessionRefused(refused);
    return refused;
}

void SessionOpener::cancelled()
{
    m_openingSession.clear();
    m_pendingView.reset();
}

bool SessionOpener::startFallback()
{
    return !std::exchange(m_fallingBack, true);
}

void SessionOpener::setPendingView(const SessionView &view)
{
    m_pendingView = std::make_unique<SessionView>(view);
}

void SessionOpener::enableRecovery(const QString &dir)
{
    m_recovery = std::make_unique<RecoveryStore>(dir);
}

QString SessionOpener::recoveryPath() const
{
    return m_recovery ? m_recovery->path() : QString();
}

Status SessionOpener::saveRecovery(const Session &work)
{
    return m_recovery ? m_recovery->save(work) : Status(Ok{});
}

void SessionOpener::discardRecovery()
{
    if (m_recovery)
        m_recovery->discard();
}

std::optional<SessionOpener::LeftWork> SessionOpener::leftWork()
{
    if (!m_recovery)
        return std::nullopt;
    auto left = findLeftWork(m_recovery->dir(), m_recovery->path());
    if (!left) {
        emit errorOccurred(recoveryError(left.error()));
        return std::nullopt;
    }
    return std::move(*left);
}

void SessionOpener::forgetLeftWork(const QString &path)
{
    RecoveryStore::removeOrphan(path);
}

} // namespace idlescope
