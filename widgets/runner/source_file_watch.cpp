// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/source_file_watch.h"

#include "core/source_governor/source_consent.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <utility>

namespace idlescope {

QString sourceFileStamp(const QString &path)
{
    // On the window's thread: read as the build reads it, a regular file only and never
    // waiting (a src: FIFO would block the window for ever, /dev/zero never ends).
    const Result<std::string> hash = source_governor::sourceFileSha256(path.toStdString());
    return hash ? QString::fromStdString(*hash) : QString();
}

SourceFileWatch::SourceFileWatch(QObject *parent) : QObject(parent)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(150);
    connect(&m_settle, &QTimer::timeout, this, &SourceFileWatch::settle);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &SourceFileWatch::noticed);
    // A save by rename replaces the file: its directory changes.
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this](const QString &dir) {
        for (const QString &p : std::as_const(m_paths))
            if (QFileInfo(p).absolutePath() == dir)
                noticed(p);
    });
}

void SourceFileWatch::setPaths(const QStringList &paths)
{
    if (paths == m_paths)
        return;
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_paths = paths;
    for (const QString &p : paths) {
        if (QFileInfo::exists(p))
            m_watcher.addPath(p);
        const QString dir = QFileInfo(p).absolutePath();
        if (!m_watcher.directories().contains(dir))
            m_watcher.addPath(dir);
    }
}

void SourceFileWatch::noticed(const QString &path)
{
    if (!m_paths.contains(path))
        return;
    m_pending.insert(path);
    m_settle.start();
}

void SourceFileWatch::settle()
{
    const QSet<QString> pending = std::exchange(m_pending, {});
    for (const QString &p : pending) {
        // Renamed over or written anew: the watcher dropped the old file.
        if (QFileInfo::exists(p) && !m_watcher.files().contains(p))
            m_watcher.addPath(p);
        emit changed(p);
    }
}

} // namespace idlescope
