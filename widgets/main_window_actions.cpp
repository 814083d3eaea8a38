// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's menus, shortcuts, sessions, exports and saved preferences
// (kept apart from the composition in main_window.cpp).
#include "widgets/main_window.h"

#include "widgets/comparison/comparison_view.h"
#include "widgets/export/data_export.h"
#include "widgets/export/figure_export.h"
#include "widgets/export/plot_export.h"
#include "widgets/help/concepts_dialog.h"
#include "widgets/inspector/episode_inspector.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/playback_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/plots/duration_histogram_plot.h"
#include "widgets/plots/plot_base.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/session/recent_files.h"
#include "widgets/session/session.h"
#include "widgets/view_state.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

namespace idlescope {

namespace {
const QString kSessionFilter = QObject::tr("idlescope sessions (*.idlescope);;All files (*)");
} // namespace

void MainWindow::createMenus()
{
    createFileMenu();
    createViewMenu();
    createSimulationMenus();
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
        if (const QString err = openSession(path); !err.isEmpty())
            QMessageBox::warning(this, tr("Open session"), err);
    });
    file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] { saveSessionDialog(false); });
    file->addAction(tr("Save session &as\u2026"), QKeySequence::SaveAs, this, [this] { saveSessionDialog(true); });
    file->addSeparator();
    file->addAction(tr("Open &table\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open idle-state table"), QString(),
                                                          tr("Tables (*.json);;All files (*)"));
        if (!path.isEmpty())
            m_setup->loadTableFile(path);
    });
    file->addAction(tr("Open s&tream\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open wakeup stream"), QString(),
                                                          tr("Streams (*.csv *.csv.gz);;All files (*)"));
        if (!path.isEmpty())
            m_setup->loadStreamFile(path);
    });
    file->addAction(tr("Open kernel t&race\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open kernel trace"), QString(),
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
            exportFigureWithDialog(*p->customPlot(), this, p->title(), figureCaption(p));
        });
    exp->addAction(tr("Window as PNG\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save window"), QStringLiteral("idlescope.png"),
                                                          tr("PNG image (*.png)"));
        if (!path.isEmpty() && !saveScreenshot(path))
            showError(tr("Could not write %1").arg(path));
    });
    exp->addSeparator();
    exp->addAction(tr("Selected governor's entries as CSV\u2026"), this, [this] { exportRunData(false); });
    exp->addAction(tr("Selected governor's entries as JSON\u2026"), this, [this] { exportRunData(true); });
    exp->addAction(tr("Summaries as JSON\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export summaries"), QStringLiteral("summaries.json"),
                                                          tr("JSON (*.json)"));
        if (!path.isEmpty() && m_snapshot)
            if (const Status st = exportSummariesJson(*m_snapshot, path); !st)
                showError(QString::fromStdString(st.error().toString()));
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
    // The idle-duration histogram is the stream's, drawn once: no governor colours in it.
    if (!qobject_cast<DurationHistogramPlot *>(plot))
        c.legend = legendFor(*m_snapshot);
    return c;
}

void MainWindow::createViewMenu()
{
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(tr("Zoom &out"), QKeySequence(Qt::Key_Backspace), this, [this] { m_view->zoomOut(); });
    m_viewMenu->addAction(tr("Zoom to &whole run"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] { m_view->resetZoom(); });
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
    play->addAction(tr("To &end (counts of the whole run)"), QKeySequence(Qt::Key_End), m_playback, &PlaybackBar::toEnd);
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
    m_sessionPath = path;
    RecentFiles().add(path);
    m_recent->rebuild();
    setWindowTitle(tr("%1 \u2014 idlescope").arg(QFileInfo(path).fileName()));
    return {};
}

QString MainWindow::openSession(const QString &path)
{
    auto s = loadSession(path);
    if (!s) {
        RecentFiles().remove(path);
        m_recent->rebuild();
        return QString::fromStdString(s.error().toString());
    }
    m_pendingView = std::make_unique<SessionView>(s->view);
    // The title and recent files take the session when its snapshot arrives
    // (showSnapshot); a workload that fails to build is reported by onRunFailed.
    m_openingSession = path;
    applySpec(s->scenario);
    return {};
}

QString MainWindow::openFile(const QString &path)
{
    const QString lower = path.toLower();
    QString err;
    if (lower.endsWith(QLatin1String(".idlescope"))) {
        err = openSession(path);
    } else {
        // The panel reports its own errors (no such file) through errorOccurred -> the message bar.
        QString reported;
        const auto c = connect(m_setup, &SetupPanel::errorOccurred, this, [&reported](const QString &m) { reported = m; });
        const bool ok = lower.endsWith(QLatin1String(".csv")) || lower.endsWith(QLatin1String(".csv.gz"))
                            ? m_setup->loadStreamFile(path)
                            : m_setup->loadTraceFile(path);
        disconnect(c);
        if (!ok)
            return reported.isEmpty() ? tr("%1: could not be opened").arg(path) : reported;
        return {};
    }
    if (!err.isEmpty())
        showError(err);
    return err;
}

void MainWindow::saveSessionDialog(bool saveAs)
{
    QString path = m_sessionPath;
    if (saveAs || path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save session"), QStringLiteral("session.idlescope"),
                                            kSessionFilter);
    if (path.isEmpty())
        return;
    if (const QString err = saveSessionTo(path); !err.isEmpty())
        QMessageBox::warning(this, tr("Save session"), err);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::openSessionDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), kSessionFilter);
    if (path.isEmpty())
        return;
    if (const QString err = openSession(path); !err.isEmpty())
        QMessageBox::warning(this, tr("Open session"), err);
}

void MainWindow::exportRunData(bool json)
{
    if (!m_snapshot || m_snapshot->governorCount() == 0)
        return;
    const int g = std::max(0, m_view->selectedGovernor());
    const GovernorRun &run = m_snapshot->runs[static_cast<std::size_t>(g)];
    const QString suggested = QString::fromStdString(run.variant) + (json ? QStringLiteral(".json") : QStringLiteral(".csv"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export entries"), suggested,
                                                      json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const Status st = json ? exportRunJson(run, m_snapshot->table, *m_snapshot->stream, path)
                           : exportRunCsv(run, m_snapshot->table, *m_snapshot->stream, path);
    if (!st)
        showError(QString::fromStdString(st.error().toString()));
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    m_playback->pause();
    m_runner->cancel();
    QMainWindow::closeEvent(event);
}

} // namespace idlescope
