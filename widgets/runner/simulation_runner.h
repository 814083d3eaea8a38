// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file simulation_runner.h
 * Runs the pure core engine off the GUI thread (after hotspot's PerfParser):
 * a ScenarioSpec goes in, an immutable SimulationSnapshot comes out through
 * snapshotReady(). Drag requests are throttled and coalesced: the newest
 * waits for the running job, which is shown when done; a final request
 * cancels the running one through a std::atomic<bool>. A governor whose
 * inputs did not change is copied from the previous snapshot instead of being
 * replayed again. The GUI thread never waits for the engine.
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace idlescope {

/// How far a job has come, written by the worker and read by the GUI thread while it runs:
/// the governors it replays afresh, and for each the spans replayed so far of its stream.
/// Filled in once the stream is built (before that, no governor is listed).
class JobProgress {
public:
    struct Governor {
        std::string variant;
        double fraction = 0; ///< 0..1 of its stream replayed
    };
    /// The state now (empty while the workload is being built).
    std::vector<Governor> snapshot() const;

    /// Worker side: the runs of @p variants, @p totalSpans each.
    void begin(std::vector<std::string> variants, std::int64_t totalSpans);
    /// Worker side: run @p index has @p spansLeft left.
    void update(std::size_t index, std::int64_t spansLeft);

private:
    std::atomic<bool> m_ready{false};
    std::vector<std::string> m_variants;
    std::unique_ptr<std::atomic<std::int64_t>[]> m_done;
    std::int64_t m_total = 1;
};

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

    /// Builds a snapshot synchronously (the worker's job; public for benches and tests).
    /// @p previous (may be null) supplies runs whose inputs are unchanged.
    /// @p progress, when given, hears how far each fresh run has come.
    static std::shared_ptr<SimulationSnapshot> simulate(const ScenarioSpec &spec, const SnapshotPtr &previous,
                                                        std::uint64_t generation,
                                                        const std::atomic<bool> &cancel, QString *error,
                                                        JobProgress *progress = nullptr);

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
    struct JobResult {
        std::shared_ptr<SimulationSnapshot> snapshot;
        QString error;
        bool cancelled = false; ///< stopped by its cancel flag: nothing to say
    };
    QFutureWatcher<JobResult> m_watcher;
};

} // namespace idlescope
