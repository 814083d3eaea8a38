// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_governor_actions.h
 * The window's side of governors built from source (docs/testing-your-patch.md):
 * Governors → "Add governor from source…" builds a kernel governor file
 * (core/source_governor) on a worker thread with a busy indicator, shows
 * the compiler's own file:line:column messages when it does not build, and
 * then adds it as a governor row like any other, under the name the dialog
 * asks for (the file's base name by default; Governors → "Rename governor
 * from source…" changes it); its file is watched
 * (source_file_watch.h), so that saving it rebuilds and re-simulates it.
 * Governors → "First difference" finds, with core's diffGovernors(), the
 * first entry where a source governor and the variant it patches decide
 * differently, selects it and says how many entries differ.
 *
 * The user's code runs only in the governor host: a crash or a hang is an
 * error message naming its signal and entry, never the window's end.
 */
#pragma once

#include "core/replay/governor_diff.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QMenu;
class QProgressDialog;

namespace idlescope {

class MainWindow;
class SourceFileWatch;

/// What the add's build gave: the error of a file that does not build, else the
/// compiler's warnings (those of the cached build on a cache hit).
struct SourceBuildOutcome {
    QString error;
    QString warnings;
    QString stamp; ///< sourceFileStamp() of the file, taken on the worker after its build
};

/// What "First difference" found (for the status bar and tests).
struct FirstDifference {
    int sourceIndex = -1;  ///< the source governor's run in the snapshot
    int variantIndex = -1; ///< the variant it was compared with
    GovernorDiff diff;     ///< diffGovernors(source, variant), the first difference kept
    QString error;         ///< why nothing was compared ("" when diff holds the answer)
};

class SourceGovernorActions : public QObject {
    Q_OBJECT
public:
    explicit SourceGovernorActions(MainWindow *window);
    ~SourceGovernorActions() override;

    /// The Governors menu's items (added by the window).
    void addTo(QMenu *menu);
    QAction *addFromSourceAction() const { return m_add; }
    QAction *firstDifferenceAction() const { return m_firstDifference; }
    QAction *renameAction() const { return m_rename; }

    /// Builds @p path (a kernel version such as "6.19", or "" for the default) in the
    /// background, then adds it; built() or buildFailed() tells how it went. With a
    /// @p name (source_governor_names.h) its id is "src:NAME", shown wherever the
    /// governor is; without one it is "src:PATH[@KERNEL]".
    void addFromSource(const QString &path, const QString &kernel = QString(), const QString &name = QString());
    /// Gives source governor @p id the name @p name: its row, runs and session entry
    /// become "src:NAME" (re-simulated). False, with the reason on the message bar,
    /// for a bad name or one that names another file or row.
    bool renameSourceGovernor(const QString &id, const QString &name);
    /// The name the dialog proposes for @p path run with @p kernel: its base name,
    /// with "-2", "-3"… when that already names another file.
    static QString proposedName(const QString &path, const QString &kernel);
    bool isBuilding() const;
    /// Diffs the source governor and the variant it patches in the background, then
    /// selects the first difference; differenceShown() tells when.
    void showFirstDifference();
    const FirstDifference &lastDifference() const { return m_last; }
    SourceFileWatch *watch() const { return m_watch; }
    /// Tests: how a saved file is hashed (sourceFileStamp() by default), on the file threads.
    using StampReader = std::function<QString(const QString &path)>;
    void setStampReaderForTesting(StampReader reader) { m_stampReader = std::move(reader); }

    /// The variant source governor @p id (a "src:" id) patches among @p variants: of its
    /// family (its file's name starts with it: menu.c, teo-patched.c), the one whose kernel
    /// version is the file's (its --kernel), else the nearest in version, the newer one on a
    /// tie; when none is of its family, the only built-in one shown; else -1.
    static int patchedVariantIndex(const std::string &id, const std::vector<std::string> &variants);

signals:
    /// A source governor was added to the setup panel's list (the window simulates).
    void governorsEdited();
    /// A watched file's content changed (its stamp is updated; the window simulates).
    void sourceFileSaved();
    void built(const QString &id);
    void buildFailed(const QString &message);
    /// @p text: what was found, as the status bar shows it.
    void differenceShown(const QString &text);

private:
    void openDialog();
    void openRenameDialog();
    void showError(const QString &message);
    void buildFinished();
    void differenceFinished();
    /// A watched file was saved: it is hashed on the file threads (file_threads.h), then
    /// stampRead() with its stamp, unless a later save of the same file superseded it.
    void fileSaved(const QString &path);
    void stampRead(const QString &path, const QString &stamp);
    void watchSourceFiles();
    /// Removes the governor just added when @p snap, the first run with it, has no run of it
    /// because its file registers no governor (a governor that fails stays).
    void confirmAdded(const SimulationSnapshot &snap);
    /// Marks each source row of the list that @p snap simulated but has no run of (its file
    /// fails) with the reason, and clears the mark of the others.
    void markFailingSources(const SimulationSnapshot &snap);
    /// The compiler's @p warnings in the message bar, after the shown snapshot's errors.
    void showCompilerWarnings(const QString &warnings);
    /// The compiler's warnings of each source file @p snap ran with content not seen before
    /// (a save, a session opened), from the build in the cache on a worker thread, shown on
    /// the message bar as an add shows them.
    void showBuildWarnings(const SimulationSnapshot &snap);
    /// @p text at the status bar's right ("" hides it), @p toolTip (default @p text) on it.
    void showResult(const QString &text, const QString &toolTip = QString());

    MainWindow *m_window;
    QAction *m_add = nullptr;
    QAction *m_firstDifference = nullptr;
    QAction *m_rename = nullptr;
    SourceFileWatch *m_watch = nullptr;
    QProgressDialog *m_progress = nullptr;
    QString m_buildingId;
    QString m_addedId;       ///< built and added, not yet seen running
    QString m_addedWarnings; ///< the compiler's warnings for m_addedId, shown with its first run
    QFutureWatcher<SourceBuildOutcome> m_build;
    /// Per source id, the file content (sourceFileStamp()) whose warnings were shown.
    QHash<QString, QString> m_warnedStamps;
    QFutureWatcher<QString> m_buildWarnings;
    QFutureWatcher<FirstDifference> m_diff;
    SnapshotPtr m_diffSnapshot; ///< the snapshot being diffed
    SnapshotPtr m_shownFor;     ///< the snapshot the result shown is about
    QLabel *m_result = nullptr;
    FirstDifference m_last;
    StampReader m_stampReader;              ///< null: sourceFileStamp()
    QHash<QString, quint64> m_stampSerials; ///< per watched file, its saves so far
};

} // namespace idlescope
