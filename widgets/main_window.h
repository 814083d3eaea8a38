// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file main_window.h
 * The idlescope window: a thin composition root. It owns the shared
 * ViewState and the SimulationRunner, the setup and parameter docks, the
 * governor legend, the plots and the playback bar; it turns panel edits into
 * a ScenarioSpec for the runner and hands every new snapshot to every view.
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

#include <QList>
#include <QMainWindow>

#include <memory>

class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;
class QStackedWidget;

namespace idlescope {

class ComparisonView;
class ConceptsDialog;
struct FigureCaption;
class EpisodeInspector;
class EntriesDock;
class GovernorLegend;
class MessageBar;
class RecentFilesMenu;
struct SessionView;
class ParameterPanel;
class PlaybackBar;
class PlotBase;
class SetupPanel;
class SimulationRunner;
class ViewState;

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
    ParameterPanel *parameterPanel() const { return m_parameters; }
    PlaybackBar *playbackBar() const { return m_playback; }
    GovernorLegend *legend() const { return m_legend; }
    EpisodeInspector *inspector() const { return m_inspector; }
    /// The entries list (widgets/trace/entries_dock.h).
    EntriesDock *entriesList() const { return m_entries; }
    ComparisonView *comparison() const { return m_comparison; }
    /// The inline banner for errors that must stay visible (failed loads, failed session opens).
    MessageBar *messageBar() const { return m_message; }
    /// The "simulating…" indicator in the status bar (tests).
    bool isBusyShown() const;
    /// True when the "select a governor" hint stands in for the plots.
    bool isNoGovernorHintShown() const;
    /// Every plot, top to bottom, left to right (export, tests).
    QList<PlotBase *> plots() const { return m_plots; }

    /// Rebuild and replot every plot synchronously (screenshots, measurements).
    void refreshPlotsNow();
    /// GUI-thread time the last snapshot took to hand to every view (ms), replots excluded.
    double lastShowMs() const { return m_lastShowMs; }
    /// Replot, then render the whole window to a PNG at @p path; false if it cannot be written.
    bool saveScreenshot(const QString &path);

    /// Title and governor legend drawn above @p plot when it is exported as a figure.
    FigureCaption figureCaption(PlotBase *plot) const;

    /// Save / open a .idlescope session (scenario + view); the message on failure, "" on success.
    /// openSession() reports an unreadable file at once; a session whose workload or target
    /// then fails to build is reported in the message bar, the previous scenario stays, and
    /// the window title and recent files do not take the session.
    QString saveSessionTo(const QString &path);
    QString openSession(const QString &path);
    /// Open a file given on the command line (the .desktop file's %f): a .idlescope session,
    /// a stream CSV (.csv, .csv.gz) or else a kernel trace, loaded as the workload. An error
    /// known at once is shown in the message bar and returned ("" otherwise); the scenario on
    /// screen (the default one at start-up) stays. Later load errors go to the message bar.
    QString openFile(const QString &path);

signals:
    /// A snapshot was shown (after every view got it).
    void snapshotShown(std::shared_ptr<const SimulationSnapshot> snapshot);
    /// An entry was picked in a plot (same as ViewState::entrySelected).
    void entrySelected(int governorIndex, qint64 entryIndex);

protected:
    void closeEvent(QCloseEvent *event) override;

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
    void restoreSettings();
    QDockWidget *addDock(const QString &title, const QString &objectName, QWidget *w, Qt::DockWidgetArea area);
    void onEntrySelected(int governorIndex, qint64 entryIndex);
    void saveSessionDialog(bool saveAs);
    void openSessionDialog();
    void exportRunData(bool json);

    void simulate(bool immediate);
    void onGovernorsChanged();
    void onTargetChanged();
    void showSnapshot(std::shared_ptr<const SimulationSnapshot> snapshot);
    void showError(const QString &message);
    /// A warning about the workload being set up (a trace's import warnings):
    /// shown while that file stays the workload.
    void showWarning(const QString &message);
    void onRunFailed(const QString &message);
    /// Put @p spec in the setup and parameter panels without simulating it.
    void showSpecInPanels(const ScenarioSpec &spec);

    ViewState *m_view;
    SimulationRunner *m_runner;
    SnapshotPtr m_snapshot;
    SetupPanel *m_setup = nullptr;
    ParameterPanel *m_parameters = nullptr;
    PlaybackBar *m_playback = nullptr;
    GovernorLegend *m_legend = nullptr;
    QList<PlotBase *> m_plots;
    EpisodeInspector *m_inspector = nullptr;
    EntriesDock *m_entries = nullptr;
    ComparisonView *m_comparison = nullptr;
    ConceptsDialog *m_concepts = nullptr;
    RecentFilesMenu *m_recent = nullptr;
    QDockWidget *m_inspectorDock = nullptr;
    QMenu *m_viewMenu = nullptr;
    QString m_sessionPath;
    double m_lastShowMs = 0;
    /// View of a session being opened, applied when its snapshot arrives.
    std::unique_ptr<SessionView> m_pendingView;
    QLabel *m_status = nullptr;
    QLabel *m_busy = nullptr;
    MessageBar *m_message = nullptr;
    WorkloadSpec m_warningSource; ///< the workload the message bar's warning is about
    QStackedWidget *m_plotStack = nullptr; ///< the plots, or the hint when no governor is selected
    QLabel *m_noGovernorHint = nullptr;
    /// A session being opened: it becomes the window's session when its snapshot arrives.
    QString m_openingSession;
    bool m_fallingBack = false; ///< applying the default scenario after a first run failed
    bool m_followingSelection = false; ///< showSnapshot() moving the selection to the new runs
    quint64 m_lastStarted = 0;       ///< generation of the runner's latest job
    /// Generation running when the message bar got its error: only a snapshot asked for
    /// later (a newer generation) clears it, not the run that was already under way.
    quint64 m_messageGeneration = 0;
};

} // namespace idlescope
