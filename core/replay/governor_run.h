// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_run.h
 * A whole replay of one governor variant kept for viewing: per-entry columns
 * aligned by entry index (one time axis per run, no per-series copies), the
 * summary, and what is needed to re-create the run exactly (variant id and
 * tunable settings). Reasoning records are not stored per entry: the replay
 * is deterministic, so reasoningAt() re-runs up to the entry and reads it.
 */
#pragma once

#include "core/governors/governor.h"
#include "core/replay/reference_replay.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace idlescope {

/// Bits of GovernorRun::flags.
enum EntryFlag : std::uint16_t {
    ENTRY_STOP_TICK = 1u << 0,
    ENTRY_ABOVE = 1u << 1,
    ENTRY_BELOW = 1u << 2,
    ENTRY_GOT_TICK = 1u << 3,
    ENTRY_POLL_TIME_LIMIT = 1u << 4,
    ENTRY_TICK_STOPPED = 1u << 5,
    ENTRY_WOKEN_BY_WAKEUP =
        1u << 6, ///< this entry ended at a wakeup that woke a task (not tick, poll limit or in-idle interrupt)
    ENTRY_TIMER_WAKE = 1u << 7,   ///< that row's wakeup is its own timer (IdleSpan::timerWake())
    ENTRY_IN_IDLE_WAKE = 1u << 8, ///< ended at an interrupt that woke no task (need_resched = 0): the CPU stayed idle
    /// ended at the tick, and the row's wakeup came during the exit (GovernorRun::wakeInExitNs)
    ENTRY_WAKE_IN_EXIT = 1u << 9,
};
/// A GovernorRun::flags element: EntryFlag bits.
using EntryFlags = std::uint16_t;

/// The EntryFlag bits of a replayed entry, as a GovernorRun keeps them.
EntryFlags entryFlags(const EntryRecord &e);

/// A tunable setting, NAME=VALUE.
using TunableSetting = std::pair<std::string, std::int64_t>;

/// GovernorRun::variant of a trace's recorded run: the kernel's own choices, not a replay
/// (core/trace/recorded_entries.h makes it); it has no run time of its own.
inline constexpr const char *RECORDED_VARIANT = "recorded";

struct GovernorRun {
    std::string variant;                  ///< variant id
    std::vector<TunableSetting> settings; ///< non-default tunables applied
    ReplaySummary summary;

    // Per-entry columns, all of the same length (summary.entries).
    std::vector<Ns> startNs;        ///< `now` at select, ns from replay start (REPLAY_START_NS)
    std::vector<Ns> residencyNs;    ///< measured residency
    std::vector<Ns> predictedNs;    ///< governor's expected idle time, -1 if none
    std::vector<Ns> sleepLengthNs;  ///< sleep length at select
    std::vector<std::int32_t> span; ///< stream row
    std::vector<std::int8_t> state; ///< state entered
    std::vector<EntryFlags> flags;  ///< EntryFlag bits
    /// EntryRecord::wakeInExitNs (at most the state's exit latency), 0 without ENTRY_WAKE_IN_EXIT
    std::vector<std::int32_t> wakeInExitNs;

    std::size_t size() const { return state.size(); }
    bool has(std::size_t i, EntryFlag f) const { return (flags[i] & f) != 0; }

    /// @p f(column) for each per-entry column: to clear, reserve or resize them all alike,
    /// so that a column added above cannot be left out of one of those.
    template <typename F>
    void forEachColumn(F &&f)
    {
        f(startNs);
        f(residencyNs);
        f(predictedNs);
        f(sleepLengthNs);
        f(span);
        f(state);
        f(flags);
        f(wakeInExitNs);
    }
    /// @p o's columns copied into this run's (into their storage where it is large enough).
    void assignColumns(const GovernorRun &o)
    {
        startNs = o.startNs;
        residencyNs = o.residencyNs;
        predictedNs = o.predictedNs;
        sleepLengthNs = o.sleepLengthNs;
        span = o.span;
        state = o.state;
        flags = o.flags;
        wakeInExitNs = o.wakeInExitNs;
    }
};

/// Told about each batch of entries appended to a growing run: entries
/// [begin, end) of run are new (and still in cache). Batches are
/// RUN_BATCH_ENTRIES long except the last, so begin is always a multiple of it.
using RunObserver = std::function<void(const GovernorRun &run, std::size_t begin, std::size_t end)>;
inline constexpr std::size_t RUN_BATCH_ENTRIES = 256;

/// How runGovernor() runs: every member is optional (a default RunOptions is a plain replay).
struct RunOptions {
    std::vector<TunableSetting> settings;      ///< applied to the fresh governor, in order
    const std::atomic<bool> *cancel = nullptr; ///< polled every 4096 spans
    const RunObserver *observe = nullptr;      ///< sees every batch of entries as it is appended
    /// A finished run whose column memory is reused (moved from, columns cleared): a
    /// re-simulation then writes to pages that are already mapped instead of faulting
    /// in tens of MB of fresh ones.
    GovernorRun *storage = nullptr;
    Ns latencyLimitNs = NO_LATENCY_REQ; ///< >= 0 replaces every span's latency limit (ReferenceReplay)
    /// The workload's clock (span_clock.h), one start per stream span: each entry's startNs is
    /// written on it as onSpanClock() would move it afterwards, so that whatever observes the
    /// batches sees the times the run keeps. Shorter than the stream: not used (the run's own time).
    const std::vector<Ns> *spanClockNs = nullptr;
    /// A finished run that this one may repeat entry for entry: the same governor before a
    /// change that need not alter a decision (a latency limit that no exit latency lies
    /// between, a tunable that never comes into play). Each new entry is compared with the
    /// base's instead of kept; at the first that differs the base's earlier entries are
    /// copied in and the run goes on as it would without a base, so the result is the same
    /// either way. When every entry repeats, GovernorRunBuilder::repeatedBase() says so and
    /// the taken run has no columns (its entries are the base's). Must outlive the builder.
    const GovernorRun *base = nullptr;
};

/**
 * Replays @p stream through a fresh governor of @p variant run as @p options say,
 * keeping every entry. Returns an Error for an unknown variant or a rejected
 * setting; a cancelled run returns Error::cancelled() (code Cancelled).
 */
Result<GovernorRun> runGovernor(const IdleStateTable &table, const IdleStream &stream, const std::string &variant,
                                const RunOptions &options = {});

/**
 * runGovernor() in steps, so that a few threads can share more runs than
 * they are (three governors on two cores: each thread takes the next step
 * of whichever run waits, and all runs end together). Steps of one builder
 * may be made on different threads, one after another, never at once.
 * @p table, @p stream and @p observe must outlive the builder.
 */
class GovernorRunBuilder {
public:
    /// The arguments and errors of runGovernor(); options.cancel is not read (cancellation
    /// is the caller's, between steps).
    static Result<GovernorRunBuilder> start(const IdleStateTable &table, const IdleStream &stream,
                                            const std::string &variant, const RunOptions &options = {});
    GovernorRunBuilder(GovernorRunBuilder &&) noexcept;
    GovernorRunBuilder &operator=(GovernorRunBuilder &&) noexcept;
    ~GovernorRunBuilder();

    /// Replays the next @p spans spans (fewer at the end of the stream); true when the stream is done.
    bool advance(std::size_t spans);
    /// Spans not replayed yet.
    std::size_t spansLeft() const;
    /// Once advance() returned true: the run made every entry of options.base, and no
    /// other (take() then gives the run without columns).
    bool repeatedBase() const;
    /// The run, once advance() returned true; the builder is spent. An Error
    /// when a governor built from source failed in its host during the run
    /// (finishGovernor(): its crash or hang is known only at the end).
    Result<GovernorRun> take();

private:
    struct State;
    explicit GovernorRunBuilder(std::unique_ptr<State> state);
    std::unique_ptr<State> m_state;
};

/// Advances @p builder (a GovernorRunBuilder or SummarisedRunBuilder) to the
/// end of its stream, 4096 spans at a time, polling @p cancel (optional)
/// before each step; false when cancelled.
template <typename Builder>
bool advanceToEnd(Builder &builder, const std::atomic<bool> *cancel)
{
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return false;
        if (builder.advance(4096))
            return true;
    }
}

/// The run of a just started @p builder (Result of GovernorRunBuilder::start() or
/// SummarisedRunBuilder::start()) made to the end: its start's error, Error::cancelled()
/// when @p cancel was set, or what take() gives.
template <typename Builder>
auto runToEnd(Result<Builder> builder, const std::atomic<bool> *cancel) -> decltype(builder->take())
{
    if (!builder)
        return builder.error();
    if (!advanceToEnd(*builder, cancel))
        return Error::cancelled();
    return builder->take();
}

/// The reasoning record and entry of entry @p index (0-based over the whole run) of the run
/// runGovernor() makes with the same arguments.
struct EntryReasoning {
    EntryRecord entry;
    Reasoning reasoning;
    Selection selection;
};
Result<EntryReasoning> reasoningAt(const IdleStateTable &table, const IdleStream &stream, const std::string &variant,
                                   const std::vector<TunableSetting> &settings, std::int64_t index,
                                   Ns latencyLimitNs = NO_LATENCY_REQ);

/// A governor of @p variant with @p settings applied, or an Error naming the bad setting.
Result<std::unique_ptr<Governor>> makeConfiguredGovernor(const std::string &variant,
                                                         const std::vector<TunableSetting> &settings);

} // namespace idlescope
