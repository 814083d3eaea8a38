// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/main_window.h"

#include "widgets/trace/cpu_lanes_view.h"
#include "widgets/trace/entries_dock.h"

#include "widgets/comparison/comparison_view.h"
#include "widgets/comparison/tradeoff_view.h"
#include "widgets/inspector/episode_inspector.h"
#include "widgets/panels/governor_legend.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/message_center.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/playback_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/panels/target_picker.h"
#include "widgets/panels/trace_workload_page.h"
#include "widgets/plots/duration_histogram_plot.h"
#include "widgets/plots/miss_histogram_plot.h"
#include "widgets/plots/miss_ratio_plot.h"
#include "widgets/plots/prediction_plot.h"
#include "widgets/plots/state_timeline_plot.h"
#include "widgets/plots/time_share_plot.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/session/opening_bar.h"
#include "widgets/session/session.h"
#include "widgets/session/session_opener.h"
#include "widgets/view_state.h"

#include "widgets/session/recent_files.h"
#include "widgets/space_key_guard.h"
#include "widgets/sweep/sweep_view.h"

#include "core/io/atomic_file.h"
#include "core/replay/same_wakeup.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_limits.h"

#include <QApplication>
#include <QBuffer>
#include <QDateTime>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QGridLayout>
#include <QIcon>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>

// The icon resource lives in a static library: pull its initialiser in explicitly
// (Q_INIT_RESOURCE must be used outside any namespace).
static void initIconResource()
{
    Q_INIT_RESOURCE(icons);
}

namespace idlescope {

namespace {

/// True when @p now replays the same workload on the same target as @p before, so
/// only parameters (tunables, governors, latency limit, tick rate, state edits)
/// changed: the user's zoom still means the same stretch of the run. The span
/// count guards a file re-read from disk under the same name.
bool sameWorkloadAndTarget(const SimulationSnapshot &before, const SimulationSnapshot &now)
{
    const TargetSpec &x = before.spec.target;
    const TargetSpec &y = now.spec.target;
    const std::size_t spansBefore = before.stream ? before.stream->size() : 0;
    const std::size_t spansNow = now.stream ? now.stream->size() : 0;
    return sameWorkload(before.spec.workload, now.spec.workload) && x.kind == y.kind && x.id == y.id && x.path == y.path
           && spansBefore == spansNow;
}

/// Where the selection (@p g, @p entry) of @p before lives in @p now: the same
/// governor by name (its index moves when governors are added or removed) and
/// the same wakeup (sameWakeupEntry(): a parameter changes how many entries a
/// span takes). (-1, -1) when the governor is gone or the stream is another one.
std::pair<int, qint64> followSelection(const SimulationSnapshot *before, const SimulationSnapshot &now, int g,
                                       qint64 entry)
{
    if (!before || g < 0 || g >= before->governorCount() || !now.stream || before->stream != now.stream)
        return {-1, -1};
    const int moved = now.indexOf(before->governors[static_cast<std::size_t>(g)].displayName());
    if (moved < 0)
        return {-1, -1};
    const std::int64_t same = sameWakeupEntry(*before->governors[static_cast<std::size_t>(g)].run, entry,
                                              *now.governors[static_cast<std::size_t>(moved)].run);
    return same < 0 ? std::pair<int, qint64>{-1, -1} : std::pair<int, qint64>{moved, same};
}

/// What the snapshot's replays were, for the status bar: "simulated in 12 ms" (every governor),
/// "1 of 4 governors simulated in 12 ms: menu-6.19 (the others kept)", or "" when none was.
/// A run the replay made again entry for entry is the one @p before had, but it was simulated.
QString replayText(const SimulationSnapshot *before, const SimulationSnapshot &now);

/// " · the trace cannot tell: …" for a trace with limits (core/trace/trace_limits.h), else "".
QString traceCaveat(const SimulationSnapshot &now)
{
    if (!now.trace)
        return {};
    const trace::TraceLimits l = trace::traceLimits(*now.trace->trace);
    QStringList parts;
    if (l.noTimerEvents)
        parts << MainWindow::tr("no timer events, so every governor knows the future");
    if (l.defaultIdleOnly)
        parts << MainWindow::tr("state 1 only, maybe no cpuidle driver (then no governor chose the recorded run)");
    if (l.microsecondTimestamps)
        parts << MainWindow::tr("\u00b5s timestamps round residencies");
    return parts.isEmpty() ? QString()
                           : MainWindow::tr(" \u00b7 the trace cannot tell: %1").arg(parts.join(QStringLiteral("; ")));
}

QString replayText(const SimulationSnapshot *before, const SimulationSnapshot &now)
{
    QStringList replayed;
    for (const GovernorResult &g : now.governors) {
        bool shared = false;
        if (before && before->stream == now.stream)
            for (const GovernorResult &old : before->governors)
                shared = shared || (g.run == old.run && !g.replayed); // shared, not replayed
        if (!shared)
            replayed << QString::fromStdString(g.displayName());
    }
    if (replayed.size() == static_cast<qsizetype>(now.governors.size())) // every governor (or none to run)
        return MainWindow::tr("simulated in %1 ms").arg(now.simulationMs, 0, 'f', 0);
    if (replayed.isEmpty())
        return {};
    return MainWindow::tr("%1 of %2 governors simulated in %3 ms: %4 (the others kept)")
        .arg(replayed.size())
        .arg(now.governors.size())
        .arg(now.simulationMs, 0, 'f', 0)
        .arg(replayed.join(QStringLiteral(", ")));
}

/**
 * The status bar's line for @p now: what was simulated and how long it took. When nothing
 * was, and @p before had replayed governors (@p beforeReplay, its replayText()), the runs shown
 * are those: a slider dragged replays the governor while it moves, and its release asks for
 * the scenario the drag left, which needs no new run. The line says which governor re-ran
 * ("unchanged" there read as if the slider had done nothing).
 */
QString statusLine(const SimulationSnapshot *before, const SimulationSnapshot &now, const QString &beforeReplay)
{
    const QString scenario = QStringLiteral("%1 \u00b7 %2").arg(now.targetId, now.workloadDescription);
    const QString replay = replayText(before, now);
    QString line;
    if (!replay.isEmpty())
        line = QStringLiteral("%1 \u00b7 %2").arg(scenario, replay);
    else if (!beforeReplay.isEmpty())
        line = MainWindow::tr("%1 \u00b7 %2; nothing left to re-run").arg(scenario, beforeReplay);
    else
        line = MainWindow::tr("%1 \u00b7 unchanged: no governor needed a new run").arg(scenario);
    return line + traceCaveat(now);
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_view(new ViewState(this)), m_runner(new SimulationRunner(this)),
      m_undo(new QUndoStack(this)), m_autosave(new QTimer(this))
{
    setupUi();
    createMenus();
    createConnections();
    restoreSettings();
    applySpec(defaultScenario());
    m_committed = editState();
}

MainWindow::~MainWindow()
{
    // The undo stack clears itself (cleanChanged) when the children are deleted, after
    // this window's members: a crash-like end must leave the recovery copy alone.
    disconnect(m_undo, nullptr, this, nullptr);
}

void MainWindow::setupUi()
{
    setSessionPath(QString());
    initIconResource();
    setWindowIcon(QIcon(QStringLiteral(":/icons/idlescope.svg")));
    // Space plays and pauses, except where a focused button, field or list needs it.
    qApp->installEventFilter(new SpaceKeyGuard(this));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    auto *central = new QWidget(this);
    auto *v = new QVBoxLayout(central);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    m_message = new MessageBar(central);
    v->addWidget(m_message);
    m_messages = new MessageCenter(m_message, statusBar(), this);
    m_legend = new GovernorLegend(m_view, central);
    v->addWidget(m_legend);
    // With no governor selected the plots would show empty "0 … 1 ns" axes: say what to do instead.
    m_plotStack = new QStackedWidget(central);
    m_plotStack->addWidget(createPlots());
    m_noGovernorHint = new QLabel(tr("Select a governor in the Setup panel"), m_plotStack);
    m_noGovernorHint->setAlignment(Qt::AlignCenter);
    m_noGovernorHint->setStyleSheet(QStringLiteral("color:#707070; font-size:14pt;"));
    m_plotStack->addWidget(m_noGovernorHint);
    // The stale mark lies over the plots in the same grid cell (the layout keeps it their size).
    auto *plotArea = new QWidget(central);
    auto *cell = new QGridLayout(plotArea);
    cell->setContentsMargins(0, 0, 0, 0);
    cell->addWidget(m_plotStack, 0, 0);
    m_staleMark = new QLabel(tr("Simulating the new scenario: the plots show the previous run"), plotArea);
    m_staleMark->setAlignment(Qt::AlignCenter);
    // An overlay over the plots: it takes their cell's size and never sizes the cell (at 14 pt
    // its one line asked 662 px, and a 1024 px window grew to 1134 px while it showed).
    m_staleMark->setWordWrap(true);
    m_staleMark->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_staleMark->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_staleMark->setStyleSheet(QStringLiteral("background: rgba(255, 255, 255, 170); color: #4e79a7; "
                                              "font-size: 14pt; font-weight: bold;"));
    m_staleMark->hide();
    cell->addWidget(m_staleMark, 0, 0);
    v->addWidget(plotArea, 1);
    m_playback = new PlaybackBar(m_view, central);
    v->addWidget(m_playback);
    setCentralWidget(central);
    createDocks();

    m_status = new QLabel(this);
    m_busy = new QLabel(tr("simulating\u2026"), this);
    m_busy->setStyleSheet(QStringLiteral("color:#4e79a7; font-weight:bold;"));
    m_busy->hide();
    auto *cancel = new QToolButton(this);
    cancel->setText(tr("Cancel"));
    cancel->setToolTip(tr("Stop this simulation and go back to the scenario the plots show"));
    connect(cancel, &QToolButton::clicked, this, &MainWindow::cancelSimulation);
    cancel->hide();
    m_cancel = cancel;
    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &MainWindow::updateProgress);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_busy);
    statusBar()->addPermanentWidget(m_cancel);
    m_openingBar = new OpeningBar(m_opener, this);
    statusBar()->addPermanentWidget(m_openingBar);
    resize(1600, 1000);
}

namespace {
/// A splitter of @p orientation holding @p parts in order, each with its stretch factor.
QSplitter *splitter(Qt::Orientation orientation, std::initializer_list<std::pair<QWidget *, int>> parts)
{
    auto *s = new QSplitter(orientation);
    for (const auto &[widget, stretch] : parts) {
        s->addWidget(widget);
        s->setStretchFactor(s->count() - 1, stretch);
    }
    return s;
}
} // namespace

QWidget *MainWindow::createPlots()
{
    auto *timeline = new StateTimelinePlot(m_view);
    auto *prediction = new PredictionPlot(m_view);
    auto *ratio = new MissRatioPlot(m_view);
    QSplitter *timeViews = splitter(Qt::Vertical, {{timeline, 3}, {prediction, 4}, {ratio, 2}});

    auto *misses = new MissHistogramPlot(m_view);
    auto *share = new TimeSharePlot(m_view);
    auto *durations = new DurationHistogramPlot(m_view);
    QSplitter *stats = splitter(Qt::Horizontal, {{misses, 4}, {share, 3}, {durations, 3}});

    QSplitter *all = splitter(Qt::Vertical, {{timeViews, 5}, {stats, 2}});
    stats->setMinimumHeight(190);
    all->setChildrenCollapsible(false);
    timeViews->setChildrenCollapsible(false);
    stats->setChildrenCollapsible(false);
    for (PlotBase *p :
         {static_cast<PlotBase *>(timeline), static_cast<PlotBase *>(prediction), static_cast<PlotBase *>(ratio)})
        p->setMinimumHeight(TIME_PLOT_MIN_HEIGHT);
    m_plots = {timeline, prediction, ratio, misses, share, durations};
    // Below the plots' least heights (a 1024 x 768 projector with the docks open) the plots
    // scroll, each still readable, instead of shrinking to their titles.
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("plotScroll"));
    scroll->setWidget(all);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return scroll;
}

QDockWidget *MainWindow::addDock(const QString &title, const QString &objectName, QWidget *w, Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(w);
    addDockWidget(area, dock);
    return dock;
}

namespace {
/// @p w in a scroll area at least @p minWidth wide. Narrower than @p w needs (a 1024 x 768
/// projector: the side docks and the plots share 1024 pixels), it scrolls sideways too.
QScrollArea *scrolled(QWidget *w, int minWidth)
{
    auto *scroll = new QScrollArea;
    scroll->setWidget(w);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(minWidth);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    return scroll;
}
} // namespace

void MainWindow::createDocks()
{
    m_setup = new SetupPanel;
    m_opener = new SessionOpener(m_setup, this);
    QDockWidget *setupDock =
        addDock(tr("Setup"), QStringLiteral("setupDock"), scrolled(m_setup, 200), Qt::LeftDockWidgetArea);
    m_parameters = new ParameterPanel;
    QDockWidget *paramDock = addDock(tr("Parameters"), QStringLiteral("parameterDock"), scrolled(m_parameters, 260),
                                     Qt::RightDockWidgetArea);
    m_inspector = new EpisodeInspector;
    m_inspector->setViewState(m_view);
    m_inspectorDock = addDock(tr("Episode inspector"), QStringLiteral("inspectorDock"), scrolled(m_inspector, 260),
                              Qt::RightDockWidgetArea);
    tabifyDockWidget(paramDock, m_inspectorDock);
    paramDock->raise();
    m_comparison = new ComparisonView;
    QDockWidget *compDock =
        addDock(tr("Comparison"), QStringLiteral("comparisonDock"), m_comparison, Qt::BottomDockWidgetArea);
    // "No power data": the Setup panel's target, where a table file with power data is chosen.
    connect(m_comparison, &ComparisonView::powerDataRequested, this, [this, setupDock] {
        setupDock->show();
        setupDock->raise();
        m_setup->targetPicker()->setFocus(Qt::OtherFocusReason);
        if (auto *scroll = qobject_cast<QScrollArea *>(setupDock->widget()))
            scroll->ensureWidgetVisible(m_setup->targetPicker());
        // The message bar wraps its words; the status bar cut the how-to at the window's width.
        m_messages->showNote(ComparisonView::powerDataHowTo());
    });
    // The bottom dock spans only the plots; the side docks keep their full height.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    resizeDocks({setupDock, paramDock}, {285, 400}, Qt::Horizontal);
    m_entries = new EntriesDock(m_view);
    QDockWidget *entriesDock =
        addDock(tr("Entries"), QStringLiteral("entriesDock"), m_entries, Qt::BottomDockWidgetArea);
    tabifyDockWidget(compDock, entriesDock);
    m_cpuLanes = new CpuLanesView(this);
    tabifyDockWidget(compDock, addDock(tr("CPUs"), QStringLiteral("cpusDock"), m_cpuLanes, Qt::BottomDockWidgetArea));
    connect(m_cpuLanes, &CpuLanesView::cpuPicked, m_setup->tracePage(), &TraceWorkloadPage::pickCpu);
    connect(m_cpuLanes, &CpuLanesView::disagreementPicked, this, &MainWindow::goToDisagreement);
    m_sweep = new SweepView(this);
    QDockWidget *sweepDock = addDock(tr("Sweep"), QStringLiteral("sweepDock"), m_sweep, Qt::BottomDockWidgetArea);
    tabifyDockWidget(compDock, sweepDock);
    // Three stacked panels need more than the table's height: a finished sweep, or its tab
    // raised over a finished one, makes room (up to half the window: on a 768-line projector
    // the plots keep theirs, and the figure scrolls in the dock).
    const auto roomForSweep = [this, sweepDock] {
        const int want = std::min(420, height() / 2);
        if (m_sweep->result().ok() && !sweepDock->isFloating() && sweepDock->height() < want)
            resizeDocks({sweepDock}, {want}, Qt::Vertical);
    };
    connect(m_sweep, &SweepView::finished, this, roomForSweep);
    connect(sweepDock, &QDockWidget::visibilityChanged, this, [roomForSweep](bool visible) {
        if (visible)
            roomForSweep();
    });
    // The comparison table's misses, throughput and energy side by side (it follows the table).
    m_tradeoff = new TradeoffView(m_comparison->model());
    tabifyDockWidget(compDock,
                     addDock(tr("Trade-off"), QStringLiteral("tradeoffDock"), m_tradeoff, Qt::BottomDockWidgetArea));
    compDock->raise();
    resizeDocks({compDock}, {175}, Qt::Vertical);
}

void MainWindow::createConnections()
{
    connectOpener();
    connectPanels();
    connectRunsAndViews();
}

/// What the session opener reads on its worker reaches the window here.
void MainWindow::connectOpener()
{
    connect(m_opener, &SessionOpener::scenarioRead, this,
            [this](const ScenarioSpec &scenario, const std::optional<IdleStateTable> &targetTable) {
                if (targetTable) // read with the session: the picker does not read the file again
                    m_setup->targetPicker()->rememberTableFile(scenario.target.path, *targetTable);
                applySpec(scenario);
                m_committed = editState(); // the session opened is no step to undo
            });
    connect(m_opener, &SessionOpener::sessionAdopted, this, [this](const QString &path) {
        setSessionPath(path);
        // The session replaces the work: its scenario is the saved one, with no steps to undo.
        m_undo->clear();
    });
    connect(m_opener, &SessionOpener::recentFilesChanged, m_recent, &RecentFilesMenu::rebuild);
    connect(m_opener, &SessionOpener::errorOccurred, m_messages, &MessageCenter::showError);
    connect(m_opener, &SessionOpener::targetTableNotUsed, m_messages, &MessageCenter::showWarning);
    connect(m_opener, &SessionOpener::readingCancelled, this,
            [this](const QString &message) { statusBar()->showMessage(message, 5000); });
    // Files the window reads when asked, on the opener's worker as sessions are.
    connect(m_opener, &SessionOpener::leftWorkRead, this, [this] { emit recoveryOffered(restoreLeftWork()); });
    connect(m_opener, &SessionOpener::tableRead, this, [this](const QString &path, const IdleStateTable &table) {
        m_setup->targetPicker()->showTableFile(path, table);
    });
}

/// An edit in the Setup or Parameters panel is an undo step and a new run.
void MainWindow::connectPanels()
{
    connect(m_setup->targetPicker(), &TargetPicker::tableFileRequested, m_opener, &SessionOpener::openTable);
    connect(m_setup, &SetupPanel::targetChanged, this, &MainWindow::onTargetChanged);
    // Measured wake delays chosen or cleared: read by the run, on its worker, which reports a
    // file that does not read (file, line, column) and puts the panels back.
    connect(m_setup->targetPicker(), &TargetPicker::wakeDelaysChanged, this, [this] {
        commitEdit(tr("Choose wake delays"));
        simulate(true);
    });
    connect(m_setup, &SetupPanel::statesEdited, this, [this] {
        // Only the edited state changes: the tick rate chosen stays (it was reset to the table's).
        commitEdit(tr("Edit state table"));
        simulate(true);
    });
    connect(m_setup, &SetupPanel::workloadChanged, this, [this] {
        commitEdit(tr("Change workload"));
        simulate(true);
    });
    connect(m_setup, &SetupPanel::governorsChanged, this, &MainWindow::onGovernorsChanged);
    // A second instance starts at the tunables of the row it was made from; a label keeps its own.
    connect(m_setup, &SetupPanel::governorDuplicated, this, [this](const QString &from, const QString &label) {
        for (const GovernorSpec &g : m_setup->governors())
            if (g.name() == label.toStdString())
                m_parameters->copyGovernor(from, label, g.variant);
    });
    connect(m_setup, &SetupPanel::governorRenamed, m_parameters, &ParameterPanel::renameGovernor);
    connect(m_setup, &SetupPanel::errorOccurred, m_messages, &MessageCenter::showError);
    // A trace that did not import fails like a run: the panels go back to the plots' scenario.
    connect(m_setup, &SetupPanel::workloadFailed, this, &MainWindow::onRunFailed);
    // A trace's warning stays while that file is the workload (its runs, the CPU the import
    // picked, sliders), whichever way it was opened.
    connect(m_setup, &SetupPanel::warningOccurred, this,
            [this](const QString &message) { m_messages->showWarning(message, m_setup->workload()); });
    connect(m_parameters, &ParameterPanel::parametersChanged, this, [this](bool final) {
        if (final) // a slider being dragged is recorded once, when it is released
            commitEdit(tr("Change parameters"));
        simulate(final);
    });
}

/// Undo, autosave, the runner and the views that select entries.
void MainWindow::connectRunsAndViews()
{
    connect(m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) {
        setWindowModified(!clean);
        if (clean)
            m_opener->discardRecovery(); // nothing left to recover
    });
    m_autosave->setInterval(AUTOSAVE_INTERVAL_MS);
    connect(m_autosave, &QTimer::timeout, this, &MainWindow::autosaveNow);
    connect(m_runner, &SimulationRunner::snapshotReady, this, &MainWindow::showSnapshot);
    connect(m_runner, &SimulationRunner::started, this, [this](quint64 generation) {
        m_busy->setText(tr("simulating\u2026"));
        m_busy->show();
        m_messages->runStarted(generation);
        if (!m_progressTimer->isActive()) // a newer request keeps the older one's start
            m_jobStartMs = QDateTime::currentMSecsSinceEpoch();
        m_progressTimer->start();
    });
    connect(m_runner, &SimulationRunner::runFailed, this, &MainWindow::onRunFailed);
    // Warnings (some governors could not run) come with their snapshot: showSnapshot shows them.
    connect(m_view, &ViewState::entrySelected, this, &MainWindow::onEntrySelected);
    // After the inspector moved the selection (connected before these).
    for (QAction *miss : {m_inspector->nextMissAction(), m_inspector->previousMissAction()})
        connect(miss, &QAction::triggered, this, &MainWindow::zoomToSelectedEntry);
    connect(m_comparison, &ComparisonView::copyCommandRequested, this, [this] { copyAsCommand(); });
    connect(m_sweep, &SweepView::pointActivated, this, &MainWindow::openSweepPoint);
    connect(m_comparison, &ComparisonView::governorActivated, this, [this](int g) {
        // A row click selects that governor's first miss (or first entry).
        m_view->selectEntry(g, 0);
        m_inspector->nextMiss();
    });
}

ScenarioSpec MainWindow::currentSpec() const
{
    ScenarioSpec s;
    s.target = m_setup->target();
    s.target.table.tickHz = m_parameters->tickHz();
    s.workload = m_setup->workload();
    s.governors = m_setup->governors();
    for (GovernorSpec &g : s.governors)
        g.settings = m_parameters->settingsFor(g.name());
    s.latencyLimitNs = m_parameters->latencyLimitNs();
    s.wakeDelaysPath = m_setup->targetPicker()->wakeDelaysPath();
    return s;
}

void MainWindow::applySpec(const ScenarioSpec &spec)
{
    showSpecInPanels(spec);
    simulate(true);
}

void MainWindow::showSpecInPanels(const ScenarioSpec &spec)
{
    m_setup->setTarget(spec.target);
    m_setup->setWorkload(spec.workload);
    m_setup->setGovernors(spec.governors);
    m_parameters->setGovernors(spec.governors);
    for (const GovernorSpec &g : spec.governors)
        m_parameters->applySettings(g.name(), g.settings);
    // The tick control names the table's own rate: a session (or recovery copy) holds the
    // rate in force, so the table's comes from the table as its source gives it: the picker's,
    // a table file's as read on the worker when it was opened (no file is read here, on the
    // GUI thread). This machine's sysfs table is not read again: the rate in force stands.
    const IdleStateTable &original = m_setup->targetPicker()->pristineTable();
    const bool same = spec.target.kind != TargetKind::Machine && original.count() == spec.target.table.count();
    m_parameters->setTableTickHz(same ? original.tickHz : spec.target.table.tickHz);
    m_parameters->setTickHz(spec.target.table.tickHz);
    m_parameters->setLatencyLimitNs(spec.latencyLimitNs);
    m_setup->targetPicker()->setWakeDelaysPath(spec.wakeDelaysPath);
}

void MainWindow::simulate(bool immediate)
{
    const ScenarioSpec spec = currentSpec();
    if (immediate)
        m_runner->requestNow(spec);
    else
        m_runner->request(spec);
}

void MainWindow::onGovernorsChanged()
{
    std::vector<GovernorSpec> govs = m_setup->governors();
    for (GovernorSpec &g : govs)
        g.settings = m_parameters->settingsFor(g.name());
    m_parameters->setGovernors(govs);
    commitEdit(tr("Change governors"));
    simulate(true);
}

void MainWindow::onTargetChanged()
{
    m_parameters->setTableTickHz(m_setup->target().table.tickHz);
    commitEdit(tr("Change target"));
    simulate(true);
}

EditState MainWindow::editState() const
{
    return {currentSpec(), m_parameters->tableTickHz()};
}

void MainWindow::commitEdit(const QString &what)
{
    EditState now = editState();
    if (sameScenario(now.spec, m_committed.spec))
        return;
    EditState before = std::exchange(m_committed, now);
    m_undo->push(
        new ScenarioEdit(what, std::move(before), std::move(now), [this](const EditState &s) { restoreEditState(s); }));
}

void MainWindow::restoreEditState(const EditState &state)
{
    m_committed = state;
    showSpecInPanels(state.spec);
    // The table keeps its own tick rate; the one in force may be another.
    TargetSpec target = state.spec.target;
    target.table.tickHz = state.tableTickHz;
    m_setup->setTarget(target);
    m_parameters->setTableTickHz(state.tableTickHz);
    m_parameters->setTickHz(state.spec.target.table.tickHz);
    simulate(true);
}

void MainWindow::setSessionPath(const QString &path)
{
    m_sessionPath = path;
    setWindowTitle(path.isEmpty() ? tr("idlescope[*]") : tr("%1[*] \u2014 idlescope").arg(QFileInfo(path).fileName()));
}

void MainWindow::showSnapshot(std::shared_ptr<const SimulationSnapshot> snapshot)
{
    QElapsedTimer clock;
    clock.start();
    // Keep the zoom when only parameters changed (the run's end still moves with the
    // exit latencies: update the full range under the window); a new workload or
    // target shows everything.
    const bool sameRun = m_snapshot && sameWorkloadAndTarget(*m_snapshot, *snapshot);
    const auto [selGov, selEntry] =
        followSelection(m_snapshot.get(), *snapshot, m_view->selectedGovernor(), m_view->selectedEntry());
    const SnapshotPtr previous = std::exchange(m_snapshot, snapshot);
    m_sweep->setScenario(snapshot->spec);
    m_setup->targetPicker()->showMeasuredWakeDelays(snapshot->spec.wakeDelaysPath, snapshot->measuredWakeDelays);
    m_busy->setVisible(m_runner->isBusy());
    if (!m_runner->isBusy())
        endProgress();
    if (sameRun)
        m_view->updateFullRange(0, snapshot->durationNs());
    else
        m_view->setFullRange(0, snapshot->durationNs());
    m_legend->setSnapshot(snapshot);
    m_plotStack->setCurrentIndex(snapshot->governorCount() == 0 ? 1 : 0);
    m_playback->setSnapshot(snapshot);
    for (PlotBase *p : std::as_const(m_plots))
        p->setSnapshot(snapshot);
    m_comparison->setSnapshot(snapshot);
    m_inspector->setSnapshot(snapshot);
    m_entries->setSnapshot(snapshot);
    m_cpuLanes->setSnapshot(snapshot);
    // The selection follows its governor by variant id, or is cleared when that
    // governor or entry is gone; the plots and the inspector hear it from the view
    // state, after they have the new snapshot (the time plots also redraw their
    // selection line from it on every rebuild: the same entry may have moved).
    // Not a pick by the user: the view does not jump and the inspector dock is not raised.
    m_followingSelection = true;
    m_view->selectEntry(selGov, selEntry);
    m_followingSelection = false;
    if (const std::unique_ptr<SessionView> view = m_opener->takePendingView())
        applyView(*view, *m_view);
    if (m_pendingTraceEntry && (!snapshot->trace || snapshot->trace->cpu == m_pendingTraceEntry->first))
        goToDisagreement(m_pendingTraceEntry->first, m_pendingTraceEntry->second);
    m_messages->snapshotShown(snapshot->errors, snapshot->generation, snapshot->spec.workload,
                              m_opener->isFallingBack());
    m_opener->snapshotShown(); // a session being opened is the window's now (sessionAdopted)
    const QString replay = replayText(previous.get(), *snapshot);
    m_status->setText(statusLine(previous.get(), *snapshot, m_lastReplay));
    m_lastReplay = replay;
    m_lastShowMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    emit snapshotShown(snapshot);
}

void MainWindow::goToDisagreement(int cpu, qint64 traceNs)
{
    m_pendingTraceEntry.reset();
    if (!m_snapshot || !m_snapshot->trace)
        return;
    if (m_snapshot->trace->cpu != cpu) { // the one-CPU views replay that CPU first
        m_pendingTraceEntry = std::make_pair(cpu, traceNs);
        m_setup->tracePage()->pickCpu(cpu);
        return;
    }
    m_inspector->goToTraceEntry(traceNs); // the selection shows and raises the inspector
}

void MainWindow::onEntrySelected(int governorIndex, qint64 entryIndex)
{
    emit entrySelected(governorIndex, entryIndex);
    if (m_followingSelection)
        return;
    if (!m_snapshot || governorIndex < 0 || governorIndex >= m_snapshot->governorCount() || entryIndex < 0)
        return;
    const GovernorRun &run = *m_snapshot->governors[static_cast<std::size_t>(governorIndex)].run;
    if (static_cast<std::size_t>(entryIndex) >= run.size())
        return;
    // Keep the selected entry in view (next/previous miss may jump far).
    const qint64 t = run.startNs[static_cast<std::size_t>(entryIndex)];
    if (t < m_view->rangeStartNs() || t > m_view->rangeEndNs()) {
        const qint64 half = (m_view->rangeEndNs() - m_view->rangeStartNs()) / 2;
        m_view->setRange(t - half, t + half);
    }
    m_inspectorDock->show();
    m_inspectorDock->raise();
}

void MainWindow::zoomToSelectedEntry()
{
    const int g = m_view->selectedGovernor();
    const qint64 entry = m_view->selectedEntry();
    if (!m_snapshot || g < 0 || g >= m_snapshot->governorCount() || entry < 0)
        return;
    const GovernorRun &run = *m_snapshot->governors[static_cast<std::size_t>(g)].run;
    const auto i = static_cast<std::size_t>(entry);
    if (i >= run.size())
        return;
    // Entries start in order: how many the visible range holds.
    const auto first = std::lower_bound(run.startNs.begin(), run.startNs.end(), m_view->rangeStartNs());
    const auto last = std::upper_bound(run.startNs.begin(), run.startNs.end(), m_view->rangeEndNs());
    if (last - first <= MISS_ZOOM_ENTRIES * 20)
        return; // the entry has room to be seen where it is
    const std::size_t lo = i > static_cast<std::size_t>(MISS_ZOOM_ENTRIES) ? i - MISS_ZOOM_ENTRIES : 0;
    const std::size_t hi = std::min(run.size() - 1, i + MISS_ZOOM_ENTRIES);
    m_view->setRange(run.startNs[lo], run.startNs[hi] + run.residencyNs[hi]);
}

bool MainWindow::isNoGovernorHintShown() const
{
    return m_plotStack->currentWidget() == m_noGovernorHint;
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

bool MainWindow::isBusyShown() const
{
    return !m_busy->isHidden();
}

void MainWindow::onRunFailed(const QString &message)
{
    m_busy->setVisible(m_runner->isBusy());
    endProgress();
    // A session being opened is refused, in words that name it.
    m_messages->runFailed(message, m_opener->runFailed(message));
    // The panels always describe the plots: back to the scenario on screen, so that
    // "Save session" or the next slider move never carries the file that failed.
    if (m_snapshot) {
        revertPanelsToSnapshot();
    } else if (m_opener->startFallback()) {
        // Nothing shown yet (a session or file given at start-up): the default scenario.
        applySpec(defaultScenario());
        m_committed = editState();
    }
}

void MainWindow::revertPanelsToSnapshot()
{
    showSpecInPanels(m_snapshot->spec);
    // The edit that did not make it is no step to undo: the panels are back to the step before it.
    const EditState shown = editState();
    const int top = m_undo->index() - 1;
    if (top >= 0 && top == m_undo->count() - 1 && !sameScenario(shown.spec, m_committed.spec)) {
        auto *last = const_cast<QUndoCommand *>(m_undo->command(top));
        if (const auto *edit = dynamic_cast<const ScenarioEdit *>(last);
            edit && sameScenario(edit->after().spec, m_committed.spec)) {
            last->setObsolete(true); // QUndoStack lends its steps const; dropping one is its own API
            m_undo->undo();          // an obsolete step is dropped, not undone
        }
    }
    m_committed = shown;
}

void MainWindow::cancelSimulation()
{
    if (!m_runner->isBusy())
        return;
    m_runner->cancel();
    m_busy->hide();
    endProgress();
    m_opener->cancelled();
    if (m_snapshot)
        revertPanelsToSnapshot();
    statusBar()->showMessage(tr("Simulation cancelled: the panels show the scenario of the plots again"), 5000);
}

void MainWindow::updateProgress()
{
    if (!m_runner->isBusy()) {
        endProgress();
        return;
    }
    if (QDateTime::currentMSecsSinceEpoch() - m_jobStartMs < STALE_AFTER_MS)
        return;
    setStale(true);
    m_cancel->show();
    const std::vector<JobProgress::Governor> progress = m_runner->progress();
    QStringList parts;
    for (const JobProgress::Governor &g : progress)
        parts << QStringLiteral("%1 %2 %").arg(QString::fromStdString(g.variant)).arg(std::lround(g.fraction * 100));
    m_busy->setText(
        parts.isEmpty()
            ? tr("building the workload\u2026 (the plots show the previous run)")
            : tr("simulating %1 (the plots show the previous run)").arg(parts.join(QStringLiteral(" \u00b7 "))));
}

void MainWindow::endProgress()
{
    m_progressTimer->stop();
    m_cancel->hide();
    m_busy->setText(tr("simulating\u2026"));
    setStale(false);
}

void MainWindow::setStale(bool stale)
{
    if (stale == m_stale)
        return;
    m_stale = stale;
    m_staleMark->setVisible(stale);
    if (stale)
        m_staleMark->raise();
    m_legend->setEnabled(!stale);
    m_comparison->setEnabled(!stale);
}

QString MainWindow::busyText() const
{
    return m_busy->isHidden() ? QString() : m_busy->text();
}

bool MainWindow::saveScreenshot(const QString &path, QString *error)
{
    refreshPlotsNow();
    const QPixmap pm = grab();
    // Encoded in memory, then saved as every file is (core/io/atomic_file.h): QPixmap::save()
    // writes in place, and a disk that fills up part-way cut the old picture short.
    QByteArray png;
    QBuffer buffer(&png);
    if (pm.isNull() || !buffer.open(QIODevice::WriteOnly) || !pm.save(&buffer, "PNG")) {
        if (error)
            *error = tr("%1: the window could not be rendered as PNG").arg(path);
        return false;
    }
    if (Status s = writeFileAtomically(path.toStdString(), std::string_view(png.constData(), size_t(png.size()))); !s) {
        if (error)
            *error = QString::fromStdString(s.error().toString());
        return false;
    }
    return true;
}

void MainWindow::refreshPlotsNow()
{
    for (PlotBase *p : std::as_const(m_plots))
        p->refreshNow();
}

} // namespace idlescope
