// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/simulation_runner.h"

#include "widgets/runner/run_recycler.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace idlescope {

namespace {

/// The largest column capacity among @p snap's runs (entries).
std::size_t runCapacity(const SimulationSnapshot &snap)
{
    std::size_t capacity = 0;
    for (const GovernorResult &g : snap.governors)
        capacity = std::max(capacity, g.run->startNs.capacity());
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

} // namespace

SimulationRunner::SimulationRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const SimulationSnapshot>>();
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(40);
    connect(&m_debounce, &QTimer::timeout, this, [this] { startJob(false); });
    connect(&m_watcher, &QFutureWatcher<SnapshotBuild>::finished, this, &SimulationRunner::jobFinished);
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
    m_watcher.setFuture(
        QtConcurrent::run([spec = m_spec, previous = m_latest, generation, cancel = m_cancel, progress = m_progress]() {
            SnapshotBuild r;
            try {
                r = buildSnapshot(spec, previous, *cancel, progress.get());
                if (r.snapshot)
                    r.snapshot->generation = generation;
            } catch (const std::bad_alloc &) {
                // A stream too long for this machine's memory: say so, keep the window.
                r = {nullptr, QStringLiteral("out of memory: the workload's runs do not fit in memory (fewer spans or "
                                             "governors would)")};
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
    const SnapshotBuild r = m_watcher.result();
    if (m_pending) {
        // A newer spec waited for this job. A job a drag let finish is shown while
        // the newer one runs (which copies its unchanged governors from it); one a final
        // request cancelled is not, even when it was done before it saw the flag: it is
        // no picture of what was asked (a session opened while the default scenario still
        // ran was adopted by the default scenario's snapshot, and its own failure then
        // refused nothing).
        const bool cancelled = m_cancel && m_cancel->load();
        const bool show = !cancelled && r.snapshot && r.snapshot->errors.isEmpty();
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

} // namespace idlescope
