// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file simulation_runner.h
 * Runs the pure core engine off the GUI thread (after hotspot's PerfParser):
 * a ScenarioSpec goes in, an immutable SimulationSnapshot (buildSnapshot())
 * comes out through snapshotReady(). Drag requests are throttled and coalesced: the newest
 * waits for the running job, which is shown when done; a final request
 * cancels the running one through a std::atomic<bool>. A governor whose
 * inputs did not change is copied from the previous snapshot instead of being
 * replayed again. The GUI thread never waits for the engine.
 */
#pragma once

#include "widgets/runner/build_snapshot.h"
#include "widgets/runner/job_progress.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace idlescope {

class SimulationRunner : public QObject {
    Q_OBJECT
public:
    explicit SimulationRunner(QObject *parent = nullptr);
    /// Cancels a running job and waits for it (the worker only touches its own copies).
    ~SimulationRunner() override;

    /// The spec of the latest request.
    const ScenarioSpec &spec() const { return m_spec; }
    /// The last snapshot delivered, or null before the first one.
    SnapshotPtr latest() const { return m_latest; }
    bool isBusy() const { return m_watcher.isRunning() || m_debounce.isActive(); }
    /// The coalescing delay of requests (tests make it long to see several requests become one).
    void setDebounceMs(int ms) { m_debounce.setInterval(ms); }
    /// The running job's progress per governor (empty when idle or still building the stream).
    std::vector<JobProgress::Governor> progress() const;

    /// After a snapshot, fault in (on a pool thread) as much heap as one
    /// re-simulation of every governor will allocate, once per new high.
    /// Only worth it when freed heap is kept (the GUI's mallopt settings,
    /// app/gui/main.cpp); off by default.
    void setPrefaultHeap(bool on) { m_prefaultHeap = on; }

    /// Debounce delay for request() (ms, default 40).

    /// Simulate @p spec (a slider drag) at most one debounce interval later; later requests
    /// within it replace it, and a running job is let finish (its snapshot shown) first.
    void request(const ScenarioSpec &spec);
    /// Simulate @p spec as soon as the worker is free (slider release, file load).
    void requestNow(const ScenarioSpec &spec);
    /// Cancel the running job and drop pending requests.
    void cancel();

signals:
    /// A job for @p generation started on the worker.
    void started(quint64 generation);
    /// A new result; every view rebuilds from it. Its errors name the governors that could
    /// not run (the others are in it): the window shows them in the message bar.
    void snapshotReady(std::shared_ptr<const SimulationSnapshot> snapshot);
    /// The workload or target could not be built (message names file/line/field).
    void runFailed(const QString &message);

private:
    /// Start a job for m_spec, or have it wait for the running one (cancelled when @p cancelRunning).
    void startJob(bool cancelRunning);
    void jobFinished();

    ScenarioSpec m_spec;
    SnapshotPtr m_latest;
    std::uint64_t m_generation = 0;
    bool m_pending = false;
    bool m_prefaultHeap = false;
    std::size_t m_prefaultedBytes = 0;
    QTimer m_debounce;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<JobProgress> m_progress;
    QFutureWatcher<SnapshotBuild> m_watcher;
};

} // namespace idlescope
