// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file main_window.h
 * The idlescope window: a thin composition root. It owns the shared
 * ViewState and the SimulationRunner, the setup and parameter docks, the
 * governor legend, the plots and the playback bar; it turns panel edits into
 * a ScenarioSpec for the runner and hands every new snapshot to every view.
 * What the message bar shows is MessageCenter's policy (message_center.h);
 * opening sessions and files, recent files and recovery copies are
 * SessionOpener's (session_opener.h).
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"
#include "widgets/session/scenario_edit.h"
#include "widgets/session/source_consent.h"

#include <QList>
#include <QMainWindow>

#include <memory>
#include <optional>
#include <utility>

class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;
class QStackedWidget;
class QTimer;
class QUndoStack;

namespace idlescope {

class ComparisonView;
class ConceptsDialog;
struct FigureCaption;
class EpisodeInspector;
class EntriesDock;
class CpuLanesView;
class GovernorLegend;
class MessageBar;
class MessageCenter;
class OpeningBar;
class RecentFilesMenu;
struct SessionView;
class ParameterPanel;
class PlaybackBar;
class PlotBase;
class SessionOpener;
class SetupPanel;
class SimulationRunner;
class SourceGovernorActions;
class SweepView;
struct SweepRequest;
class TradeoffView;
class ViewState;

/// How often a modified window refreshes its recovery copy.
inline constexpr int AUTOSAVE_INTERVAL_MS = 30000;
/// Next/Previous Miss zooms to this many entries either side of the miss when the view holds
/// so many entries (twenty times this) that one of them is narrower than a pixel.
inline constexpr int MISS_ZOOM_ENTRIES = 25;
/// The least height of each time plot (state lanes, prediction, miss ratio): a title, an
/// axis and a plot area a value can be read off. Below it the plot area scrolls.
inline constexpr int TIME_PLOT_MIN_HEIGHT = 150;

/// A simulation running longer than this greys the views it will replace.
inline constexpr int STALE_AFTER_MS = 300;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// The scenario the panels describe right now.
    ScenarioSpec currentSpec() const;
    /// Show @p spec in the panels and simulate it (session load).
    void applySpec(const ScenarioSpec &spec);

    ViewState *viewState() const { return m_view; }
    SimulationRunner *runner() const { return m_runner; }
    /// The snapshot every view shows (null before the first run).
    SnapshotPtr snapshot() const { return m_snapshot; }

    SetupPanel *setupPanel() const { return m_setup; }
    /// Sessions and files being opened (session_opener.h); its reads, and their Cancel, in
    /// openingBar().
    SessionOpener *sessionOpener() const { return m_opener; }
    OpeningBar *openingBar() const { return m_openingBar; }
    ParameterPanel *parameterPanel() const { return m_parameters; }
    PlaybackBar *playbackBar() const { return m_playback; }
    GovernorLegend *legend() const { return m_legend; }
    EpisodeInspector *inspector() const { return m_inspector; }
    /// The entries list (widgets/trace/entries_dock.h).
    EntriesDock *entriesList() const { return m_entries; }
    CpuLanesView *cpuLanes() const { return m_cpuLanes; }
    ComparisonView *comparison() const { return m_comparison; }
    /// Governors built from source: the Governors menu's items and the watched files.
    SourceGovernorActions *sourceGovernors() const { return m_sourceGovernors; }
    /// The Sweep tab (widgets/sweep/sweep_view.h).
    SweepView *sweepView() const { return m_sweep; }
    TradeoffView *tradeoff() const { return m_tradeoff; }
    /// The inline banner for errors that must stay visible (failed loads, failed session opens).
    MessageBar *messageBar() const { return m_message; }
    /// The "simulating…" indicator in the status bar (tests).
    bool isBusyShown() const;
    /// The status bar's line about the snapshot shown (what was simulated, in how long).
    QString statusText() const;
    /// The busy indicator's text ("simulating… menu-6.14 40 % · teo-6.14 38 %").
    QString busyText() const;
    /// True while the plots, legend and table show a snapshot older than the scenario in the
    /// panels (a simulation has run longer than STALE_AFTER_MS): they are greyed.
    bool isStaleShown() const { return m_stale; }

public slots:
    /// Stops the running simulation; the panels go back to the scenario the plots show.
    void cancelSimulation();

public:
    /// True when the "select a governor" hint stands in for the plots.
    bool isNoGovernorHintShown() const;
    /// Every plot, top to bottom, left to right (export, tests).
    QList<PlotBase *> plots() const { return m_plots; }

    /// Rebuild and replot every plot synchronously (screenshots, measurements).
    void refreshPlotsNow();
    /// GUI-thread time the last snapshot took to hand to every view (ms), replots excluded.
    double lastShowMs() const { return m_lastShowMs; }
    /// Replot, then render the whole window to a PNG at @p path, written to a temporary file
    /// and renamed over it (a full disk keeps the old file whole); false, with the reason in
    /// @p error when given, if it cannot be written.
    bool saveScreenshot(const QString &path, QString *error = nullptr);

    /// Title and governor legend drawn above @p plot when it is exported as a figure.
    FigureCaption figureCaption(PlotBase *plot) const;

    /// Save / open a .idlescope session (scenario + view); the message on failure, "" on success.
    /// openSession() reads the file on a worker (the opening bar shows it, with Cancel) and
    /// returns "": an unreadable or refused file is reported in the message bar when its read
    /// ends (SessionOpener::errorOccurred); a session whose workload or target then fails to
    /// build is reported there too, the previous scenario stays, and the window title and
    /// recent files do not take the session.
    QString saveSessionTo(const QString &path);
    QString openSession(const QString &path);
    /// Who asks whether a session's governor source files may be built and run
    /// (widgets/session/source_consent.h); none (the default): such a session is refused.
    void setSourceConsentAsker(SourceConsentAsker asker);
    /// Open a file given on the command line (the .desktop file's %f): a .idlescope session,
    /// a stream CSV (.csv, .csv.gz) or else a kernel trace, loaded as the workload. An error
    /// known at once is shown in the message bar and returned ("" otherwise); the scenario on
    /// screen (the default one at start-up) stays. Later load errors go to the message bar.
    QString openFile(const QString &path);

    /// The user's edits of the scenario, undone and redone with Ctrl+Z / Ctrl+Shift+Z; clean
    /// when the scenario is the one last saved or opened (the title's "*" otherwise).
    QUndoStack *undoStack() const { return m_undo; }

    /// Sizes the window for its start: the geometry saved when the window last closed (read by
    /// the constructor), or on a first start, with none saved, firstStartSize() of its screen.
    void applyStartSize();

    /// Keep a recovery copy of unsaved work in @p dir (recovery_store.h): written every
    /// AUTOSAVE_INTERVAL_MS while the window is modified, removed when it closes normally.
    /// Off unless called (tests and scripted runs keep nothing).
    void enableRecovery(const QString &dir);
    /// This window's recovery copy ("" while recovery is off).
    QString recoveryPath() const;
    /// Writes the recovery copy now if the window is modified; false when nothing was written.
    bool autosaveNow();
    /// Offers the work a window that ended without closing left in the recovery folder
    /// (the newest copy; older ones are removed). The copy is read on the session opener's
    /// worker (the opening bar shows it, with Cancel); the question comes once it is read, and
    /// recoveryOffered() says how it ended, once for each call that returned true (Cancel, or
    /// a session opened meanwhile, ends it too). False, and nothing looked for, while recovery
    /// is off.
    bool offerRecovery();

    /// Asks Save / Discard / Cancel when the window has unsaved changes; true when the
    /// caller may go on (saved, discarded, or nothing to save).
    bool maybeSaveChanges();

    /// Edit → Copy as command: the `idlescope-cli compare` line of the comparison shown
    /// (widgets/export/compare_command.h) on the clipboard, and returned ("" when cancelled).
    /// A legacy-seeded scenario is offered the switch to the common seeding first, an edited
    /// table a table file to save beside the command; what it cannot carry goes to the message bar.
    QString copyAsCommand();
    /// Moves a legacy-seeded generator workload (an old session's) to the common seeding:
    /// an undoable edit, so the window is then modified, and a new simulation.
    void switchToCommonSeeding();
    /// Makes point @p point of the sweep @p request the current scenario: the swept parameter
    /// (workload or tunable) at that value, everything else as the sweep had it (an undoable edit).
    void openSweepPoint(const SweepRequest &request, int point);

signals:
    /// A snapshot was shown (after every view got it).
    void snapshotShown(std::shared_ptr<const SimulationSnapshot> snapshot);
    /// An entry was picked in a plot (same as ViewState::entrySelected).
    void entrySelected(int governorIndex, qint64 entryIndex);
    /// offerRecovery() ended: @p restored when work was left and restored (the window shows
    /// it, unsaved and modified); false when none was left, it was declined or not allowed, or
    /// its read was cancelled or superseded by another (the copy then stays for the next offer).
    void recoveryOffered(bool restored);

protected:
    void closeEvent(QCloseEvent *event) override;
    /// The first show gives the side docks their comfortable widths (restoreSettings() aside).
    void showEvent(QShowEvent *event) override;

private:
    void setupUi();
    QWidget *createPlots();
    void createDocks();
    void createMenus();
    void createFileMenu();
    void createExportMenu(QMenu *file);
    void createViewMenu();
    void createSimulationMenus();
    void createConnections();
    void connectOpener();
    void connectPanels();
    void connectRunsAndViews();
    void restoreSettings();
    QDockWidget *addDock(const QString &title, const QString &objectName, QWidget *w, Qt::DockWidgetArea area);
    void onEntrySelected(int governorIndex, qint64 entryIndex);
    /// A disagreement of the CPUs dock: the kernel's entry of @p cpu at @p traceNs in the
    /// inspector, after the window has replayed that CPU when it shows another.
    void goToDisagreement(int cpu, qint64 traceNs);
    /// Next/Previous Miss: zoom in around the entry picked when the view is too wide to show it.
    void zoomToSelectedEntry();
    bool saveSessionDialog(bool saveAs);
    /// The work readLeftWork() found: asks whether to restore it, and does (offerRecovery()).
    bool restoreLeftWork();
    void openSessionDialog();
    void exportRunData(bool json);

    void simulate(bool immediate);
    void onGovernorsChanged();
    void onTargetChanged();
    /// What the panels show now, for the undo stack.
    EditState editState() const;
    /// Records a final user edit as an undo step (nothing when the scenario did not change).
    void commitEdit(const QString &what);
    /// Puts @p state in the panels and simulates it (undo, redo).
    void restoreEditState(const EditState &state);
    /// The session file the window is about ("" for none): the title and its "*".
    void setSessionPath(const QString &path);
    void createEditMenu();
    void showSnapshot(std::shared_ptr<const SimulationSnapshot> snapshot);
    void onRunFailed(const QString &message);
    /// The panels back to the snapshot shown, the edit that did not make it dropped from undo.
    void revertPanelsToSnapshot();
    /// Greys (or restores) the views while a newer scenario is being simulated.
    void setStale(bool stale);
    /// Progress per governor in the busy indicator, and the stale mark once the job is slow.
    void updateProgress();
    /// The job ended (a snapshot, a failure, a cancel): no progress, no stale mark.
    void endProgress();
    /// Put @p spec in the setup and parameter panels without simulating it.
    void showSpecInPanels(const ScenarioSpec &spec);

    ViewState *m_view;
    SimulationRunner *m_runner;
    SnapshotPtr m_snapshot;
    SetupPanel *m_setup = nullptr;
    SessionOpener *m_opener = nullptr;  ///< sessions and files being opened (session_opener.h)
    OpeningBar *m_openingBar = nullptr; ///< the status bar's row while a session is read
    ParameterPanel *m_parameters = nullptr;
    PlaybackBar *m_playback = nullptr;
    GovernorLegend *m_legend = nullptr;
    QList<PlotBase *> m_plots;
    EpisodeInspector *m_inspector = nullptr;
    EntriesDock *m_entries = nullptr;
    CpuLanesView *m_cpuLanes = nullptr;
    ComparisonView *m_comparison = nullptr;
    SweepView *m_sweep = nullptr;
    TradeoffView *m_tradeoff = nullptr;
    ConceptsDialog *m_concepts = nullptr;
    SourceGovernorActions *m_sourceGovernors = nullptr;
    RecentFilesMenu *m_recent = nullptr;
    QDockWidget *m_inspectorDock = nullptr;
    QMenu *m_viewMenu = nullptr;
    QString m_sessionPath;
    bool m_docksSized = false;       ///< the side docks have their first widths (or the saved ones)
    bool m_geometryRestored = false; ///< the constructor restored the geometry saved at a close
    double m_lastShowMs = 0;
    QLabel *m_status = nullptr;
    /// What the snapshot shown replayed ("" for nothing): the status of a release that re-runs nothing.
    QString m_lastReplay;
    /// A disagreement picked on another CPU than the one replayed: selected once its snapshot is shown.
    std::optional<std::pair<int, qint64>> m_pendingTraceEntry;
    QLabel *m_busy = nullptr;
    QWidget *m_cancel = nullptr; ///< the status bar's Cancel, shown with the progress
    QTimer *m_progressTimer = nullptr;
    qint64 m_jobStartMs = 0; ///< QDateTime ms when the running job started
    bool m_stale = false;
    MessageBar *m_message = nullptr;
    MessageCenter *m_messages = nullptr;   ///< what m_message shows, and until when
    QStackedWidget *m_plotStack = nullptr; ///< the plots, or the hint when no governor is selected
    QLabel *m_noGovernorHint = nullptr;
    QLabel *m_staleMark = nullptr;     ///< over the plots while they are older than the panels
    bool m_followingSelection = false; ///< showSnapshot() moving the selection to the new runs
    QUndoStack *m_undo = nullptr;
    EditState m_committed; ///< the state of the last undo step (or of the session opened)
    QTimer *m_autosave = nullptr;
};

} // namespace idlescope
