// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_file_watch.h
 * The files of the governors built from source, watched for saves: an edit
 * of menu.c in any editor re-simulates it, like an edit-compile-run loop.
 * Editors save in two ways, and both are seen: in place (the file changes)
 * or by writing a new file and renaming it over the old one (the watched
 * file is gone, so QFileSystemWatcher drops it; the directory is watched as
 * well and the file taken up again once it is back). Bursts of change
 * notifications (a save that truncates, then writes) become one changed().
 */
#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

namespace idlescope {

/// What a governor source file holds now: a hash of its bytes ("" when it cannot be read).
QString sourceFileStamp(const QString &path);

class SourceFileWatch : public QObject {
    Q_OBJECT
public:
    explicit SourceFileWatch(QObject *parent = nullptr);

    /// Watch exactly @p paths (absolute file paths).
    void setPaths(const QStringList &paths);
    QStringList paths() const { return m_paths; }
    /// The quiet time after a notification before changed() (ms, default 150).
    void setSettleMs(int ms) { m_settle.setInterval(ms); }

signals:
    /// @p path was saved (or removed, or put back): its content may differ.
    void changed(const QString &path);

private:
    void noticed(const QString &path);
    void settle();

    QFileSystemWatcher m_watcher;
    QStringList m_paths;
    QSet<QString> m_pending;
    QTimer m_settle;
};

} // namespace idlescope
