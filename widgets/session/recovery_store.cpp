// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/recovery_store.h"

#include "widgets/session/session.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>

#include <atomic>

namespace idlescope {

namespace {

const QString kPrefix = QStringLiteral("recovery-");

/// The lock beside recovery copy @p copyPath.
QString lockPathOf(const QString &copyPath)
{
    QString p = copyPath;
    p.chop(static_cast<int>(qstrlen(SESSION_SUFFIX)));
    return p + QStringLiteral("lock");
}

} // namespace

RecoveryStore::RecoveryStore(const QString &dir) : m_dir(dir)
{
    QDir().mkpath(dir);
    // Two windows of one process (tests) or a process id used again must not
    // share a copy: the name also counts the stores this process made.
    static std::atomic<int> made{0};
    const QString base =
        QDir(dir).filePath(kPrefix + QStringLiteral("%1-%2.").arg(QCoreApplication::applicationPid()).arg(made++));
    m_path = base + QString::fromLatin1(SESSION_SUFFIX);
    m_lock = std::make_unique<QLockFile>(lockPathOf(m_path));
    m_lock->setStaleLockTime(0); // only a lock whose process is gone is stale
    m_lock->tryLock(0);
}

RecoveryStore::~RecoveryStore() = default; // the lock is released, the copy stays

Status RecoveryStore::save(const Session &session)
{
    return saveSession(session, m_path);
}

void RecoveryStore::discard()
{
    QFile::remove(m_path);
}

QStringList RecoveryStore::orphans(const QString &dir, const QString &ownCopy)
{
    QStringList out;
    const QFileInfoList copies =
        QDir(dir).entryInfoList({kPrefix + QStringLiteral("*.") + QString::fromLatin1(SESSION_SUFFIX)}, QDir::Files,
                                QDir::Time);
    for (const QFileInfo &f : copies) {
        const QString path = f.absoluteFilePath();
        if (path == QFileInfo(ownCopy).absoluteFilePath())
            continue;
        QLockFile lock(lockPathOf(path));
        lock.setStaleLockTime(0);
        if (lock.tryLock(0)) // its window is gone (released, or a dead process's stale lock)
            out << path;
    }
    return out;
}

void RecoveryStore::removeOrphan(const QString &path)
{
    QFile::remove(path);
    QFile::remove(lockPathOf(path));
}

QString RecoveryStore::defaultDir()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("recovery"));
}

} // namespace idlescope
