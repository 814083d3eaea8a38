// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/build_snapshot.h"
#include "widgets/runner/memory_budget.h"

#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/closed_loop_workload.h"
#include "widgets/runner/run_recycler.h"
#include "widgets/runner/share_steps.h"
#include "widgets/trace/trace_machine_job.h"

#include "core/formats/wult_csv.h"
#include "core/io/power_json.h"
#include "core/source_governor/source_governor.h"
#include "core/stats/span_clock.h"
#include "core/stats/summarised_run.h"
#include "core/trace/recorded_entries.h"
#include "core/trace/trace_model.h"

#include <QElapsedTimer>
#include <QMutex>

#include <optional>
#include <vector>

namespace idlescope {

namespace {

/// The last generated or loaded stream, so that a latency-limit change does not re-read a file.
/// Only one job runs at a time; the mutex is for the destructor-vs-worker corner.
struct BaseStreamCache {
    QMutex mutex;
    WorkloadSourceSpec workload;
    std::shared_ptr<const IdleStream> stream;
};

BaseStreamCache &baseCache()
{
    static BaseStreamCache cache;
    return cache;
}

std::shared_ptr<const IdleStream> baseStream(const WorkloadSourceSpec &w, QString *error)
{
    BaseStreamCache &c = baseCache();
    {
        QMutexLocker lock(&c.mutex);
        if (c.stream && sameWorkload(c.workload, w))
            return c.stream;
    }
    auto s = buildStream(w);
    if (!s) {
        // A stream or trace file that does not read (a FIFO, /dev/zero) is the workload's
        // "path": named so, a session refused for it says which of its fields to mend.
        Error e = s.error();
        if (e.field.empty() && (w.kind == WorkloadKind::Csv || w.kind == WorkloadKind::Trace))
            e.field = "workload.path";
        *error = QString::fromStdString(e.toString());
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

/// Spans a run replays per step while much is left: ~1.5 ms at a million
/// entries, so that steps of three runs share two threads evenly; shareSteps()
/// makes the last ones smaller (down to 2048 spans).
constexpr std::size_t STEP_SPANS = 32768;

bool governorDefaults(const GovernorSpec &g)
{
    if (g.variant == trace::RECORDED_VARIANT) // the kernel's own choices: nothing to tune
        return true;
    auto gov = makeConfiguredGovernor(g.variant, g.settings);
    return gov && (*gov)->atKernelDefaults();
}

/// The index in @p previous of the run of @p g (same variant and settings), or -1.
int previousRunOf(const SimulationSnapshot &previous, const GovernorSpec &g)
{
    int found = -1;
    for (int k = 0; k < previous.governorCount(); ++k)
        if (const GovernorRun &r = *previous.governors[static_cast<std::size_t>(k)].run;
            r.variant == g.variant && r.settings == g.settings)
            found = k;
    return found;
}

/// The run in @p previous that a fresh run of @p g may repeat (RunOptions::base): of the same
/// variant, with the same settings if there is one, else the first; summarised (its counts and
/// plot summaries are kept with it); null when none.
const GovernorResult *baseRunOf(const SimulationSnapshot &previous, const GovernorSpec &g)
{
    if (const int same = previousRunOf(previous, g); same >= 0)
        if (const GovernorResult &r = previous.governors[static_cast<std::size_t>(same)]; r.summarised())
            return &r;
    for (const GovernorResult &r : previous.governors)
        if (r.run->variant == g.variant && r.summarised())
            return &r;
    return nullptr;
}

/// The result of a fresh run that made every entry of @p base (SummarisedRun::repeatedBase):
/// the base's entries, counts and summaries, shared when the settings and the replay's
/// summary are the same too, else copied under @p run's settings and summary.
void repeatBase(GovernorResult &g, const GovernorResult &base, GovernorRun run)
{
    if (base.run->settings == run.settings && base.run->summary == run.summary) {
        g.run = base.run;
        RunRecycler::instance().give(std::move(run)); // its unused column storage
    } else {
        run.assignColumns(*base.run); // into the run's own (recycled) column storage
        g.run = RunRecycler::share(std::move(run));
    }
    g.counts = base.counts;
    g.lod = base.lod;
}

/// What @p g (same variant and settings) said in @p previous when it failed with no run to keep, or null.
const QString *previousFailureOf(const SimulationSnapshot &previous, const GovernorSpec &g)
{
    for (const GovernorFailure &f : previous.failures)
        if (f.variant == g.variant && f.settings == g.settings)
            return &f.error;
    return nullptr;
}

/// False when @p g is built from a source file that changed since @p previous
/// was simulated: its run must be made afresh (the id names the file, not its text).
bool sameSourceFile(const SimulationSnapshot &previous, const GovernorSpec &g)
{
    if (!isSourceGovernorId(g.variant))
        return true;
    for (const GovernorSpec &p : previous.spec.governors)
        if (p.variant == g.variant)
            return p.sourceStamp == g.sourceStamp;
    return false;
}

/// A table file may carry power data; a bad power field is said, and the energy left out. On a
/// trace the replayed CPU is priced as the CPUs dock prices it: with its cluster's power data in
/// the machine the trace replays on (traceReplayMachine(): a built-in board's energy model).
void readPower(SimulationSnapshot &snap)
{
    snap.power = PowerModel::empty(snap.table);
    if (snap.spec.target.kind == TargetKind::File && !snap.spec.target.path.isEmpty()) {
        if (auto power = readTablePower(snap.spec.target.path.toStdString(), snap.table); power)
            snap.power = std::move(*power);
        else
            snap.errors << QString::fromStdString(power.error().toString());
    }
    if (snap.trace) {
        const Machine m = traceReplayMachine(snap, snap.power);
        if (const int c = m.clusterOf(snap.trace->cpu); c >= 0)
            snap.power = m.clusters[static_cast<std::size_t>(c)].power;
    }
}

SnapshotBuild failed(QString error)
{
    return {nullptr, std::move(error)};
}

SnapshotBuild cancelled()
{
    return {nullptr, QString(), true};
}

/// A snapshot of @p spec with what every workload has: the spec, the table with the measured
/// wake delays of spec.wakeDelaysPath (read here, on the worker) and the descriptions; null with
/// @p error when that file cannot be read or names a state the table lacks.
std::shared_ptr<SimulationSnapshot> newSnapshot(const ScenarioSpec &spec, QString *error)
{
    auto snap = std::make_shared<SimulationSnapshot>();
    snap->spec = spec;
    snap->table = spec.target.table;
    if (!spec.wakeDelaysPath.isEmpty()) { // applyWakeDelaysFile(), keeping what was measured
        const std::string path = spec.wakeDelaysPath.toStdString();
        Result<std::vector<MeasuredWakeDelay>> measured = readWultCsv(path);
        Status st = measured ? applyMeasuredWakeDelays(snap->table, *measured, path) : Status(measured.error());
        if (!st) {
            Error e = st.error();
            if (e.field.empty()) // the file itself (not a column of it): the session's "wake_delays"
                e.field = "wake_delays";
            *error = QStringLiteral("wake delays: ") + QString::fromStdString(e.toString());
            return nullptr;
        }
        snap->measuredWakeDelays = std::move(*measured);
    }
    snap->targetId = spec.target.id;
    snap->workloadDescription = spec.workload.description;
    return snap;
}

/// A closed loop: its spans are made as each governor's loop runs, with no stream to build first.
SnapshotBuild closedLoopSnapshot(const ScenarioSpec &spec, const std::atomic<bool> &cancel, JobProgress *progress,
                                 const QElapsedTimer &clock)
{
    QString error;
    auto snap = newSnapshot(spec, &error);
    if (!snap)
        return failed(error);
    readPower(*snap);
    if (!simulateClosedLoop(*snap, cancel, progress, &error))
        return cancel.load() ? cancelled() : failed(error);
    snap->simulationMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return {snap};
}

/// The clocks the runs are drawn on. A trace: its timestamps (from its earliest event), the same
/// x the same wakeup. The stream's own time of each span: for a trace the drift the inspector
/// shows is taken from it; a generated stream or a stream file has no other clock, so its runs
/// are drawn on it (the same x the same span in every lane, each run's drift a value in the
/// inspector).
Status attachClocks(SimulationSnapshot &snap, const SimulationSnapshot *previous)
{
    if (snap.spec.workload.kind == WorkloadKind::Trace) {
        auto src = traceCpuSource(QString::fromStdString(snap.spec.workload.path), snap.spec.workload.cpu);
        if (!src)
            return src.error();
        auto spanClock = std::make_shared<std::vector<Ns>>();
        for (const Ns start : src->rows.startNs) // each row at its trace time
            spanClock->push_back(start - src->originNs);
        snap.spanClockNs = std::move(spanClock);
        snap.trace = std::make_shared<const TraceCpuSource>(std::move(*src));
    }
    const bool sameStream = previous && previous->stream == snap.stream && previous->streamSpanStartNs;
    snap.streamSpanStartNs = sameStream ? previous->streamSpanStartNs
                                        : std::make_shared<const std::vector<Ns>>(streamSpanStarts(*snap.stream));
    if (!snap.spanClockNs)
        snap.spanClockNs = snap.streamSpanStartNs;
    return Ok{};
}

/// The runs of one snapshot: which governors are shared with the previous snapshot, which
/// are read from the trace, which are replayed (in steps on two threads), and the results
/// in display order. One object per buildSnapshot() call, on its thread.
class SnapshotRuns {
public:
    SnapshotRuns(SimulationSnapshot &snap, const SimulationSnapshot *previous)
        : m_snap(snap), m_previous(previous),
          m_sameInputs(previous && previous->stream == snap.stream && decideAlike(previous->table, snap.table)
                       && previous->spec.latencyLimitNs == snap.spec.latencyLimitNs)
    {
    }

    /// Which governor is shared, said again as a failure, or started afresh.
    void plan();
    /// Every fresh run replayed; false when @p cancel stopped them.
    bool replay(const std::atomic<bool> &cancel, JobProgress *progress);
    /// Every governor's result (or error) into the snapshot, in display order.
    void collect();
    /// Why the fresh runs would not fit in memory, or "".
    QString memoryRefusal() const
    {
        return runsMemoryRefusal(static_cast<std::int64_t>(m_snap.stream->size()),
                                 static_cast<std::int64_t>(m_fresh.size()), availableMemoryBytes());
    }

private:
    struct Job {
        const GovernorSpec *gov;
        int reuse = -1;                       // index into previous->governors
        const GovernorResult *base = nullptr; // a previous run the fresh one may repeat
        std::optional<SummarisedRunBuilder> builder;
        std::optional<SummarisedRun> run;
        GovernorTotals totals;
        QString error;
        QString stale; // reused as the last good run of a source file that failed
    };

    void fail(Job &j, const Error &e);
    void readRecorded(Job &j);
    void start(Job &j);
    GovernorResult resultOf(Job &j) const;

    SimulationSnapshot &m_snap;
    const SimulationSnapshot *m_previous;
    const bool m_sameInputs;
    std::vector<Job> m_jobs;
    std::vector<std::size_t> m_fresh; // the jobs replayed, in m_jobs
};

/// A file that no longer builds or runs keeps its last good run, marked stale.
void SnapshotRuns::fail(Job &j, const Error &e)
{
    j.error = QString::fromStdString(j.gov->variant + ": " + e.toString());
    if (m_sameInputs && isSourceGovernorId(j.gov->variant))
        if ((j.reuse = previousRunOf(*m_previous, *j.gov)) >= 0)
            j.stale = j.error;
}

/// The kernel's own choices: read from the trace, never replayed.
void SnapshotRuns::readRecorded(Job &j)
{
    if (!m_snap.trace) {
        j.error = QStringLiteral("recorded: only a kernel trace has the kernel's recorded choices");
        return;
    }
    const trace::TraceImport &t = *m_snap.trace->trace;
    GovernorRun run = trace::recordedEntries(t.cpus[static_cast<std::size_t>(m_snap.trace->cpu)], m_snap.trace->rows,
                                             m_snap.table, t.hasMissEvents, m_snap.trace->originNs);
    SummarisedRun sr;
    sr.counts = RunCounts(run);
    sr.lod = RunLod(run, sr.counts);
    sr.run = std::move(run);
    j.totals = governorTotals(sr.run, m_snap.table);
    j.run = std::move(sr);
}

/// A fresh run: the replay with its prefix counts and plot summaries built in the same pass
/// (summarised_run.h), on the workload's clock.
void SnapshotRuns::start(Job &j)
{
    GovernorRun storage = RunRecycler::instance().take();
    // A change the governor's decisions may not depend on (a latency limit between the
    // same exit latencies, a tunable it never reaches): its previous run is compared
    // entry by entry and kept with its summaries if this one repeats all of it.
    if (m_previous && m_previous->stream == m_snap.stream)
        j.base = baseRunOf(*m_previous, *j.gov);
    auto builder = SummarisedRunBuilder::start(m_snap.table, *m_snap.stream, j.gov->variant,
                                               {.settings = j.gov->settings,
                                                .storage = &storage,
                                                .latencyLimitNs = m_snap.spec.latencyLimitNs,
                                                .spanClockNs = m_snap.spanClockNs.get(),
                                                .base = j.base ? j.base->run.get() : nullptr});
    if (!builder) {
        fail(j, builder.error());
        return;
    }
    j.builder.emplace(std::move(*builder));
    m_fresh.push_back(static_cast<std::size_t>(&j - m_jobs.data()));
}

void SnapshotRuns::plan()
{
    for (const GovernorSpec &g : m_snap.spec.governors) {
        Job j{&g};
        if (m_sameInputs && sameSourceFile(*m_previous, g)) {
            j.reuse = previousRunOf(*m_previous, g);
            // The same file on the same inputs fails the same way: said again, not run again.
            if (const QString *e = j.reuse < 0 ? previousFailureOf(*m_previous, g) : nullptr)
                j.error = *e;
        }
        m_jobs.push_back(std::move(j));
    }
    for (Job &j : m_jobs)
        if (j.reuse < 0 && j.error.isEmpty())
            j.gov->variant == trace::RECORDED_VARIANT ? readRecorded(j) : start(j);
}

/// Each fresh run replayed in steps, then the comparison table's totals, so that the GUI
/// thread only swaps pointers when the snapshot arrives.
bool SnapshotRuns::replay(const std::atomic<bool> &cancel, JobProgress *progress)
{
    if (progress) {
        std::vector<std::string> names;
        for (std::size_t k : m_fresh)
            names.push_back(m_jobs[k].gov->name());
        progress->begin(std::move(names), static_cast<std::int64_t>(m_snap.stream->size()));
    }
    shareSteps(
        m_fresh.size(), [&](std::size_t t) { return m_jobs[m_fresh[t]].builder->spansLeft(); },
        [&](std::size_t t, std::size_t spans) {
            Job &j = m_jobs[m_fresh[t]];
            const bool done = j.builder->advance(spans);
            if (progress)
                progress->update(t, done ? 0 : static_cast<std::int64_t>(j.builder->spansLeft()));
            if (!done)
                return false;
            Result<SummarisedRun> run = j.builder->take(); // a source governor's host may have failed
            j.builder.reset();
            if (!run) {
                fail(j, run.error());
                return true;
            }
            j.run = std::move(*run);
            if (!j.run->repeatedBase)
                j.totals = governorTotals(j.run->run, m_snap.table);
            return true;
        },
        STEP_SPANS, cancel);
    return !cancel.load();
}

/// The result of @p j: the previous snapshot's run shared, a fresh run that repeated its base,
/// or a fresh run of its own; with its colour, name, and throughput and energy from the run's
/// counters (no entry scan: the CLI's numbers).
GovernorResult SnapshotRuns::resultOf(Job &j) const
{
    GovernorResult g;
    if (j.reuse >= 0) {
        const GovernorResult &was = m_previous->governors[static_cast<std::size_t>(j.reuse)];
        g.stale = j.stale.isEmpty() ? was.stale : j.stale;
        g.run = was.run;
        g.counts = was.counts;
        g.lod = was.lod;
        // The totals' wake delays are the previous table's: summed again when a wake delay changed.
        g.totals = was.totals && wakeAlike(m_previous->table, m_snap.table) ? *was.totals
                                                                            : governorTotals(*was.run, m_snap.table);
    } else if (j.run->repeatedBase) {
        g.replayed = true;
        repeatBase(g, *j.base, std::move(j.run->run));
        // The totals are the base's entries' on this table.
        g.totals =
            j.base->totals && decideAlike(m_previous->table, m_snap.table) && wakeAlike(m_previous->table, m_snap.table)
                ? *j.base->totals
                : governorTotals(*g.run, m_snap.table);
    } else {
        g.replayed = true;
        g.run = RunRecycler::share(std::move(j.run->run));
        g.counts = std::move(j.run->counts);
        g.lod = std::move(j.run->lod);
        g.totals = std::move(j.totals);
    }
    g.color = j.gov->color;
    g.name = j.gov->name();
    g.atDefaults = governorDefaults(*j.gov);
    // The recorded run has no run time of its own: its idle energy only, as the CPUs dock prices it.
    g.throughput = governorRunThroughput(m_snap.table, m_snap.power, m_snap.streamClock, *g.run, *g.totals);
    return g;
}

void SnapshotRuns::collect()
{
    for (Job &j : m_jobs) {
        if (!j.error.isEmpty())
            m_snap.errors << j.error;
        if (!j.error.isEmpty() && j.stale.isEmpty()) {
            if (isSourceGovernorId(j.gov->variant))
                m_snap.failures.push_back({j.gov->variant, j.gov->settings, j.error});
            continue;
        }
        GovernorResult g = resultOf(j);
        if (j.reuse >= 0 && j.error.isEmpty() && !g.stale.isEmpty()) // still the same failing file
            m_snap.errors << g.stale;
        m_snap.governors.push_back(std::move(g));
    }
}

} // namespace

SnapshotBuild buildSnapshot(const ScenarioSpec &spec, const SnapshotPtr &previous, const std::atomic<bool> &cancel,
                            JobProgress *progress)
{
    QElapsedTimer clock;
    clock.start();
    if (const Status st = spec.target.table.validate(); !st)
        return failed(QStringLiteral("target table: ") + QString::fromStdString(st.error().toString()));
    if (spec.workload.kind == WorkloadKind::ClosedLoop)
        return closedLoopSnapshot(spec, cancel, progress, clock);
    // The latency limit is applied by the replay, not by a copy of the stream.
    QString streamError;
    auto stream = baseStream(spec.workload, &streamError);
    if (!stream)
        return failed(streamError);
    auto snap = newSnapshot(spec, &streamError);
    if (!snap)
        return failed(streamError);
    snap->stream = stream;
    snap->streamClock = previous && previous->stream == stream ? previous->streamClock : clockOf(*stream);
    if (Status st = attachClocks(*snap, previous.get()); !st)
        return failed(QString::fromStdString(st.error().toString()));
    readPower(*snap);

    SnapshotRuns runs(*snap, previous.get());
    runs.plan();
    // Every fresh run holds an entry per span at least: refused before they are made when
    // they would not fit, with a message, instead of the OOM killer ending the window.
    if (const QString refusal = runs.memoryRefusal(); !refusal.isEmpty())
        return failed(refusal);
    if (!runs.replay(cancel, progress))
        return cancelled();
    runs.collect();
    // The idle durations (wakeNs) are the workload's.
    snap->durations = previous && previous->stream == stream ? previous->durations : DurationHistogram(*stream);
    snap->simulationMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return {snap};
}

} // namespace idlescope
