// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file recovery_store.h
 * The recovery copies of unsaved work: every window that has one writes its
 * scenario to a session file of its own in a recovery folder (atomically,
 * as every session), holds a lock beside it while it runs, and removes both
 * when it closes normally. A copy whose lock is free at the next start was
 * left by an idlescope that ended without closing (a crash, a killed
 * session): that is what the next start offers to restore.
 *
 * Files: recovery-<pid>-<n>.idlescope and recovery-<pid>-<n>.lock (QLockFile:
 * a lock whose process is gone counts as free, whatever its age).
 */
#pragma once

#include "core/common/error.h"

#include <QString>
#include <QStringList>

#include <memory>

class QLockFile;

namespace idlescope {

struct Session;

class RecoveryStore {
public:
    /// Takes this window's place in @p dir (created if missing).
    explicit RecoveryStore(const QString &dir);
    ~RecoveryStore();
    RecoveryStore(const RecoveryStore &) = delete;
    RecoveryStore &operator=(const RecoveryStore &) = delete;

    /// This window's recovery copy (it may not exist yet).
    QString path() const { return m_path; }
    /// Writes the copy (the previous one survives an error).
    Status save(const Session &session);
    /// Removes this window's copy (a normal close, or nothing left unsaved).
    void discard();

    /// Copies left by windows that ended without closing, newest first (never this one's).
    QStringList orphans() const { return orphans(m_dir, m_path); }
    /// The same for folder @p dir and a window's own copy @p ownCopy: plain values, so that a
    /// worker thread can look while the window goes on saving its copy.
    static QStringList orphans(const QString &dir, const QString &ownCopy);
    /// The folder the copies are in.
    QString dir() const { return m_dir; }
    /// Removes a copy of orphans() (restored, or declined).
    static void removeOrphan(const QString &path);

    /// The folder idlescope uses: the application data location's "recovery".
    static QString defaultDir();

private:
    QString m_dir;
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace idlescope
