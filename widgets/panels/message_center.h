// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file message_center.h
 * What the window's MessageBar shows, and for how long: the policy between
 * errors (a failed load, a failed run, a refused edit), warnings about the
 * workload being set up (a trace's import warnings) and the warnings a
 * snapshot brings (governors that could not run).
 *
 * - An error or a warning stays until a run *asked for after it* succeeds: the
 *   run already under way when it was shown (its generation or an older one)
 *   does not clear it, since that run knew nothing of the failure.
 * - A warning about a workload file stays while that file is the workload
 *   (the trace's runs, the CPU its import picked, slider moves): only a
 *   snapshot of another workload clears it.
 * - A snapshot's own warnings replace whatever was shown.
 * - A failure heard twice (a trace that fails its import, then the run that
 *   read it) keeps the first message, which may say more (the session being
 *   opened); a failure worded anew is shown.
 * - The default scenario shown in place of a start-up file that failed keeps
 *   that failure in view.
 * Errors and warnings also go to the status bar for ten seconds.
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

class QStatusBar;

namespace idlescope {

class MessageBar;

class MessageCenter : public QObject {
    Q_OBJECT
public:
    /// Decides for @p bar; @p status (may be null) also gets errors and warnings.
    MessageCenter(MessageBar *bar, QStatusBar *status, QObject *parent = nullptr);

    /// The runner started job @p generation: a message shown from now on outlives it.
    void runStarted(quint64 generation);
    /// An error that must stay visible (a failed load, a refused edit).
    void showError(const QString &text);
    /// A warning about @p about, the workload being set up: it stays while that is the workload.
    void showWarning(const QString &text, const WorkloadSourceSpec &about);
    /// A warning about something done at once (Copy as command's caveats): the next run asked
    /// for clears it, and it goes to the bar only (the status bar shows what was done).
    void showNote(const QString &text);
    /// A run (or a trace's import) failed with @p message. @p reworded, when not empty, is
    /// the message in the words of what was being done (the session being opened): it is
    /// always shown; otherwise a @p message the bar already ends with is not shown again.
    void runFailed(const QString &message, const QString &reworded = {});
    /// A snapshot of job @p generation, simulating @p workload, is shown with @p errors (its
    /// governors that could not run). @p keepFailure: it is the default scenario standing in
    /// for a start-up file that failed, whose message stays.
    void snapshotShown(const QStringList &errors, quint64 generation, const WorkloadSourceSpec &workload,
                       bool keepFailure);

private:
    void show(bool error, const QString &text);

    MessageBar *m_bar;
    QStatusBar *m_status;
    quint64 m_lastStarted = 0; ///< generation of the runner's latest job
    /// Generation running when the bar got its message: only a snapshot asked for later
    /// (a newer generation) clears it, not the run that was already under way.
    quint64 m_messageGeneration = 0;
    /// The workload the bar's warning is about; none before the first warning (a default
    /// WorkloadSourceSpec is a generator, which a note must not be taken to be about).
    std::optional<WorkloadSourceSpec> m_warningSource;
};

} // namespace idlescope
