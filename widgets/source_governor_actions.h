// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_governor_actions.h
 * The window's side of governors built from source (docs/testing-your-patch.md):
 * Governors → "Add governor from source…" builds a kernel governor file
 * (core/source_governor) on a worker thread with a busy indicator, shows
 * the compiler's own file:line:column messages when it does not build, and
 * then adds it as a governor row like any other; its file is watched
 * (source_file_watch.h), so that saving it rebuilds and re-simulates it.
 *
 * The user's code runs only in the governor host: a crash or a hang is an
 * error message naming its signal and entry, never the window's end.
 */
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <memory>

class QAction;
class QMenu;
class QProgressDialog;

namespace idlescope {

class MainWindow;
class SourceFileWatch;

class SourceGovernorActions : public QObject {
    Q_OBJECT
public:
    explicit SourceGovernorActions(MainWindow *window);
    ~SourceGovernorActions() override;

    /// The Governors menu's items (added by the window).
    void addTo(QMenu *menu);
    QAction *addFromSourceAction() const { return m_add; }

    /// Builds @p path (a kernel version such as "6.19", or "" for the default) in the
    /// background, then adds it; built() or buildFailed() tells how it went.
    void addFromSource(const QString &path, const QString &kernel = QString());
    bool isBuilding() const;
    SourceFileWatch *watch() const { return m_watch; }

signals:
    /// A source governor was added to the setup panel's list (the window simulates).
    void governorsEdited();
    /// A watched file's content changed (its stamp is updated; the window simulates).
    void sourceFileSaved();
    void built(const QString &id);
    void buildFailed(const QString &message);

private:
    void openDialog();
    void buildFinished();
    void fileSaved(const QString &path);
    void watchSourceFiles();

    MainWindow *m_window;
    QAction *m_add = nullptr;
    SourceFileWatch *m_watch = nullptr;
    QProgressDialog *m_progress = nullptr;
    QString m_buildingId;
    QFutureWatcher<QString> m_build;
};

} // namespace idlescope
