// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/simulation_runner.h"

#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/closed_loop_workload.h"
#include "widgets/runner/run_recycler.h"
#include "widgets/runner/share_steps.h"

#include "core/source_governor/source_governor.h"
#include "core/io/power_json.h"
#include "core/stats/span_clock.h"
#include "core/stats/summarised_run.h"
#include "core/trace/recorded_entries.h"
#include "core/trace/trace_model.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <new>
#include <functional>
#include <mutex>
#include <cstdlib>
#include <optional>

namespace idlescope {

namespace {

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

/// The largest column capacity among @p snap's runs (entries).
std::size_t runCapacity(const SimulationSnapshot &snap)
{
    std::size_t capacity = 0;
    for (const GovernorRun &r : snap.runs)
        capacity = std::max(capacity, r.startNs.capacity());
    return capacity;
}

/// Heap that re-simulating every run of @p snap allocates besides the
/// columns: the prefix counts' miss column and the plot summaries.
std::size_t summaryBytes(const SimulationSnapshot &snap)
{
    const std::size_t perEntry =
        sizeof(std::uint32_t) + (3 * sizeof(ValueSummary) + sizeof(StateSummary)) / ValueLod::CHUNK + 1;
    return static_cast<std::size_t>(snap.governorCount()) * runCapacity(snap) * perEntry;
}

/// Touches @p bytes of fresh heap and frees it. With freed heap kept (no
/// trimming, no mmap) the next allocations reuse those pages instead of
/// faulting in new ones.
void prefaultHeap(std::size_t bytes)
{
    constexpr std::size_t PAGE = 4096;
    auto *p = static_cast<volatile char *>(std::malloc(bytes));
    if (!p)
        return;
    for (std::size_t i = 0; i < bytes; i += PAGE)
        p[i] = 0;
    std::free(const_cast<char *>(p));
}

/// Spans a run replays per step: ~1.5 ms at a million entries, so that steps of
/// three runs share two threads evenly.
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
        if (previous.runs[k].variant == g.variant && previous.runs[k].settings == g.settings)
            found = k;
    return found;
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

/// A table file may carry power data; a bad power field is said, and the energy left out.
void readPower(SimulationSnapshot &snap)
{
    snap.power = PowerModel::empty(snap.table);
    if (snap.spec.target.kind == QLatin1String("file") && !snap.spec.target.path.isEmpty()) {
        if (auto power = readTablePower(snap.spec.target.path.toStdString(), snap.table); power)
            snap.power = std::move(*power);
        else
            snap.errors << QString::fromStdString(power.error().toString());
    }
}

} // namespace

std::vector<JobProgress::Governor> JobProgress::snapshot() const
{
    std::vector<Governor> out;
    if (!m_ready.load(std::memory_order_acquire)) // the list is written once, before m_ready
        return out;
    for (std::size_t i = 0; i < m_variants.size(); ++i)
        out.push_back({m_variants[i], static_cast<double>(m_done[i].load(std::memory_order_relaxed))
                                          / static_cast<double>(m_total)});
    return out;
}

void JobProgress::begin(std::vector<std::string> variants, std::int64_t totalSpans)
{
    m_variants = std::move(variants);
    m_done = std::make_unique<std::atomic<std::int64_t>[]>(m_variants.size());
    m_total = std::max<std::int64_t>(1, totalSpans);
    m_ready.store(true, std::memory_order_release);
}

void JobProgress::update(std::size_t index, std::int64_t spansLeft)
{
    m_done[index].store(m_total - spansLeft, std::memory_order_relaxed);
}

SimulationRunner::SimulationRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const SimulationSnapshot>>();
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(40);
    connect(&m_debounce, &QTimer::timeout, this, [this] { startJob(false); });
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
    // A throttle, not a restarting debounce: a drag that never pauses still
    // re-simulates every interval, with the newest spec of that interval.
    if (!m_debounce.isActive())
        m_debounce.start();
}

void SimulationRunner::requestNow(const ScenarioSpec &spec)
{
    m_spec = spec;
    m_debounce.stop();
    startJob(true);
}

void SimulationRunner::cancel()
{
    m_debounce.stop();
    m_pending = false;
    if (m_cancel)
        m_cancel->store(true);
}

void SimulationRunner::startJob(bool cancelRunning)
{
    if (m_watcher.isRunning()) {
        // One job at a time (two cores are shared with the GUI): the newest spec
        // waits for it, replacing any spec that waited before (coalesced, never
        // queued). A final request cancels it; a drag lets it finish, so that a
        // drag shows a result at the pace the runner allows instead of none.
        m_pending = true;
        if (cancelRunning && m_cancel)
            m_cancel->store(true);
        return;
    }
    m_pending = false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_progress = std::make_shared<JobProgress>();
    const std::uint64_t generation = ++m_generation;
    emit started(generation);
    m_watcher.setFuture(QtConcurrent::run([spec = m_spec, previous = m_latest, generation,
                                           cancel = m_cancel, progress = m_progress]() {
        JobResult r;
        try {
            r.snapshot = simulate(spec, previous, generation, *cancel, &r.error, progress.get());
            r.cancelled = !r.snapshot && cancel->load();
        } catch (const std::bad_alloc &) {
            // A stream too long for this machine's memory: say so, keep the window.
            r.snapshot.reset();
            r.error = QStringLiteral("out of memory: the workload's runs do not fit in memory (fewer spans or "
                                     "governors would)");
        }
        return r;
    }));
}

std::vector<JobProgress::Governor> SimulationRunner::progress() const
{
    return m_watcher.isRunning() && m_progress ? m_progress->snapshot() : std::vector<JobProgress::Governor>{};
}

void SimulationRunner::jobFinished()
{
    const JobResult r = m_watcher.result();
    if (m_pending) {
        // A newer spec waited for this job. A job a drag let finish is shown while
        // the newer one runs (which copies its unchanged governors from it).
        const bool show = r.snapshot && r.snapshot->errors.isEmpty();
        if (show)
            m_latest = r.snapshot;
        startJob(false);
        if (show)
            emit snapshotReady(m_latest);
        return;
    }
    if (!r.snapshot) {
        if (!r.cancelled)
            emit runFailed(r.error);
        return;
    }
    m_latest = r.snapshot;
    if (m_prefaultHeap) {
        // On a virtual machine a re-simulation that writes fresh memory takes
        // three to four times as long as one that finds it faulted in: give
        // the next one of every governor warm column storage and heap, in the
        // background, while the user looks at this snapshot. Not above 1 GiB
        // (a 10-million-span stream would fault in gigabytes at once).
        const std::size_t capacity = runCapacity(*r.snapshot);
        const auto runs = static_cast<std::size_t>(r.snapshot->governorCount());
        const std::size_t heap = summaryBytes(*r.snapshot);
        const std::size_t columnBytes = 4 * sizeof(Ns) + sizeof(std::int32_t) + 2; // per entry (governor_run.h)
        const std::size_t bytes = runs * capacity * columnBytes + heap;
        if (bytes > m_prefaultedBytes && bytes <= (std::size_t(1) << 30)) {
            m_prefaultedBytes = bytes;
            (void)QtConcurrent::run([runs, capacity, heap] {
                try {
                    RunRecycler::instance().prefill(runs, capacity);
                    prefaultHeap(heap);
                } catch (const std::bad_alloc &) {
                    // Only a head start: the re-simulation allocates what it needs, or says it cannot.
                }
            });
        }
    }
    emit snapshotReady(m_latest);
}

std::shared_ptr<SimulationSnapshot> SimulationRunner::simulate(const ScenarioSpec &spec, const SnapshotPtr &previous,
                                                               std::uint64_t generation,
                                                               const std::atomic<bool> &cancel, QString *error,
                                                               JobProgress *progress)
{
    QElapsedTimer clock;
    clock.start();
    if (const Status st = spec.target.table.validate(); !st) {
        *error = QStringLiteral("target table: ") + QString::fromStdString(st.error().toString());
        return nullptr;
    }
    if (isClosedLoopWorkload(spec.workload)) {
        // Its spans are made as each governor's loop runs: no stream to build first.
        auto snap = std::make_shared<SimulationSnapshot>();
        snap->generation = generation;
        snap->spec = spec;
        snap->table = spec.target.table;
        snap->targetId = spec.target.id;
        snap->workloadDescription = spec.workload.description;
        readPower(*snap);
        if (!simulateClosedLoop(*snap, cancel, progress, error))
            return nullptr;
        snap->simulationMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        return snap;
    }
    // The latency limit is applied by the replay, not by a copy of the stream.
    auto stream = baseStream(spec.workload, error);
    if (!stream)
        return nullptr;

    auto snap = std::make_shared<SimulationSnapshot>();
    snap->generation = generation;
    snap->spec = spec;
    snap->table = spec.target.table;
    snap->stream = stream;
    snap->targetId = spec.target.id;
    snap->workloadDescription = spec.workload.description;

    // A trace: its runs are drawn on its timestamps (from its earliest event), the same x the same wakeup.
    if (spec.workload.kind == QLatin1String("trace")) {
        auto src = traceCpuSource(spec.workload.path, spec.workload.params.value(QStringLiteral("cpu"), TRACE_BEST_CPU).toInt());
        if (!src) {
            *error = QString::fromStdString(src.error().toString());
            return nullptr;
        }
        auto spanClock = std::make_shared<std::vector<Ns>>();
        const trace::CpuTrace &cpu = src->trace->cpus[static_cast<std::size_t>(src->cpu)];
        for (const std::int32_t row : src->spanIndex)
            spanClock->push_back(cpu.spans[static_cast<std::size_t>(row)].startNs - src->originNs);
        snap->spanClockNs = std::move(spanClock);
        snap->trace = std::make_shared<const TraceCpuSource>(std::move(*src));
    }
    // The stream's own time of each span: for a trace the drift the inspector shows is taken
    // from it; a generated stream or a stream file has no other clock, so its runs are drawn on
    // it (the same x the same span in every lane, each run's drift a value in the inspector).
    const bool sameStream = previous && previous->stream == stream && previous->streamSpanStartNs;
    snap->streamSpanStartNs = sameStream ? previous->streamSpanStartNs
                                         : std::make_shared<const std::vector<Ns>>(streamSpanStarts(*stream));
    if (!snap->spanClockNs)
        snap->spanClockNs = snap->streamSpanStartNs;

    readPower(*snap);

    const bool sameInputs = previous && previous->stream == stream && decideAlike(previous->table, snap->table)
                            && previous->spec.latencyLimitNs == spec.latencyLimitNs;
    struct Job {
        const GovernorSpec *gov;
        int reuse = -1; // index into previous->runs
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
        if (sameInputs && sameSourceFile(*previous, g))
            j.reuse = previousRunOf(*previous, g);
        jobs.push_back(std::move(j));
    }
    // Each fresh run: the replay with its prefix counts and plot summaries
    // built in the same pass (summarised_run.h), then the comparison table's
    // totals, so that the GUI thread only swaps pointers when the snapshot
    // arrives.
    std::vector<std::size_t> fresh;
    for (std::size_t k = 0; k < jobs.size(); ++k) {
        Job &j = jobs[k];
        if (j.reuse >= 0)
            continue;
        if (j.gov->variant == trace::RECORDED_VARIANT) {
            // The kernel's own choices: read from the trace, never replayed.
            if (!snap->trace) {
                j.error = QStringLiteral("recorded: only a kernel trace has the kernel's recorded choices");
                continue;
            }
            const trace::TraceImport &t = *snap->trace->trace;
            GovernorRun run = trace::recordedEntries(t.cpus[static_cast<std::size_t>(snap->trace->cpu)],
                                                     snap->trace->spanIndex, snap->table, t.hasMissEvents,
                                                     snap->trace->originNs);
            SummarisedRun sr;
            sr.counts = RunCounts(run);
            sr.lod = RunLod(run, sr.counts);
            sr.run = std::move(run);
            j.totals = governorTotals(sr.run, snap->table);
            j.run = std::move(sr);
            continue;
        }
        GovernorRun storage = RunRecycler::instance().take();
        auto builder = SummarisedRunBuilder::start(snap->table, *stream, j.gov->variant, j.gov->settings, &storage,
                                                   spec.latencyLimitNs);
        if (!builder) {
            fail(j, builder.error());
            continue;
        }
        j.builder.emplace(std::move(*builder));
        fresh.push_back(k);
    }
    if (progress) {
        std::vector<std::string> variants;
        for (std::size_t k : fresh)
            variants.push_back(jobs[k].gov->name());
        progress->begin(std::move(variants), static_cast<std::int64_t>(stream->size()));
    }
    shareSteps(
        fresh.size(), [&](std::size_t t) { return jobs[fresh[t]].builder->spansLeft(); },
        [&](std::size_t t) {
            Job &j = jobs[fresh[t]];
            const bool done = j.builder->advance(STEP_SPANS);
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
            // Every run on the workload's clock; the plot summaries follow the moved times.
            if (snap->spanClockNs && onSpanClock(j.run->run, *snap->spanClockNs))
                j.run->lod = RunLod(j.run->run, j.run->counts);
            j.totals = governorTotals(j.run->run, snap->table);
            return true;
        },
        cancel);
    if (cancel.load()) {
        *error = QStringLiteral("cancelled");
        return nullptr;
    }
    const bool previousTotals = previous && previous->totals.size() == previous->runs.size();
    for (Job &j : jobs) {
        if (!j.error.isEmpty())
            snap->errors << j.error;
        if (!j.error.isEmpty() && j.stale.isEmpty())
            continue;
        if (j.reuse >= 0) {
            const auto k = static_cast<std::size_t>(j.reuse);
            snap->stale.push_back(j.stale.isEmpty() ? previous->staleReason(j.reuse) : j.stale);
            if (j.error.isEmpty() && !snap->stale.back().isEmpty()) // still the same failing file
                snap->errors << snap->stale.back();
            snap->runs.push_back(previous->runs.shared(k));
            snap->counts.push_back(previous->counts[k]);
            snap->lods.push_back(previous->lods[k]);
            snap->totals.push_back(previousTotals ? previous->totals[k]
                                                  : governorTotals(previous->runs[k], snap->table));
        } else {
            snap->stale.emplace_back();
            snap->runs.push_back(RunRecycler::share(std::move(j.run->run)));
            snap->counts.push_back(std::move(j.run->counts));
            snap->lods.push_back(std::move(j.run->lod));
            snap->totals.push_back(std::move(j.totals));
        }
        snap->colors.push_back(j.gov->color);
        snap->names.push_back(j.gov->name());
        snap->atDefaults.push_back(governorDefaults(*j.gov));
        // Throughput and energy from the run's counters (no entry scan): the CLI's numbers.
        const GovernorRun &run = snap->runs.back();
        snap->throughput.push_back(run.variant == trace::RECORDED_VARIANT
                                       ? RunThroughput{}
                                       : replayThroughput(snap->table, snap->power, run.summary,
                                                          snap->totals.back().latencyCostEntries));
    }
    // The idle durations (wakeNs) are the workload's.
    snap->durations = previous && previous->stream == stream ? previous->durations : DurationHistogram(*stream);
    snap->simulationMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return snap;
}

} // namespace idlescope
