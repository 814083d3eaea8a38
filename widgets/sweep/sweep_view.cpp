// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/sweep/sweep_view.h"

#include "core/replay/governor_factory.h"
#include "core/workloads/workload.h"
#include "widgets/export/figure_export.h"
#include "widgets/export/scenario_context.h"
#include "widgets/panels/flow_layout.h"
#include "widgets/runner/spec_workload.h"
#include "widgets/sweep/sweep_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace idlescope {

namespace {

/// "w:interval_us" / "t:menu-6.14:INTERVALS" (the combo's data) and back.
QString axisKey(const SweepAxisChoice &a)
{
    return a.kind == SweepAxisChoice::Kind::Workload
               ? QStringLiteral("w:") + a.param
               : QStringLiteral("t:%1:%2").arg(QString::fromStdString(a.governor), a.param);
}

SweepAxisChoice axisFromKey(const QString &key)
{
    SweepAxisChoice a;
    const QStringList parts = key.split(QLatin1Char(':'));
    if (parts.size() == 3 && parts[0] == QLatin1String("t")) {
        a.kind = SweepAxisChoice::Kind::Tunable;
        a.governor = parts[1].toStdString();
        a.param = parts[2];
    } else if (parts.size() == 2) {
        a.param = parts[1];
    }
    return a;
}

/// The variant of the governor named @p name (GovernorSpec::name()) in @p scenario, else @p name.
std::string variantNamed(const ScenarioSpec &scenario, const std::string &name)
{
    for (const GovernorSpec &g : scenario.governors)
        if (g.name() == name)
            return g.variant;
    return name;
}

/// Held units per axis unit: thousandths for µs, % and Hz parameters, 1 otherwise.
double heldPerUnit(const SweepRequest &r)
{
    return sweepAxisValue(r, 1000) == 1.0 ? 1000.0 : 1.0;
}

} // namespace

SweepView::SweepView(QWidget *parent) : QWidget(parent)
{
    m_axis = new QComboBox(this);
    m_axis->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_axis->setMinimumContentsLength(18);
    m_axis->setToolTip(tr("The parameter on the x axis: one of the workload's, or a governor's tunable"));
    m_from = new QDoubleSpinBox(this);
    m_to = new QDoubleSpinBox(this);
    for (QDoubleSpinBox *b : {m_from, m_to}) {
        b->setDecimals(3);
        b->setRange(0, 1e12);
    }
    m_points = new QSpinBox(this);
    m_points->setRange(2, 64);
    m_points->setValue(8);
    m_points->setToolTip(tr("Number of values from the first to the last"));
    m_log = new QCheckBox(tr("log steps"), this);
    m_log->setToolTip(tr("Values evenly spaced on a logarithmic scale (the wakeup-interval figures), else linear"));
    m_run = new QPushButton(tr("Sweep"), this);
    m_run->setToolTip(tr("Replay every governor of the scenario at each value (one seeded stream per value)"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_export = new QPushButton(tr("Export\u2026"), this);
    m_export->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    // The controls wrap (a flow layout): the tab shares the bottom dock and must not widen the window.
    auto *controls = new QWidget(this);
    auto *bar = new FlowLayout(controls, 6, 4);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_axis);
    bar->addWidget(new QLabel(tr("from"), this));
    bar->addWidget(m_from);
    bar->addWidget(new QLabel(tr("to"), this));
    bar->addWidget(m_to);
    bar->addWidget(m_points);
    bar->addWidget(new QLabel(tr("points"), this));
    bar->addWidget(m_log);
    bar->addWidget(m_run);
    bar->addWidget(m_cancel);
    // The second row: how far the sweep is, what it was, and its export.
    auto *status = new QHBoxLayout;
    status->setContentsMargins(0, 0, 0, 0);
    status->addWidget(m_progress);
    status->addWidget(m_status, 1);
    status->addWidget(m_export);

    m_plot = new SweepPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(controls);
    layout->addLayout(status);
    // Three panels stacked need about 110 px each to be read: in a low dock (the comparison
    // table's height, a projector's 768 lines) the figure keeps that and scrolls.
    m_plot->setMinimumHeight(SWEEP_PLOT_MIN_HEIGHT);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_plot);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll, 1);

    connect(m_axis, &QComboBox::currentIndexChanged, this, &SweepView::axisChanged);
    connect(m_run, &QPushButton::clicked, this, &SweepView::startFromControls);
    connect(m_cancel, &QPushButton::clicked, this, &SweepView::cancel);
    connect(m_export, &QPushButton::clicked, this, &SweepView::exportWithDialog);
    connect(&m_watcher, &QFutureWatcher<SweepResult>::finished, this, &SweepView::jobFinished);
    connect(m_plot, &SweepPlot::pointClicked, this,
            [this](int point) { emit pointActivated(m_result.request, point); });
    m_progressTimer.setInterval(100);
    connect(&m_progressTimer, &QTimer::timeout, this, &SweepView::updateProgress);
}

SweepView::~SweepView()
{
    // The job reads only its own copies and the flags it shares: stop it and let it end.
    cancel();
    m_watcher.waitForFinished();
}

void SweepView::setScenario(const ScenarioSpec &scenario)
{
    m_scenario = scenario;
    fillAxisChoices();
}

void SweepView::fillAxisChoices()
{
    const QString keep = m_axis->currentData().toString();
    const QSignalBlocker block(m_axis);
    m_axis->clear();
    if (const workloads::GeneratorInfo *g = workloadGenerator(m_scenario.workload))
        for (const workloads::ParamInfo &p : g->params)
            if (p.unit != workloads::ParamUnit::Choice) // a choice has no axis
                m_axis->addItem(tr("workload: %1").arg(QString::fromUtf8(p.name)),
                                QStringLiteral("w:") + QString::fromUtf8(p.name));
    std::vector<std::string> seen;
    for (const GovernorSpec &gs : m_scenario.governors) {
        if (std::find(seen.begin(), seen.end(), gs.name()) != seen.end())
            continue;
        seen.push_back(gs.name());
        if (std::unique_ptr<Governor> gov = createGovernor(gs.variant))
            for (const TunableInfo &t : gov->tunables())
                m_axis->addItem(tr("%1: %2").arg(QString::fromStdString(gs.name()), QString::fromUtf8(t.name)),
                                QStringLiteral("t:%1:%2").arg(QString::fromStdString(gs.name()),
                                                              QString::fromUtf8(t.name)));
    }
    const int i = m_axis->findData(keep);
    m_axis->setCurrentIndex(i >= 0 ? i : 0);
    if (i < 0)
        axisChanged();
    m_run->setEnabled(m_axis->count() > 0 && !isRunning());
}

void SweepView::axisChanged()
{
    // A fresh axis starts from a range around the value in force: the interval figures'
    // 1/20 to 5 times it, log-spaced; a tunable's half to four times its kernel value.
    const SweepAxisChoice a = axisFromKey(m_axis->currentData().toString());
    SweepRequest r;
    r.scenario = m_scenario;
    r.axis = a;
    if (a.kind == SweepAxisChoice::Kind::Workload) {
        const Result<workloads::ParamValues> values = generatorValues(m_scenario.workload.text);
        const int pi = values && m_scenario.workload.kind == WorkloadKind::Generator
                           ? values->info->paramIndex(a.param.toStdString())
                           : -1;
        if (pi < 0)
            return;
        const workloads::ParamInfo &p = values->info->params[static_cast<std::size_t>(pi)];
        const qint64 now = values->get(p.name);
        const double unit = heldPerUnit(r);
        const double lo = std::max<double>(static_cast<double>(p.min), static_cast<double>(now) / 20.0);
        const double hi =
            std::min<double>(static_cast<double>(p.max), std::max<double>(1.0, static_cast<double>(now)) * 5.0);
        m_from->setDecimals(unit > 1 ? 3 : 0);
        m_to->setDecimals(unit > 1 ? 3 : 0);
        m_from->setRange(static_cast<double>(p.min) / unit, static_cast<double>(p.max) / unit);
        m_to->setRange(static_cast<double>(p.min) / unit, static_cast<double>(p.max) / unit);
        m_from->setValue(lo / unit);
        m_to->setValue(hi / unit);
        m_log->setChecked(lo > 0);
    } else if (std::unique_ptr<Governor> gov = createGovernor(variantNamed(m_scenario, a.governor))) {
        for (const TunableInfo &t : gov->tunables()) {
            if (a.param != QString::fromUtf8(t.name))
                continue;
            m_from->setDecimals(0);
            m_to->setDecimals(0);
            m_from->setRange(static_cast<double>(t.minValue), static_cast<double>(t.maxValue));
            m_to->setRange(static_cast<double>(t.minValue), static_cast<double>(t.maxValue));
            m_from->setValue(static_cast<double>(std::max(t.minValue, t.kernelDefault / 2)));
            m_to->setValue(static_cast<double>(std::min(t.maxValue, std::max<std::int64_t>(1, t.kernelDefault) * 4)));
            m_log->setChecked(false);
        }
    }
}

void SweepView::setControls(const SweepAxisChoice &axis, double from, double to, int points, bool logarithmic)
{
    const int i = m_axis->findData(axisKey(axis));
    if (i >= 0)
        m_axis->setCurrentIndex(i);
    m_from->setValue(from);
    m_to->setValue(to);
    m_points->setValue(points);
    m_log->setChecked(logarithmic);
}

SweepRequest SweepView::requestFromControls() const
{
    SweepRequest r;
    r.scenario = m_scenario;
    r.axis = axisFromKey(m_axis->currentData().toString());
    const double unit = heldPerUnit(r);
    r.values = sweepValues(std::llround(m_from->value() * unit), std::llround(m_to->value() * unit), m_points->value(),
                           m_log->isChecked());
    return r;
}

void SweepView::startFromControls()
{
    start(requestFromControls(), m_log->isChecked());
}

void SweepView::start(const SweepRequest &request, bool logarithmic)
{
    cancel();
    m_watcher.waitForFinished();
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_done = std::make_shared<std::atomic<int>>(0);
    m_total = static_cast<int>(request.values.size());
    m_runningLog = logarithmic;
    m_running = true;
    const int threads = std::max(1, QThread::idealThreadCount());
    m_watcher.setFuture(QtConcurrent::run([request, cancel = m_cancelFlag, done = m_done, threads] {
        return runSweep(request, *cancel, *done, threads);
    }));
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, m_total);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_status->setText(tr("Sweeping %n value(s)\u2026", nullptr, m_total));
    m_progressTimer.start();
}

void SweepView::cancel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void SweepView::updateProgress()
{
    m_progress->setValue(unitsDone());
}

void SweepView::jobFinished()
{
    m_running = false;
    m_progressTimer.stop();
    m_progress->setVisible(false);
    m_cancel->setEnabled(false);
    m_run->setEnabled(m_axis->count() > 0);
    m_result = m_watcher.result();
    if (m_result.cancelled)
        m_status->setText(
            tr("Cancelled after %1 of %2 values; the figure shows the previous sweep.").arg(unitsDone()).arg(m_total));
    else if (!m_result.error.isEmpty())
        m_status->setText(tr("Sweep failed: %1").arg(m_result.error));
    else
        m_status->setText(tr("%1 \u2014 %2 values, one stream each (seed %3, as idlescope-cli compare --iterations 1); "
                             "click a point to open it")
                              .arg(sweepAxisTitle(m_result.request))
                              .arg(m_result.pointCount())
                              .arg(m_result.request.scenario.workload.seed));
    if (m_result.ok())
        m_plot->setResult(m_result, m_runningLog);
    m_export->setEnabled(m_plot->result().ok());
    emit finished();
}

QString SweepView::statusText() const
{
    return m_status->text();
}

FigureCaption SweepView::caption() const
{
    const SweepResult &r = m_plot->result();
    FigureCaption caption;
    caption.title = m_plot->title();
    for (std::size_t g = 0; g < r.governors.size(); ++g)
        caption.legend.append({QString::fromStdString(r.governors[g]), QColor(r.governorColors[g])});
    // The swept parameter has no fixed value: the scenario's own (the workload's "every
    // 100 us", a tunable's setting) would name one it never had in the figure.
    ScenarioSpec scenario = r.request.scenario;
    if (r.request.axis.kind == SweepAxisChoice::Kind::Tunable)
        for (GovernorSpec &g : scenario.governors)
            if (g.variant == r.request.axis.governor)
                std::erase_if(g.settings, [&](const TunableSetting &t) {
                    return QString::fromStdString(t.first) == r.request.axis.param;
                });
    caption.context = scenarioContext(scenario);
    if (r.request.axis.kind == SweepAxisChoice::Kind::Workload)
        for (QString &line : caption.context)
            if (line.startsWith(QStringLiteral("Workload: ")))
                line = tr("Workload: %1 (seed %2), %3 swept")
                           .arg(r.workloadText)
                           .arg(scenario.workload.seed)
                           .arg(r.request.axis.param);
    caption.context << tr("Swept: %1 over %2 values (workload spec %3)")
                           .arg(sweepAxisTitle(r.request))
                           .arg(r.pointCount())
                           .arg(r.workloadText);
    return caption;
}

void SweepView::exportWithDialog()
{
    if (!m_plot->result().ok())
        return;
    m_plot->refreshNow();
    exportFigureWithDialog(*m_plot->customPlot(), this, figureFileName(m_plot->title()), caption());
}

} // namespace idlescope
