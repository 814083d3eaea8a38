// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file simulation_snapshot.h
 * The immutable result of one simulation: the table and stream that were
 * replayed and one GovernorRun per selected governor, in display order, each
 * with its colour. SimulationRunner emits it as
 * std::shared_ptr<const SimulationSnapshot>; every view rebuilds from it and
 * may keep the pointer as long as it likes (nothing in it ever changes).
 *
 * Stable API shared with widgets/inspector, widgets/comparison, widgets/export
 * and widgets/session: add members at the end, never change one's meaning.
 */
#pragma once

#include "core/experiments/closed_loop.h"
#include "core/machine/machine.h"
#include "core/replay/governor_run.h"
#include "core/states/idle_state_table.h"
#include "core/stats/governor_totals.h"
#include "core/stats/run_counts.h"
#include "core/stats/run_lod.h"
#include "core/stats/run_throughput.h"
#include "core/stream/idle_span.h"
#include "widgets/runner/governor_result.h"
#include "widgets/runner/scenario_spec.h"
#include "widgets/runner/trace_workload.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string_view>
#include <vector>

namespace idlescope {

/**
 * The runs of a snapshot: reads like a std::vector<GovernorRun> (size,
 * operator[], range-for, all const), but each run is held through a
 * shared_ptr so that a run whose inputs did not change is shared with the
 * previous snapshot instead of copied (tens of MB per million entries).
 */
class RunList {
public:
    using value_type = GovernorRun;
    using Ptr = std::shared_ptr<const GovernorRun>;

    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = GovernorRun;
        using difference_type = std::ptrdiff_t;
        using pointer = const GovernorRun *;
        using reference = const GovernorRun &;
        explicit const_iterator(std::vector<Ptr>::const_iterator it) : m_it(it) {}
        reference operator*() const { return **m_it; }
        pointer operator->() const { return m_it->get(); }
        const_iterator &operator++()
        {
            ++m_it;
            return *this;
        }
        const_iterator operator++(int)
        {
            auto t = *this;
            ++m_it;
            return t;
        }
        difference_type operator-(const const_iterator &o) const { return m_it - o.m_it; }
        bool operator==(const const_iterator &o) const { return m_it == o.m_it; }
        bool operator!=(const const_iterator &o) const { return m_it != o.m_it; }

    private:
        std::vector<Ptr>::const_iterator m_it;
    };

    std::size_t size() const { return m_runs.size(); }
    bool empty() const { return m_runs.empty(); }
    const GovernorRun &operator[](std::size_t i) const { return *m_runs[i]; }
    const GovernorRun &at(std::size_t i) const { return *m_runs.at(i); }
    const GovernorRun &front() const { return *m_runs.front(); }
    const GovernorRun &back() const { return *m_runs.back(); }
    const_iterator begin() const { return const_iterator(m_runs.begin()); }
    const_iterator end() const { return const_iterator(m_runs.end()); }

    /// The shared handle of run @p i (to keep one run alive on its own).
    const Ptr &shared(std::size_t i) const { return m_runs[i]; }

    void push_back(GovernorRun run) { m_runs.push_back(std::make_shared<const GovernorRun>(std::move(run))); }
    void push_back(Ptr run) { m_runs.push_back(std::move(run)); }
    void clear() { m_runs.clear(); }
    /// Only shrinking makes sense for shared runs; growing is a programming error.
    void resize(std::size_t n)
    {
        if (n < m_runs.size())
            m_runs.resize(n);
    }

private:
    std::vector<Ptr> m_runs;
};

struct SimulationSnapshot {
    /// Increases by one with every snapshot a runner emits (first is 1).
    std::uint64_t generation = 0;

    /// The spec that produced this snapshot (tick_hz, edits and latency limit applied).
    ScenarioSpec spec;

    /// The table replayed (= spec.target.table).
    IdleStateTable table;
    /// The workload's stream; shared, never modified. spec.latencyLimitNs (when >= 0) replaced its
    /// latency_req_ns column in the replay (runGovernor()'s latencyLimitNs), so pass it to reasoningAt().
    std::shared_ptr<const IdleStream> stream;

    /// One result per governor that ran, in display order (governor_result.h says what a
    /// hand-made snapshot may leave empty). Transitional: the runner also fills the parallel
    /// vectors below, which every view still reads until it moves to `governors`.
    std::vector<GovernorResult> governors;

    /// One run per governor that ran, in display order; names[i] names it (nameOf()).
    /// (Reads like std::vector<GovernorRun>; runs are shared between snapshots.)
    RunList runs;
    /// colors[i] is the colour of runs[i] in every view.
    std::vector<QColor> colors;
    /// atDefaults[i]: runs[i] used only kernel-default tunables (no badge).
    std::vector<bool> atDefaults;

    /// Scenario description for titles and exports.
    QString targetId;            ///< e.g. "pseries-p10"
    QString workloadDescription; ///< e.g. "IPI wakeups every 100 us, 200000 spans"

    /// Governors that were asked for but could not run (unknown variant, bad setting).
    QStringList errors;

    /// Wall time of the simulation on the worker (ms), for the status bar.
    double simulationMs = 0.0;

    /// counts[i]: prefix totals of runs[i] (per-state usage/above/below/time up to any entry).
    std::vector<RunCounts> counts;
    /// Histogram of the stream's span idle durations, over any prefix of the spans.
    DurationHistogram durations;
    /// lods[i]: chunk summaries of runs[i]'s plotted columns (decimation without full scans).
    std::vector<RunLod> lods;

    /// totals[i]: the comparison table's totals of runs[i] (built on the worker,
    /// so that showing a snapshot scans no run on the GUI thread). May be
    /// empty in hand-made test snapshots.
    std::vector<GovernorTotals> totals;

    /// The workload's clock, which every simulated run's startNs is on (span_clock.h):
    /// spanClockNs[row] is the start of stream row @p row on it (ns from x = 0), the trace's
    /// timestamps for a kernel trace, else the stream's own time (the same vector as
    /// streamSpanStartNs); streamSpanStartNs[row] the start on the stream's own time
    /// (spanDriftNs()). Null in hand-made test snapshots.
    std::shared_ptr<const std::vector<Ns>> spanClockNs;
    std::shared_ptr<const std::vector<Ns>> streamSpanStartNs;
    /// For a kernel trace: the CPU replayed and its import (null otherwise). x = 0 is
    /// trace->originNs on the trace's clock.
    std::shared_ptr<const TraceCpuSource> trace;

    /// stale[i], when not empty: runs[i] is the last good run of a governor built from
    /// source whose file no longer builds or runs, and this is why (the compiler's or the
    /// governor host's message). May be empty in hand-made test snapshots.
    std::vector<QString> stale;
    /// stale[g], or "" when runs[g] is up to date.
    QString staleReason(int g) const
    {
        return g >= 0 && static_cast<std::size_t>(g) < stale.size() ? stale[static_cast<std::size_t>(g)] : QString();
    }
    /// The table's power data: a table file's power_mw / entry_exit_energy_uj /
    /// active_power_mw (power_json.h); empty (no power data) for a built-in table.
    PowerModel power;
    /// throughput[i]: runs[i]'s duration, wakeups per second and energy on `power`
    /// (run_throughput.h), as `idlescope-cli compare --throughput` counts them; a recorded
    /// run's is zero (no replay clock). May be empty in hand-made test snapshots.
    std::vector<RunThroughput> throughput;

    /// names[i]: the name of runs[i] in every view (GovernorSpec::name(): a second instance's
    /// label, else the variant id). May be empty in hand-made test snapshots: name() then
    /// gives the variant id.
    std::vector<std::string> names;
    /// The name of run @p g in every view (legend, lanes, table rows, inspector, exports).
    const std::string &nameOf(std::size_t g) const { return g < names.size() ? names[g] : runs[g].variant; }
    QString name(int g) const { return QString::fromStdString(governors[static_cast<std::size_t>(g)].displayName()); }
    /// A closed-loop workload (closed_loop_workload.h): closedLoop[i] is runs[i]'s loop,
    /// its operations per second and added latency as `idlescope-cli compare --closed-loop`
    /// prints them, on closedLoopMachine (the table on as many CPUs as the loop needs). Its
    /// runs keep no entries (a loop's spans are made as it goes, another for each governor):
    /// only their summaries, totals and throughput are filled. Empty for every other workload.
    std::vector<ClosedLoopRun> closedLoop;
    std::shared_ptr<const Machine> closedLoopMachine;
    /// closedLoop[g], or null (an open-loop workload).
    const ClosedLoopRun *closedLoopRun(int g) const
    {
        return g >= 0 && static_cast<std::size_t>(g) < closedLoop.size() ? &closedLoop[static_cast<std::size_t>(g)]
                                                                         : nullptr;
    }

    /// "trace time" or "stream time": the axis title's clock.
    QString clockName() const { return trace ? QStringLiteral("trace time") : QStringLiteral("stream time"); }

    /// Transitional: fills the parallel vectors from `governors` (what producers call until
    /// every view reads `governors`), leaving counts and lods, totals and throughput empty
    /// unless every governor has them, as the views expect of a hand-made snapshot.
    void fillParallelVectors()
    {
        runs.clear();
        colors.clear();
        atDefaults.clear();
        counts.clear();
        lods.clear();
        totals.clear();
        stale.clear();
        throughput.clear();
        names.clear();
        closedLoop.clear();
        const auto all = [&](auto has) { return std::all_of(governors.begin(), governors.end(), has); };
        const bool summarised = all([](const GovernorResult &g) { return g.summarised(); });
        const bool withTotals = all([](const GovernorResult &g) { return g.totals.has_value(); });
        const bool withThroughput = all([](const GovernorResult &g) { return g.throughput.has_value(); });
        for (const GovernorResult &g : governors) {
            runs.push_back(g.run);
            colors.push_back(g.color);
            atDefaults.push_back(g.atDefaults);
            if (summarised) {
                counts.push_back(g.counts);
                lods.push_back(g.lod);
            }
            if (withTotals)
                totals.push_back(*g.totals);
            stale.push_back(g.stale);
            if (withThroughput)
                throughput.push_back(*g.throughput);
            names.push_back(g.displayName());
            if (g.closedLoop)
                closedLoop.push_back(*g.closedLoop);
        }
    }

    int governorCount() const { return static_cast<int>(governors.size()); }

    /// True when every governor's counts and plot summaries are built (a runner's snapshots
    /// always; a hand-made one may leave them empty, and the plots and legend then show nothing).
    bool summarised() const
    {
        return std::all_of(governors.begin(), governors.end(), [](const GovernorResult &g) { return g.summarised(); });
    }

    /// True for a closed-loop workload (GovernorResult::closedLoop set).
    bool isClosedLoop() const
    {
        return std::any_of(governors.begin(), governors.end(),
                           [](const GovernorResult &g) { return g.closedLoop.has_value(); });
    }

    /// True when colors, atDefaults, counts and lods all have one element per run
    /// (a runner's snapshots always do; hand-made test snapshots may not).
    bool isComplete() const
    {
        const std::size_t n = runs.size();
        return colors.size() == n && atDefaults.size() == n && counts.size() == n && lods.size() == n;
    }

    /// Index into governors of the governor named @p name (GovernorResult::displayName(): a
    /// variant id, or a second instance's label), or -1.
    int indexOf(std::string_view name) const
    {
        for (std::size_t i = 0; i < governors.size(); ++i)
            if (governors[i].displayName() == name)
                return static_cast<int>(i);
        return -1;
    }

    /// Index of the oracle reference run, or -1 when it was not selected.
    int oracleIndex() const { return indexOf("oracle"); }

    /// Length of the run in ns (end of the longest run, relative to its start).
    Ns durationNs() const
    {
        Ns d = 0;
        for (const GovernorResult &g : governors)
            if (const GovernorRun &r = *g.run; r.size() > 0)
                d = std::max(d, r.startNs.back() + r.residencyNs.back());
        return d;
    }
};

using SnapshotPtr = std::shared_ptr<const SimulationSnapshot>;

} // namespace idlescope
