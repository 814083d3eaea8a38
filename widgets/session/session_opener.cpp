// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/session_opener.h"

#include "widgets/panels/setup_panel.h"
#include "widgets/session/recent_files.h"
#include "widgets/session/recovery_store.h"
#include "widgets/session/session.h"

#include <utility>

namespace idlescope {

SessionOpener::SessionOpener(SetupPanel *setup, QObject *parent) : QObject(parent), m_setup(setup) {}

SessionOpener::~SessionOpener() = default;

QString SessionOpener::openSession(const QString &path)
{
    auto s = loadSession(path);
    if (!s) {
        RecentFiles().remove(path);
        emit recentFilesChanged();
        return QString::fromStdString(s.error().toString());
    }
    // Before anything of it is built: the user's yes for each source file it names.
    if (const QString refused = allowSources(path, s->scenario); !refused.isEmpty())
        return tr("Could not open session %1: %2").arg(path, refused);
    m_pendingView = std::make_unique<SessionView>(s->view);
    // The title and recent files take the session when its snapshot arrives
    // (snapshotShown); a workload that fails to build is refused by runFailed.
    m_openingSession = path;
    emit scenarioRead(s->scenario);
    return {};
}

QString SessionOpener::openFile(const QString &path)
{
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".idlescope"))) {
        const QString err = openSession(path);
        if (!err.isEmpty())
            emit errorOccurred(err);
        return err;
    }
    // The panel reports its own errors (no such file) through errorOccurred -> the message bar.
    QString reported;
    const auto c = connect(m_setup, &SetupPanel::errorOccurred, this, [&reported](const QString &m) { reported = m; });
    const bool ok = lower.endsWith(QLatin1String(".csv")) || lower.endsWith(QLatin1String(".csv.gz"))
                        ? m_setup->loadStreamFile(path)
                        : m_setup->loadTraceFile(path);
    disconnect(c);
    if (!ok)
        return reported.isEmpty() ? tr("%1: could not be opened").arg(path) : reported;
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
    return tr("Could not open session %1: %2").arg(std::exchange(m_openingSession, QString()), message);
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
    const QStringList orphans = m_recovery->orphans();
    if (orphans.isEmpty())
        return std::nullopt;
    // Only the newest copy is offered: older ones are from earlier ends, already superseded.
    for (qsizetype i = 1; i < orphans.size(); ++i)
        RecoveryStore::removeOrphan(orphans[i]);
    const QString copy = orphans.first();
    auto recovered = loadSession(copy);
    if (!recovered) {
        RecoveryStore::removeOrphan(copy);
        emit errorOccurred(
            tr("The recovery copy could not be read: %1").arg(QString::fromStdString(recovered.error().toString())));
        return std::nullopt;
    }
    return LeftWork{copy, std::move(*recovered)};
}

void SessionOpener::forgetLeftWork(const QString &path)
{
    RecoveryStore::removeOrphan(path);
}

} // namespace idlescope
