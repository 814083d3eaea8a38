// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace idlescope {

namespace {

QString absolute(const QString &path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

/// Reads with @p s or a default QSettings (which must not outlive the call).
template <typename F>
auto withSettings(QSettings *s, F &&f)
{
    if (s)
        return f(*s);
    QSettings defaults;
    return f(defaults);
}

} // namespace

RecentFiles::RecentFiles(QSettings *settings) : m_settings(settings) {}

QStringList RecentFiles::files() const
{
    return withSettings(m_settings, [](QSettings &s) { return s.value(QLatin1String(SETTINGS_KEY)).toStringList(); });
}

void RecentFiles::store(const QStringList &files)
{
    withSettings(m_settings, [&](QSettings &s) {
        s.setValue(QLatin1String(SETTINGS_KEY), files);
        return 0;
    });
}

void RecentFiles::add(const QString &path)
{
    const QString abs = absolute(path);
    QStringList list = files();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > MAX_FILES)
        list.removeLast();
    store(list);
}

void RecentFiles::remove(const QString &path)
{
    QStringList list = files();
    if (list.removeAll(absolute(path)) > 0)
        store(list);
}

void RecentFiles::clear()
{
    store({});
}

RecentFilesMenu::RecentFilesMenu(QWidget *parent, QSettings *settings)
    : QMenu(tr("Open &Recent"), parent), m_settings(settings)
{
    connect(this, &QMenu::aboutToShow, this, &RecentFilesMenu::rebuild);
    rebuild();
}

void RecentFilesMenu::rebuild()
{
    clear();
    RecentFiles recent(m_settings);
    const QStringList list = recent.files();
    int n = 0;
    for (const QString &path : list) {
        // &1 … &9, then 1&0: keyboard accelerators for the first ten.
        const QString text = n < 9 ? QStringLiteral("&%1  %2").arg(n + 1).arg(QFileInfo(path).fileName())
                                   : QStringLiteral("1&0  %1").arg(QFileInfo(path).fileName());
        QAction *a = addAction(text);
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] { emit openRequested(path); });
        ++n;
    }
    if (list.isEmpty())
        addAction(tr("(no recent sessions)"))->setEnabled(false);
    addSeparator();
    QAction *clearAction = addAction(tr("&Clear List"));
    clearAction->setEnabled(!list.isEmpty());
    connect(clearAction, &QAction::triggered, this, [this] {
        RecentFiles(m_settings).clear();
        rebuild();
    });
}

} // namespace idlescope
