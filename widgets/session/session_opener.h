// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file session_opener.h
 * Opening what the window is given to open: a `.idlescope` session (File →
 * Open session, Open recent, the command line), or a stream CSV or kernel
 * trace named on the command line (the .desktop file's %f), and what becomes
 * of it until its first snapshot.
 *
 * A session is the window's only once it simulated: until its snapshot
 * arrives it is *pending* (its view is applied then, its path becomes the
 * window's session and goes to the front of the recent files). A session
 * whose workload or target fails to build is refused in its own words
 * ("Could not open session FILE: …") and the scenario on screen stays. An
 * unreadable file is refused at once: its error names the file, the file
 * leaves the recent files, nothing is applied (errorOccurred(), once its read
 * ended). A file given at start-up that
 * fails leaves the default scenario in its place (once: the fallback).
 *
 * A session that names governor source files is shown only once the user
 * allowed building and running each of them (source_consent.h): the question
 * comes before anything is built; a no refuses the session.
 *
 * The file is read, parsed, its source files hashed and the table file its
 * target names read on a worker thread (a pool of its own: a read stuck on a
 * hung network file holds none of the simulation's threads), as the trace
 * page imports a trace: the GUI thread never waits on a file. While it
 * reads, readingStarted() and readingEnded() bracket it (the window's opening
 * bar shows it, with Cancel); the question and everything after it happen on
 * the GUI thread when the read is done. A read cancelled or superseded by
 * another session is dropped when it ends.
 *
 * The other files the window reads when asked go the same way, one read at a
 * time (a new one supersedes the one running): a table file (File → Open
 * table, openTable()) and the work a window that ended without closing left
 * (readLeftWork()): each shows in the opening bar with Cancel, and its result
 * reaches the GUI thread only if it is still wanted.
 *
 * Unsaved work is kept in a recovery copy (recovery_store.h) once recovery is
 * enabled; the work a window that ended without closing left is found here
 * (leftWork(), readLeftWork()), and the window asks whether to restore it.
 */
#pragma once

#include "core/states/idle_state_table.h"
#include "widgets/session/session_json.h"
#include "widgets/session/source_consent.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace idlescope {

class RecoveryStore;
class SetupPanel;

class SessionOpener : public QObject {
    Q_OBJECT
public:
    /// Streams and traces are loaded as the workload of @p setup.
    explicit SessionOpener(SetupPanel *setup, QObject *parent = nullptr);
    ~SessionOpener() override;

    /// Starts reading session @p path on the worker (a read still running is dropped) and
    /// returns "". When it is read and allowed, emits scenarioRead() (the window shows and
    /// simulates it) and the session is pending; when it is not, errorOccurred() with the
    /// error naming the file. Either way readingEnded() comes first.
    QString openSession(const QString &path);
    /// A file from the command line: a session (.idlescope, read as openSession() does), a
    /// stream (.csv, .csv.gz), else a kernel trace, as the workload. A stream's or trace's
    /// error known at once is returned (the setup panel reports its own) and nothing is applied.
    QString openFile(const QString &path);
    /// The session being read ("" when none).
    QString readingSession() const { return m_reading; }
    bool isReading() const { return !m_reading.isEmpty(); }
    /// What the read is doing now ("reading the file", "hashing its governor source files",
    /// "reading its table file", "looking for unsaved work").
    QString readingStep() const;
    /// Stops waiting for the session being read (the opening bar's Cancel): the scenario on
    /// screen stays, readingEnded() and readingCancelled() say so. A read blocked in the kernel
    /// ends when the file answers; its result is dropped.
    void cancelReading();
    /// Tests: how a session file is read (loadSession() by default), called on the worker.
    using SessionReader = std::function<Result<Session>(const QString &path)>;
    void setSessionReader(SessionReader reader) { m_reader = std::move(reader); }
    /// Tests: called on the worker before any file of a read is read (a test blocks it, as a
    /// hung network file blocks a read).
    using ReadGate = std::function<void(const QString &path)>;
    void setReadGateForTesting(ReadGate gate) { m_gate = std::move(gate); }

    /// Starts reading the table JSON @p path on the worker (the opening bar shows it, with
    /// Cancel); tableRead() when it is read, errorOccurred() naming the file when not.
    void openTable(const QString &path);
    /// Who asks whether a session's source files may be built and run (none: a scripted run,
    /// every such session is refused with the way to allow it).
    void setSourceConsentAsker(SourceConsentAsker asker) { m_askConsent = std::move(asker); }
    /// The question for the source files of @p scenario (read from @p label: a session, a
    /// recovery copy): "" when each may be built, else why not (askSourceConsent()).
    QString allowSources(const QString &label, const ScenarioSpec &scenario)
    {
        return askSourceConsent(label, scenario, m_askConsent, m_consents);
    }
    /// The same for files hashed already (sourceConsentChecks(), on a worker): reads nothing.
    QString allowSources(const QString &label, const std::vector<SourceConsentCheck> &checks)
    {
        return askSourceConsent(label, checks, m_askConsent, m_consents);
    }
    /// Session @p path was saved: it leads the recent files.
    void sessionSaved(const QString &path);

    /// A snapshot was shown. The pending session's view (null when none) to apply to the
    /// views; the session itself is adopted by sessionAdopted() after that, in snapshotShown().
    std::unique_ptr<SessionView> takePendingView() { return std::move(m_pendingView); }
    /// A snapshot was shown (after takePendingView()): the fallback is over, and a pending session
    /// becomes the window's (sessionAdopted(), recent files).
    void snapshotShown();
    /// The run (or a trace's import) failed with @p message: a pending session is refused
    /// (sessionRefused()). The message in the words of what was being opened ("" when nothing
    /// was: @p message says it all).
    QString runFailed(const QString &message);
    /// The simulation was cancelled: the pending session is dropped (the scenario on screen stays).
    void cancelled();
    /// Nothing is on screen yet and the first scenario failed: true once, when the default
    /// scenario should take its place (it keeps that failure's message in view).
    bool startFallback();
    /// The default scenario is being shown in place of a failed start-up file.
    bool isFallingBack() const { return m_fallingBack; }
    /// The session path waiting for its first snapshot ("" for none).
    QString pendingSession() const { return m_openingSession; }

    /// Set a session view to apply with the next snapshot (a recovered copy's).
    void setPendingView(const SessionView &view);

    /// Keep recovery copies in @p dir (off until called: tests and scripted runs keep nothing).
    void enableRecovery(const QString &dir);
    bool isRecoveryEnabled() const { return m_recovery != nullptr; }
    /// This window's recovery copy ("" while recovery is off).
    QString recoveryPath() const;
    /// Writes the recovery copy (a no-op success while recovery is off).
    Status saveRecovery(const Session &work);
    /// Nothing is left to recover (saved, or closed on purpose): the copy goes.
    void discardRecovery();
    /// Work left by a window that ended without closing, from its recovery copy.
    struct LeftWork {
        QString path;                              ///< the copy (forgetLeftWork() removes it)
        Session session;                           ///< what it held (its source files stamped by readLeftWork())
        std::vector<SourceConsentCheck> sources;   ///< its source files, hashed by readLeftWork()
        std::optional<IdleStateTable> targetTable; ///< its target's table file, read by readLeftWork()
    };
    /// The newest copy left (older ones are removed: later ends superseded them); none when
    /// recovery is off or nothing was left. A copy that does not read is removed and reported
    /// (errorOccurred()). It reads on the calling thread: the window uses readLeftWork().
    std::optional<LeftWork> leftWork();
    /// leftWork() on the worker (the opening bar shows it, with Cancel), its source files hashed
    /// and its target's table file read there too: leftWorkRead() when it ended (takeLeftWork()
    /// gives what was found), after errorOccurred() for a copy that did not read. Cancelled, or
    /// superseded by another read, it ends too, having found nothing (the copy stays for the
    /// next start). False, and nothing read, while recovery is off.
    bool readLeftWork();
    /// What the last readLeftWork() found (once; none when nothing was left).
    std::optional<LeftWork> takeLeftWork() { return std::exchange(m_leftWork, std::nullopt); }
    /// The copy @p path of leftWork() was restored or declined: it goes.
    static void forgetLeftWork(const QString &path);

signals:
    /// A session was read: show and simulate @p scenario; it is the one opened (no undo step).
    /// @p targetTable is the table file its target names, read with it on the worker (none for
    /// another target, or a file that did not read): the table without the session's edits.
    void scenarioRead(const ScenarioSpec &scenario, const std::optional<IdleStateTable> &targetTable);
    /// Session @p path simulated: it is the window's session now (title, nothing to undo).
    void sessionAdopted(const QString &path);
    /// A session read and allowed did not open after all: its scenario failed to build (a
    /// workload path naming /dev/zero or a FIFO). @p message names the session and the
    /// field; a script stops on it (the window shows the scenario it had, or the default).
    void sessionRefused(const QString &message);
    /// The table file @p message names, the target of the session just read (scenarioRead()),
    /// was read but is no table: the session's own table is shown. A warning about @p workload.
    void targetTableNotUsed(const QString &message, const WorkloadSourceSpec &workload);
    /// The recent-files list changed.
    void recentFilesChanged();
    /// An error of opening to show (a session that could not be read or was not allowed, a
    /// recovery copy that could not be read).
    void errorOccurred(const QString &message);
    /// Session @p path is being read on the worker.
    void readingStarted(const QString &path);
    /// The read ended (read, refused or cancelled), before anything else is emitted for it.
    void readingEnded();
    /// The read was cancelled: @p message says what stays on screen.
    void readingCancelled(const QString &message);
    /// openTable() read table file @p path: @p table is its table, as the file gives it.
    void tableRead(const QString &path, const IdleStateTable &table);
    /// readLeftWork() ended: read, failed, cancelled or superseded (takeLeftWork(): what it
    /// found, if anything). Once for each readLeftWork() that returned true.
    void leftWorkRead();

private:
    /// How far the worker has come (written there, read here), and the request to stop.
    struct ReadProgress {
        /// 0 reading the file, 1 hashing its source files, 2 looking for work left, 3 reading its table file
        std::atomic<int> step{0};
        std::atomic<bool> cancel{false};
    };
    /// What the worker gives back: what to do with its result on the GUI thread.
    struct ReadJob {
        std::uint64_t serial = 0;     ///< m_serial when it was started
        std::function<void()> finish; ///< run on the GUI thread if the read is still wanted
    };
    /// A session as the worker read it.
    struct SessionRead {
        std::optional<Session> session;
        QString error;
        std::vector<SourceConsentCheck> sources;   ///< the files the consent asks about, read and hashed
        std::optional<IdleStateTable> targetTable; ///< its target's table file as read (none: no file)
        QString targetTableNote;                   ///< why that file, read, is not used ("" when it is, or is none)
    };
    using Read = std::function<std::function<void()>(ReadProgress &progress)>;
    /// Runs @p read on the file threads as the read of @p path (readingStarted(), the opening
    /// bar, Cancel); the function it returns runs on the GUI thread once it ended, unless it
    /// was cancelled or superseded by another read: @p dropped runs then instead (a read whose
    /// listener waits for its end either way).
    void startRead(const QString &path, int firstStep, Read read, std::function<void()> dropped = {});
    void readFinished();
    /// The session read and hashed: ask for its source files, then show it.
    void adopt(const QString &path, SessionRead job);

    SetupPanel *m_setup;
    /// View of a session being opened, applied when its snapshot arrives.
    std::unique_ptr<SessionView> m_pendingView;
    /// A session being opened: it becomes the window's session when its snapshot arrives.
    QString m_openingSession;
    bool m_fallingBack = false; ///< applying the default scenario after a first run failed
    std::unique_ptr<RecoveryStore> m_recovery;
    SourceConsentAsker m_askConsent;
    SourceConsentStore m_consents;
    SessionReader m_reader;
    ReadGate m_gate;
    std::optional<LeftWork> m_leftWork; ///< what readLeftWork() found, until taken
    QString m_reading;                  ///< the session being read ("" for none)
    std::uint64_t m_serial = 0;         ///< bumped by every read started or cancelled
    std::function<void()> m_dropped;    ///< the running read's startRead() @p dropped, until it ends
    std::shared_ptr<ReadProgress> m_progress;
    QFutureWatcher<ReadJob> m_watcher;
};

} // namespace idlescope
