// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file recent_files.h
 * The "Open Recent" list of session files, most recent first, kept in
 * QSettings under "session/recentFiles" (absolute paths, at most
 * RecentFiles::MAX_FILES, no duplicates), and a menu that shows it.
 */
#pragma once

#include <QMenu>
#include <QStringList>

class QSettings;

namespace idlescope {

class RecentFiles {
public:
    static constexpr int MAX_FILES = 10;
    static constexpr const char *SETTINGS_KEY = "session/recentFiles";

    /// Uses @p settings, or the application's default QSettings when null.
    explicit RecentFiles(QSettings *settings = nullptr);

    /// The list, most recent first.
    QStringList files() const;
    /// Moves (or inserts) @p path to the front; trims the list to MAX_FILES.
    void add(const QString &path);
    /// Drops @p path (e.g. a file that no longer opens).
    void remove(const QString &path);
    void clear();

private:
    void store(const QStringList &files);
    QSettings *m_settings;
};

/// "Open Recent" submenu; rebuilt from RecentFiles each time it is shown.
class RecentFilesMenu : public QMenu {
    Q_OBJECT
public:
    explicit RecentFilesMenu(QWidget *parent = nullptr, QSettings *settings = nullptr);

    /// Re-reads the list now (the menu also does this before it shows).
    void rebuild();

signals:
    /// The user picked @p path.
    void openRequested(const QString &path);

private:
    QSettings *m_settings;
};

} // namespace idlescope
