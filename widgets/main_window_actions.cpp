// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's menus, shortcuts, sessions, exports and saved preferences
// (kept apart from the composition in main_window.cpp).
#include "widgets/main_window.h"

#include "core/governors/explain.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/export/data_export.h"
#include "widgets/export/figure_export.h"
#include "widgets/export/plot_export.h"
#include "widgets/export/scenario_context.h"
#include "widgets/help/concepts_dialog.h"
#include "widgets/inspector/episode_inspector.h"
#include "widgets/panels/message_center.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/playback_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/panels/target_picker.h"
#include "widgets/plots/counts_plot.h"
#include "widgets/plots/duration_histogram_plot.h"
#include "widgets/plots/plot_base.h"
#include "widgets/plots/time_plot.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/session/recent_files.h"
#include "widgets/session/session.h"
#include "widgets/session/session_opener.h"
#include "widgets/source_governor_actions.h"
#include "widgets/start_size.h"
#include "widgets/sweep/sweep_plot.h"
#include "widgets/sweep/sweep_view.h"
#include "widgets/view_state.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

namespace idlescope {

namespace {
const QString kSessionFilter = QObject::tr("idlescope sessions (*.idlescope);;All files (*)");
} // namespace

void MainWindow::createMenus()
{
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createSimulationMenus();
    m_sourceGovernors = new SourceGovernorActions(this);
    m_sourceGovernors->addTo(menuBar()->addMenu(tr("&Governors")));
    connect(m_sourceGovernors, &SourceGovernorActions::governorsEdited, this, &MainWindow::onGovernorsChanged);
    connect(m_sourceGovernors, &SourceGovernorActions::sourceFileSaved, this, [this] { simulate(true); });
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Concepts"), QKeySequence::HelpContents, this, [this] {
        if (!m_concepts)
            m_concepts = new ConceptsDialog(this);
        m_concepts->show();
        m_concepts->raise();
    });
    help->addAction(tr("&About idlescope"), this, [this] {
        QMessageBox::about(this, tr("About idlescope"),
                           tr("<b>idlescope %1</b><br>A lab for the Linux kernel's cpuidle governors.<br>"
                              "GPL-3.0-or-later. Plots by QCustomPlot (GPL).")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session\u2026"), QKeySequence::Open, this, &MainWindow::openSessionDialog);
    m_recent = new RecentFilesMenu(this);
    m_recent->setTitle(tr("Open &recent"));
    file->addMenu(m_recent);
    connect(m_recent, &RecentFilesMenu::openRequested, this, [this](const QString &path) {
        if (maybeSaveChanges())
            openSession(path); // read on the worker: its errors go to the message bar
    });
    file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] { saveSessionDialog(false); });
    file->addAction(tr("Save session &as\u2026"), QKeySequence::SaveAs, this, [this] { saveSessionDialog(true); });
    file->addSeparator();
    file->addAction(tr("Open &table\u2026"), this, [this] {
        if (!m_setup->targetPicker()->confirmDiscardEdits()) // edited states stay unless the user lets them go
            return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open idle-state table"), QString(),
                                                          tr("Tables (*.json);;All files (*)"));
        if (!path.isEmpty())
            m_opener->openTable(path); // read on the worker: tableRead() shows it, errors go to the message bar
    });
    file->addAction(tr("Open s&tream\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open wakeup stream"), QString(),
                                                          tr("Streams (*.csv *.csv.gz);;All files (*)"));
        if (!path.isEmpty())
            m_setup->loadStreamFile(path);
    });
    file->addAction(tr("Open kernel t&race\u2026"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open kernel trace"), QString(),
                                         tr("Traces (*.dat *.txt *.gz *.trace *.report);;All files (*)"));
        if (!path.isEmpty())
            m_setup->loadTraceFile(path);
    });
    file->addSeparator();
    createExportMenu(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::createExportMenu(QMenu *file)
{
    QMenu *exp = file->addMenu(tr("&Export"));
    for (PlotBase *p : std::as_const(m_plots))
        exp->addAction(tr("Plot \u201c%1\u201d\u2026").arg(p->title()), this, [this, p] {
            exportFigureWithDialog(*p->customPlot(), this, figureFileName(p->title()), figureCaption(p));
        });
    exp->addAction(tr("All plots to a folder\u2026"), this, [this] {
        QList<FigureSource> figures;
        for (PlotBase *p : std::as_const(m_plots))
            figures.append({p->customPlot(), p->title(), figureCaption(p)});
        if (m_sweep->plot()->result().ok()) { // the sweep figure too, once there is one
            m_sweep->plot()->refreshNow();
            figures.append({m_sweep->plot()->customPlot(), m_sweep->plot()->title(), m_sweep->caption()});
        }
        bool failed = false;
        const QString said = exportAllFiguresWithDialog(figures, this, &failed);
        if (failed)
            m_messages->showError(said);
        else if (!said.isEmpty())
            statusBar()->showMessage(said, 5000);
    });
    exp->addAction(tr("Sweep plot\u2026"), this, [this] { m_sweep->exportWithDialog(); });
    exp->addAction(tr("Window as PNG\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save window"), QStringLiteral("idlescope.png"),
                                                          tr("PNG image (*.png)"));
        QString error;
        if (!path.isEmpty() && !saveScreenshot(path, &error))
            m_messages->showError(error);
    });
    exp->addSeparator();
    exp->addAction(tr("Selected governor's entries as CSV\u2026"), this, [this] { exportRunData(false); });
    exp->addAction(tr("Selected governor's entries as JSON\u2026"), this, [this] { exportRunData(true); });
    exp->addAction(tr("Summaries as JSON\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export summaries"),
                                                          QStringLiteral("summaries.json"), tr("JSON (*.json)"));
        if (!path.isEmpty() && m_snapshot)
            if (const Status st = exportSummariesJson(*m_snapshot, path); !st)
                m_messages->showError(QString::fromStdString(st.error().toString()));
    });
    exp->addAction(tr("Comparison table\u2026"), m_comparison, &ComparisonView::exportWithDialog);
}

FigureCaption MainWindow::figureCaption(PlotBase *plot) const
{
    FigureCaption c;
    c.title = plot->title();
    if (!m_snapshot)
        return c;
    c.title += QStringLiteral(" \u2014 %1, %2").arg(m_snapshot->targetId, m_snapshot->workloadDescription);
    c.context = scenarioContext(m_snapshot->spec);
    // A count plot paused mid-run counts the entries up to the cursor, not the whole run
    // its title's workload names (issue 33: "200000 spans" over 31.8k misses).
    if (const qint64 cursor = m_view->cursorNs(); cursor >= 0 && qobject_cast<CountsPlot *>(plot)) {
        const QString upTo =
            tr("up to t = %1 of %2")
                .arg(QString::fromStdString(formatDuration(cursor - m_view->fullStartNs(), UnitStyle::Micro)),
                     QString::fromStdString(formatDuration(m_snapshot->durationNs(), UnitStyle::Micro)));
        c.title += QStringLiteral(" — ") + upTo;
        c.context.prepend(tr("Counts %1 (the playback cursor); End shows the whole run").arg(upTo));
    }
    // A time plot shows the window's zoom: the figure says which time (a PDF titled "200000
    // spans" showed 0-3 ms of it), and how to show the rest.
    if (qobject_cast<TimePlot *>(plot) && !m_snapshot->isClosedLoop()) {
        const QString shown =
            shownRangeText(m_view->rangeStartNs(), m_view->rangeEndNs(), m_view->fullStartNs(), m_view->fullEndNs());
        c.title += QStringLiteral(" \u2014 ") + shown;
        if (m_view->rangeStartNs() > m_view->fullStartNs() || m_view->rangeEndNs() < m_view->fullEndNs())
            c.context.prepend(
                tr("Shows %1, the window's zoom; View \u203a Zoom to whole run (Ctrl+0) shows all of it").arg(shown));
    }
    // The idle-duration histogram is the stream's, drawn once: no governor colours in it.
    if (!qobject_cast<DurationHistogramPlot *>(plot))
        c.legend = legendFor(*m_snapshot);
    return c;
}

void MainWindow::createEditMenu()
{
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
    QAction *redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("Copy as &command"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                    [this] { copyAsCommand(); });
}

void MainWindow::createViewMenu()
{
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(tr("Zoom &out"), QKeySequence(Qt::Key_Backspace), this, [this] { m_view->zoomOut(); });
    m_viewMenu->addAction(tr("Zoom to &whole run"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                          [this] { m_view->resetZoom(); });
    // Every count plot's own log-scale action at once (each plot's context menu has its own).
    QAction *logCounts = m_viewMenu->addAction(tr("&Logarithmic count axes"));
    logCounts->setCheckable(true);
    connect(logCounts, &QAction::toggled, this, [this](bool on) {
        for (PlotBase *p : std::as_const(m_plots))
            if (auto *counts = qobject_cast<CountsPlot *>(p))
                counts->setLogScale(on);
    });
    m_viewMenu->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_viewMenu->addAction(dock->toggleViewAction());
}

void MainWindow::createSimulationMenus()
{
    QMenu *sim = menuBar()->addMenu(tr("&Simulation"));
    sim->addAction(tr("&Run again"), QKeySequence::Refresh, this, [this] { simulate(true); });
    sim->addAction(tr("&Kernel defaults"), QKeySequence(Qt::CTRL | Qt::Key_D), m_parameters,
                   &ParameterPanel::resetToKernelDefaults);

    QMenu *play = menuBar()->addMenu(tr("&Playback"));
    play->addAction(tr("&Play / pause"), QKeySequence(Qt::Key_Space), m_playback, &PlaybackBar::togglePlay);
    play->addAction(tr("&Next entry"), QKeySequence(Qt::Key_Period), m_playback, &PlaybackBar::stepForward);
    play->addAction(tr("P&revious entry"), QKeySequence(Qt::Key_Comma), m_playback, &PlaybackBar::stepBackward);
    play->addAction(tr("To &start"), QKeySequence(Qt::Key_Home), m_playback, &PlaybackBar::toStart);
    play->addAction(tr("To &end (counts of the whole run)"), QKeySequence(Qt::Key_End), m_playback,
                    &PlaybackBar::toEnd);
    play->addSeparator();
    play->addAction(m_inspector->nextMissAction());
    play->addAction(m_inspector->previousMissAction());
}

QString MainWindow::saveSessionTo(const QString &path)
{
    Session s;
    s.scenario = currentSpec();
    s.view = captureView(*m_view);
    if (const Status st = saveSession(s, path); !st)
        return QString::fromStdString(st.error().toString());
    setSessionPath(path);
    m_opener->sessionSaved(path);
    m_undo->setClean();
    return {};
}

void MainWindow::setSourceConsentAsker(SourceConsentAsker asker)
{
    m_opener->setSourceConsentAsker(std::move(asker));
}

QString MainWindow::openSession(const QString &path)
{
    return m_opener->openSession(path);
}

QString MainWindow::openFile(const QString &path)
{
    return m_opener->openFile(path);
}

bool MainWindow::saveSessionDialog(bool saveAs)
{
    QString path = m_sessionPath;
    if (saveAs || path.isEmpty())
        path =
            QFileDialog::getSaveFileName(this, tr("Save session"), QStringLiteral("session.idlescope"), kSessionFilter);
    if (path.isEmpty())
        return false;
    if (const QString err = saveSessionTo(path); !err.isEmpty()) {
        QMessageBox::warning(this, tr("Save session"), err);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::maybeSaveChanges()
{
    if (!isWindowModified())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                    m_sessionPath.isEmpty()
                        ? tr("The scenario has changes that are not saved in a session.")
                        : tr("%1 has changes that are not saved.").arg(QFileInfo(m_sessionPath).fileName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setInformativeText(tr("Save them before going on?"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save: return saveSessionDialog(false);
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

void MainWindow::enableRecovery(const QString &dir)
{
    m_opener->enableRecovery(dir);
    m_autosave->start();
}

QString MainWindow::recoveryPath() const
{
    return m_opener->recoveryPath();
}

bool MainWindow::autosaveNow()
{
    if (!m_opener->isRecoveryEnabled() || !isWindowModified())
        return false;
    Session s;
    s.scenario = currentSpec();
    s.view = captureView(*m_view);
    s.sessionPath = m_sessionPath; // restored under its name, Save writes there
    if (const Status st = m_opener->saveRecovery(s); !st) {
        statusBar()->showMessage(
            tr("Could not write the recovery copy: %1").arg(QString::fromStdString(st.error().toString())), 10000);
        return false;
    }
    return true;
}

bool MainWindow::offerRecovery()
{
    return m_opener->readLeftWork(); // read on the worker: leftWorkRead() -> restoreLeftWork()
}

bool MainWindow::restoreLeftWork()
{
    const std::optional<SessionOpener::LeftWork> left = m_opener->takeLeftWork();
    if (!left)
        return false;
    QMessageBox box(QMessageBox::Question, tr("Recover unsaved work"),
                    tr("idlescope ended without closing while it had unsaved changes (saved %1).")
                        .arg(QLocale().toString(QFileInfo(left->path).lastModified(), QLocale::ShortFormat)),
                    QMessageBox::NoButton, this);
    box.setInformativeText(tr("Restore them?"));
    QPushButton *restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Discard);
    box.setDefaultButton(restore);
    box.exec();
    SessionOpener::forgetLeftWork(left->path); // restored into this window's copy, or declined
    if (box.clickedButton() != restore)
        return false;
    // Its source files were hashed, and stamped, on the worker: the question reads nothing.
    if (const QString refused = m_opener->allowSources(left->path, left->sources); !refused.isEmpty()) {
        m_messages->showError(tr("The unsaved work was not restored: %1").arg(refused));
        return false;
    }
    // The restored work is unsaved: one undo step from the scenario shown, the window modified.
    if (left->targetTable) // read with the copy: the picker does not read the file again
        m_setup->targetPicker()->rememberTableFile(left->session.scenario.target.path, *left->targetTable);
    showSpecInPanels(left->session.scenario);
    m_opener->setPendingView(left->session.view);
    commitEdit(tr("Restore unsaved work"));
    // The work of a session file comes back as that session, unsaved: the title names it
    // and Save writes to it (a copy of an untitled window stays untitled).
    if (!left->session.sessionPath.isEmpty())
        setSessionPath(left->session.sessionPath);
    simulate(true);
    autosaveNow(); // the work is in this window's copy from now on
    return true;
}

void MainWindow::openSessionDialog()
{
    if (!maybeSaveChanges())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), kSessionFilter);
    if (!path.isEmpty())
        openSession(path); // read on the worker: its errors go to the message bar
}

void MainWindow::exportRunData(bool json)
{
    if (!m_snapshot || m_snapshot->governorCount() == 0)
        return;
    const int g = std::max(0, m_view->selectedGovernor());
    const QString suggested = m_snapshot->name(g) + (json ? QStringLiteral(".json") : QStringLiteral(".csv"));
    QString path = QFileDialog::getSaveFileName(this, tr("Export entries"), suggested,
                                                json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (json && !path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) // the format chosen, not the name
        path += QStringLiteral(".json");
    const Status st = exportEntries(*m_snapshot, g, path);
    if (!st)
        m_messages->showError(QString::fromStdString(st.error().toString()));
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    m_geometryRestored = restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // The user's own dock widths, when saved, replace the first show's (showEvent()).
    m_docksSized = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::applyStartSize()
{
    // A later start keeps the user's size: resizing after restoreGeometry() undid it.
    if (!m_geometryRestored)
        resize(firstStartSize(screen()->availableGeometry()));
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_docksSized)
        return;
    m_docksSized = true;
    // The docks' minimums are small, so that the window fits a 1024-pixel projector (they
    // scroll there); their first widths are the comfortable ones, Setup 285 px and the
    // Parameters / inspector column 475 px, in proportion on a narrower window.
    const double share = std::min(1.0, width() / 1600.0);
    auto *setup = findChild<QDockWidget *>(QStringLiteral("setupDock"));
    auto *parameters = findChild<QDockWidget *>(QStringLiteral("parameterDock"));
    if (setup && parameters)
        resizeDocks({setup, parameters}, {static_cast<int>(285 * share), static_cast<int>(475 * share)},
                    Qt::Horizontal);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSaveChanges()) {
        event->ignore();
        return;
    }
    m_opener->discardRecovery(); // closed on purpose: nothing to recover
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    m_playback->pause();
    m_runner->cancel();
    QMainWindow::closeEvent(event);
}

} // namespace idlescope
