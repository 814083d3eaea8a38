// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/build_snapshot.h"
#include "widgets/runner/memory_budget.h"

#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/closed_loop_workload.h"
#include "widgets/runner/run_recycler.h"
#include "widgets/runner/share_steps.h"
#include "widgets/trace/trace_machine_job.h"

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

} // namespace

SnapshotBuild buildSnapshot(const ScenarioSpec &spec, const SnapshotPtr &previous, const std::atomic<bool> &cancel,
                            JobProgress *progress)
{
    QElapsedTimer clock;
    clock.start();
    if (const Status st = spec.target.table.validate(); !st)
        return failed(QStringLiteral("target table: ") + QString::fromStdString(st.error().toString()));
    if (spec.workload.kind == WorkloadKind::ClosedLoop) {
        // Its spans are made as each governor's loop runs: no stream to build first.
        auto snap = std::make_shared<SimulationSnapshot>();
        snap->spec = spec;
        snap->table = spec.target.table;
        snap->targetId = spec.target.id;
        snap->workloadDescription = spec.workload.description;
        readPower(*snap);
        QString error;
        if (!simulateClosedLoop(*snap, cancel, progress, &error))
            return cancel.load() ? cancelled() : failed(error);
        snap->simulationMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        return {snap};
    }
    // The latency limit is applied by the replay, not by a copy of the stream.
    QString streamError;
    auto stream = baseStream(spec.workload, &streamError);
    if (!stream)
        return failed(streamError);

    auto snap = std::make_shared<SimulationSnapshot>();
    snap->spec = spec;
    snap->table = spec.target.table;
    snap->stream = stream;
    snap->targetId = spec.target.id;
    snap->workloadDescription = spec.workload.description;

    // A trace: its runs are drawn on its timestamps (from its earliest event), the same x the same wakeup.
    if (spec.workload.kind == WorkloadKind::Trace) {
        auto src = traceCpuSource(spec.workload.path, spec.workload.cpu);
        if (!src)
            return failed(QString::fromStdString(src.error().toString()));
        auto spanClock = std::make_shared<std::vector<Ns>>();
        for (const Ns start : src->rows.startNs) // each row at its trace time
            spanClock->push_back(start - src->originNs);
        snap->spanClockNs = std::move(spanClock);
        snap->trace = std::make_shared<const TraceCpuSource>(std::move(*src));
    }
    // The stream's own time of each span: for a trace the drift the inspector shows is taken
    // from it; a generated stream or a stream file has no other clock, so its runs are drawn on
    // it (the same x the same span in every lane, each run's drift a value in the inspector).
    const bool sameStream = previous && previous->stream == stream && previous->streamSpanStartNs;
    snap->streamSpanStartNs =
        sameStream ? previous->streamSpanStartNs : std::make_shared<const std::vector<Ns>>(streamSpanStarts(*stream));
    if (!snap->spanClockNs)
        snap->spanClockNs = snap->streamSpanStartNs;

    readPower(*snap);

    const bool sameInputs = previous && previous->stream == stream && decideAlike(previous->table, snap->table)
                            && previous->spec.latencyLimitNs == spec.latencyLimitNs;
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
    // A file that no longer builds or runs keeps its last good run, marked stale.
    auto fail = [&](Job &j, const Error &e) {
        j.error = QString::fromStdString(j.gov->variant + ": " + e.toString());
        if (sameInputs && isSourceGovernorId(j.gov->variant))
            if ((j.reuse = previousRunOf(*previous, *j.gov)) >= 0)
                j.stale = j.error;
    };
    std::vector<Job> jobs;
    for (const GovernorSpec &g : spec.governors) {
        Job j{&g};
        if (sameInputs && sameSourceFile(*previous, g)) {
            j.reuse = previousRunOf(*previous, g);
            // The same file on the same inputs fails the same way: said again, not run again.
            if (const QString *e = j.reuse < 0 ? previousFailureOf(*previous, g) : nullptr)
                j.error = *e;
        }
        jobs.push_back(std::move(j));
    }
    // Each fresh run: the replay with its prefix counts and plot summaries
    // built in the same pass (summarised_run.h), then the comparison table's
    // totals, so that the GUI thread only swaps pointers when the snapshot
    // arrives.
    std::vector<std::size_t> fresh;
    for (std::size_t k = 0; k < jobs.size(); ++k) {
        Job &j = jobs[k];
        if (j.reuse >= 0 || !j.error.isEmpty())
            continue;
        if (j.gov->variant == trace::RECORDED_VARIANT) {
            // The kernel's own choices: read from the trace, never replayed.
            if (!snap->trace) {
                j.error = QStringLiteral("recorded: only a kernel trace has the kernel's recorded choices");
                continue;
            }
            const trace::TraceImport &t = *snap->trace->trace;
            GovernorRun run =
                trace::recordedEntries(t.cpus[static_cast<std::size_t>(snap->trace->cpu)], snap->trace->rows,
                                       snap->table, t.hasMissEvents, snap->trace->originNs);
            SummarisedRun sr;
            sr.counts = RunCounts(run);
            sr.lod = RunLod(run, sr.counts);
            sr.run = std::move(run);
            j.totals = governorTotals(sr.run, snap->table);
            j.run = std::move(sr);
            continue;
        }
        GovernorRun storage = RunRecycler::instance().take();
        // A change the governor's decisions may not depend on (a latency limit between the
        // same exit latencies, a tunable it never reaches): its previous run is compared
        // entry by entry and kept with its summaries if this one repeats all of it.
        if (previous && previous->stream == stream)
            j.base = baseRunOf(*previous, *j.gov);
        // Every run on the workload's clock, the plot summaries built on those times.
        auto builder = SummarisedRunBuilder::start(snap->table, *stream, j.gov->variant,
                                                   {.settings = j.gov->settings,
                                                    .storage = &storage,
                                                    .latencyLimitNs = spec.latencyLimitNs,
                                                    .spanClockNs = snap->spanClockNs.get(),
                                                    .base = j.base ? j.base->run.get() : nullptr});
        if (!builder) {
            fail(j, builder.error());
            continue;
        }
        j.builder.emplace(std::move(*builder));
        fresh.push_back(k);
    }
    // Every fresh run holds an entry per span at least: refused before they are made when
    // they would not fit, with a message, instead of the OOM killer ending the window.
    if (const QString refusal = runsMemoryRefusal(static_cast<std::int64_t>(stream->size()),
                                                  static_cast<std::int64_t>(fresh.size()), availableMemoryBytes());
        !refusal.isEmpty())
        return failed(refusal);
    if (progress) {
        std::vector<std::string> variants;
        for (std::size_t k : fresh)
            variants.push_back(jobs[k].gov->name());
        progress->begin(std::move(variants), static_cast<std::int64_t>(stream->size()));
    }
    shareSteps(
        fresh.size(), [&](std::size_t t) { return jobs[fresh[t]].builder->spansLeft(); },
        [&](std::size_t t, std::size_t spans) {
            Job &j = jobs[fresh[t]];
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
                j.totals = governorTotals(j.run->run, snap->table);
            return true;
        },
        STEP_SPANS, cancel);
    if (cancel.load())
        return cancelled();
    for (Job &j : jobs) {
        if (!j.error.isEmpty())
            snap->errors << j.error;
        if (!j.error.isEmpty() && j.stale.isEmpty()) {
            if (isSourceGovernorId(j.gov->variant))
                snap->failures.push_back({j.gov->variant, j.gov->settings, j.error});
            continue;
        }
        GovernorResult g;
        if (j.reuse >= 0) {
            const GovernorResult &was = previous->governors[static_cast<std::size_t>(j.reuse)];
            g.stale = j.stale.isEmpty() ? was.stale : j.stale;
            if (j.error.isEmpty() && !g.stale.isEmpty()) // still the same failing file
                snap->errors << g.stale;
            g.run = was.run;
            g.counts = was.counts;
            g.lod = was.lod;
            g.totals = was.totals ? *was.totals : governorTotals(*was.run, snap->table);
        } else {
            g.replayed = true;
            if (j.run->repeatedBase) {
                repeatBase(g, *j.base, std::move(j.run->run));
                // The totals are the base's entries' on this table.
                g.totals = j.base->totals && decideAlike(previous->table, snap->table)
                               ? *j.base->totals
                               : governorTotals(*g.run, snap->table);
            } else {
                g.run = RunRecycler::share(std::move(j.run->run));
                g.counts = std::move(j.run->counts);
                g.lod = std::move(j.run->lod);
                g.totals = std::move(j.totals);
            }
        }
        g.color = j.gov->color;
        g.name = j.gov->name();
        g.atDefaults = governorDefaults(*j.gov);
        // Throughput and energy from the run's counters (no entry scan): the CLI's numbers.
        // The recorded run has no run time of its own: its idle energy only, as the CPUs dock prices it.
        g.throughput = governorRunThroughput(snap->table, snap->power, *stream, *g.run, *g.totals);
        snap->governors.push_back(std::move(g));
    }
    // The idle durations (wakeNs) are the workload's.
    snap->durations = previous && previous->stream == stream ? previous->durations : DurationHistogram(*stream);
    snap->simulationMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return {snap};
}

} // namespace idlescope
