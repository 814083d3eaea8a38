// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/simulation_runner.h"

#include "widgets/runner/builtin_scenario.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>

#include <optional>

namespace idlescope {

namespace {

bool sameTable(const IdleStateTable &a, const IdleStateTable &b)
{
    if (a.tickHz != b.tickHz || a.states.size() != b.states.size())
        return false;
    for (std::size_t i = 0; i < a.states.size(); ++i) {
        const IdleState &x = a.states[i];
        const IdleState &y = b.states[i];
        if (x.exitLatencyNs != y.exitLatencyNs || x.targetResidencyNs != y.targetResidencyNs
            || x.polling != y.polling || x.disabled != y.disabled)
            return false;
    }
    return true;
}

bool sameWorkload(const WorkloadSpec &a, const WorkloadSpec &b)
{
    return a.kind == b.kind && a.path == b.path && a.params == b.params;
}

/// The last generated or loaded stream, so that a latency-limit change does not re-read a file.
/// Only one job runs at a time; the mutex is for the destructor-vs-worker corner.
struct BaseStreamCache {
    QMutex mutex;
    WorkloadSpec workload;
    std::shared_ptr<const IdleStream> stream;
};

BaseStreamCache &baseCache()
{
    static BaseStreamCache cache;
    return cache;
}

std::shared_ptr<const IdleStream> baseStream(const WorkloadSpec &w, QString *error)
{
    BaseStreamCache &c = baseCache();
    {
        QMutexLocker lock(&c.mutex);
        if (c.stream && sameWorkload(c.workload, w))
            return c.stream;
    }
    auto s = buildStream(w);
    if (!s) {
        *error = QString::fromStdString(s.error().toString());
        return nullptr;
    }
    if (s->empty()) {
        *error = QStringLiteral("the workload produced no spans");
        return nullptr;
    }
    auto ptr = std::make_shared<const IdleStream>(std::move(*s));
    QMutexLocker lock(&c.mutex);
    c.workload = w;
    c.stream = ptr;
    return ptr;
}

/// The stream with the latency limit applied, shared with @p previous when nothing changed.
std::shared_ptr<const IdleStream> effectiveStream(const ScenarioSpec &spec, const SnapshotPtr &previous,
                                                  QString *error)
{
    auto base = baseStream(spec.workload, error);
    if (!base)
        return nullptr;
    if (spec.latencyLimitNs < 0)
        return base;
    if (previous && previous->spec.latencyLimitNs == spec.latencyLimitNs
        && sameWorkload(previous->spec.workload, spec.workload))
        return previous->stream;
    auto copy = std::make_shared<IdleStream>(*base);
    for (IdleSpan &s : *copy)
        s.latencyReqNs = spec.latencyLimitNs;
    return copy;
}

bool governorDefaults(const GovernorSpec &g)
{
    auto gov = makeConfiguredGovernor(g.variant, g.settings);
    return gov && (*gov)->atKernelDefaults();
}

} // namespace

SimulationRunner::SimulationRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const SimulationSnapshot>>();
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(40);
    connect(&m_debounce, &QTimer::timeout, this, &SimulationRunner::startJob);
    connect(&m_watcher, &QFutureWatcher<JobResult>::finished, this, &SimulationRunner::jobFinished);
}

SimulationRunner::~SimulationRunner()
{
    m_debounce.stop();
    m_pending = false;
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

void SimulationRunner::request(const ScenarioSpec &spec)
{
    m_spec = spec;
    m_debounce.start();
}

void SimulationRunner::requestNow(const ScenarioSpec &spec)
{
    m_spec = spec;
    m_debounce.stop();
    startJob();
}

void SimulationRunner::cancel()
{
    m_debounce.stop();
    m_pending = false;
    if (m_cancel)
        m_cancel->store(true);
}

void SimulationRunner::startJob()
{
    if (m_watcher.isRunning()) {
        // One job at a time (two cores are shared with the GUI): cancel it and
        // start the newest spec when it returns.
        m_pending = true;
        if (m_cancel)
            m_cancel->store(true);
        return;
    }
    m_pending = false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const std::uint64_t generation = ++m_generation;
    emit started(generation);
    m_watcher.setFuture(QtConcurrent::run([spec = m_spec, previous = m_latest, generation,
                                           cancel = m_cancel]() {
        JobResult r;
        r.snapshot = simulate(spec, previous, generation, *cancel, &r.error);
        return r;
    }));
}

void SimulationRunner::jobFinished()
{
    const JobResult r = m_watcher.result();
    if (m_pending) {
        startJob(); // a newer spec is waiting; this result is stale
        return;
    }
    if (!r.snapshot) {
        if (r.error != QLatin1String("cancelled"))
            emit runFailed(r.error);
        return;
    }
    m_latest = r.snapshot;
    if (!r.snapshot->errors.isEmpty())
        emit runWarning(r.snapshot->errors.join(QLatin1Char('\n')));
    emit snapshotReady(m_latest);
}

std::shared_ptr<SimulationSnapshot> SimulationRunner::simulate(const ScenarioSpec &spec, const SnapshotPtr &previous,
                                                               std::uint64_t generation,
                                                               const std::atomic<bool> &cancel, QString *error)
{
    QElapsedTimer clock;
    clock.start();
    if (const Status st = spec.target.table.validate(); !st) {
        *error = QStringLiteral("target table: ") + QString::fromStdString(st.error().toString());
        return nullptr;
    }
    auto stream = effectiveStream(spec, previous, error);
    if (!stream)
        return nullptr;

    auto snap = std::make_shared<SimulationSnapshot>();
    snap->generation = generation;
    snap->spec = spec;
    snap->table = spec.target.table;
    snap->stream = stream;
    snap->targetId = spec.target.id;
    snap->workloadDescription = spec.workload.description;

    const bool sameInputs = previous && previous->stream == stream && sameTable(previous->table, snap->table);
    struct Job {
        const GovernorSpec *gov;
        int reuse = -1; // index into previous->runs
        std::optional<GovernorRun> run;
        QString error;
    };
    std::vector<Job> jobs;
    for (const GovernorSpec &g : spec.governors) {
        Job j{&g};
        if (sameInputs)
            for (int k = 0; k < previous->governorCount(); ++k)
                if (previous->runs[k].variant == g.variant && previous->runs[k].settings == g.settings)
                    j.reuse = k;
        jobs.push_back(std::move(j));
    }
    QtConcurrent::blockingMap(jobs, [&](Job &j) {
        if (j.reuse >= 0)
            return;
        auto run = runGovernor(snap->table, *stream, j.gov->variant, j.gov->settings, &cancel);
        if (run)
            j.run = std::move(*run);
        else
            j.error = QString::fromStdString(j.gov->variant + ": " + run.error().toString());
    });
    if (cancel.load()) {
        *error = QStringLiteral("cancelled");
        return nullptr;
    }
    std::vector<bool> reused;
    for (Job &j : jobs) {
        if (!j.error.isEmpty()) {
            snap->errors << j.error;
            continue;
        }
        if (j.reuse >= 0) {
            const auto k = static_cast<std::size_t>(j.reuse);
            snap->runs.push_back(previous->runs.shared(k));
            snap->counts.push_back(previous->counts[k]);
            snap->lods.push_back(previous->lods[k]);
            reused.push_back(true);
        } else {
            snap->runs.push_back(std::move(*j.run));
            snap->counts.emplace_back();
            snap->lods.emplace_back();
            reused.push_back(false);
        }
        snap->colors.push_back(j.gov->color);
        snap->atDefaults.push_back(governorDefaults(*j.gov));
    }
    // Prefix counts and plot summaries of the fresh runs, two tasks per run so
    // that even a single re-run keeps both cores busy.
    std::vector<std::pair<std::size_t, bool>> tasks; // (run, counts half?)
    for (std::size_t i = 0; i < reused.size(); ++i)
        if (!reused[i])
            tasks.insert(tasks.end(), {{i, true}, {i, false}});
    std::vector<RunLod> halves(snap->lods.size());
    QtConcurrent::blockingMap(tasks, [&](const std::pair<std::size_t, bool> &t) {
        const GovernorRun &run = snap->runs[t.first];
        if (t.second) {
            snap->counts[t.first] = RunCounts(run);
            halves[t.first].setMissRatio(run, snap->counts[t.first]);
        } else {
            snap->lods[t.first] = RunLod::fromRun(run);
        }
    });
    for (const auto &[i, countsHalf] : tasks)
        if (countsHalf)
            snap->lods[i].missRatio = halves[i].missRatio;
    snap->durations = (previous && previous->stream == stream) ? previous->durations : DurationHistogram(*stream);
    snap->simulationMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return snap;
}

} // namespace idlescope
