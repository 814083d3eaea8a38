// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/replay/governor_run.h"

#include "core/governors/registry.h"
#include "core/replay/governor_factory.h"
#include "core/source_governor/source_governor.h"

#include <algorithm>

namespace idlescope {

Result<std::unique_ptr<Governor>> makeConfiguredGovernor(const std::string &variant,
                                                         const std::vector<TunableSetting> &settings)
{
    std::unique_ptr<Governor> gov = createGovernor(variant);
    if (!gov)
        return Error{"", 0, "governor", "unknown variant '" + variant + "'"};
    for (const auto &[name, value] : settings) {
        std::string err;
        if (!gov->setTunable(name, value, &err))
            return Error{"", 0, name, err};
    }
    return gov;
}

EntryFlags entryFlags(const EntryRecord &e)
{
    return static_cast<EntryFlags>(
        (e.stopTick ? ENTRY_STOP_TICK : 0) | (e.above ? ENTRY_ABOVE : 0) | (e.below ? ENTRY_BELOW : 0)
        | (e.gotTick ? ENTRY_GOT_TICK : 0) | (e.pollTimeLimit ? ENTRY_POLL_TIME_LIMIT : 0)
        | (e.tickStopped ? ENTRY_TICK_STOPPED : 0) | (e.endsAtWakeup ? ENTRY_WOKEN_BY_WAKEUP : 0)
        | (e.timerWake ? ENTRY_TIMER_WAKE : 0) | (e.inIdleWake ? ENTRY_IN_IDLE_WAKE : 0)
        | (e.wakeInExitNs > 0 ? ENTRY_WAKE_IN_EXIT : 0));
}

namespace {

/// Entries gathered in a small buffer on the stack (in L1) and appended to
/// the columns a batch at a time: one capacity check and one end-pointer
/// update per column per batch, instead of seven push_backs per entry whose
/// end pointers the compiler must reload after every store (that cost more
/// than half of what the replay itself costs on a million entries).
struct EntryBatch {
    static constexpr std::size_t SIZE = RUN_BATCH_ENTRIES;
    Ns startNs[SIZE];
    Ns residencyNs[SIZE];
    Ns predictedNs[SIZE];
    Ns sleepLengthNs[SIZE];
    std::int32_t span[SIZE];
    std::int8_t state[SIZE];
    EntryFlags flags[SIZE];
    std::int32_t wakeInExitNs[SIZE];

    void appendTo(GovernorRun &run, std::size_t n) const
    {
        run.startNs.insert(run.startNs.end(), startNs, startNs + n);
        run.residencyNs.insert(run.residencyNs.end(), residencyNs, residencyNs + n);
        run.predictedNs.insert(run.predictedNs.end(), predictedNs, predictedNs + n);
        run.sleepLengthNs.insert(run.sleepLengthNs.end(), sleepLengthNs, sleepLengthNs + n);
        run.span.insert(run.span.end(), span, span + n);
        run.state.insert(run.state.end(), state, state + n);
        run.flags.insert(run.flags.end(), flags, flags + n);
        run.wakeInExitNs.insert(run.wakeInExitNs.end(), wakeInExitNs, wakeInExitNs + n);
    }

    /// Entries [from, to) of @p run into slots [0, to - from).
    void copyFrom(const GovernorRun &run, std::size_t from, std::size_t to)
    {
        const std::size_t n = to - from;
        std::copy_n(run.startNs.data() + from, n, startNs);
        std::copy_n(run.residencyNs.data() + from, n, residencyNs);
        std::copy_n(run.predictedNs.data() + from, n, predictedNs);
        std::copy_n(run.sleepLengthNs.data() + from, n, sleepLengthNs);
        std::copy_n(run.span.data() + from, n, span);
        std::copy_n(run.state.data() + from, n, state);
        std::copy_n(run.flags.data() + from, n, flags);
        std::copy_n(run.wakeInExitNs.data() + from, n, wakeInExitNs);
    }
};

/// Entry @p i of @p base is what @p e, kept at @p startNs with @p flags, would be.
bool baseHasEntry(const GovernorRun &base, std::size_t i, const EntryRecord &e, Ns startNs, EntryFlags flags)
{
    return i < base.size() && base.startNs[i] == startNs && base.residencyNs[i] == e.residencyNs
           && base.predictedNs[i] == e.predictedNs && base.sleepLengthNs[i] == e.sleepLengthNs && base.span[i] == e.span
           && base.state[i] == e.state && base.flags[i] == flags && base.wakeInExitNs[i] == e.wakeInExitNs;
}

} // namespace

struct GovernorRunBuilder::State {
    State(const IdleStateTable &t, const IdleStream &s, std::unique_ptr<Governor> g, const RunOptions &options)
        : table(t), stream(s), gov(std::move(g)), observe(options.observe),
          spanClock(options.spanClockNs && options.spanClockNs->size() >= s.size() ? options.spanClockNs->data()
                                                                                   : nullptr),
          replay(t, *gov, options.latencyLimitNs)
    {
    }

    const IdleStateTable &table;
    const IdleStream &stream;
    std::unique_ptr<Governor> gov; // on the heap: the replay refers to it
    const RunObserver *observe;
    const Ns *spanClock; ///< the workload's start of each span, or null: the run's own time
    ReferenceReplay replay;
    GovernorRun run;
    EntryBatch batch;
    std::size_t used = 0;              ///< entries in the batch
    std::size_t next = 0;              ///< next span to replay
    const GovernorRun *base = nullptr; ///< RunOptions::base while every entry so far repeats it, else null
    std::size_t repeated = 0;          ///< entries so far, all the base's, while base is set

    /// The run stops repeating its base after `repeated` entries: those are copied
    /// in from the base, whole batches into the columns (seen by the observer as
    /// if replayed) and the rest into the batch. Returns the entries in the batch.
    std::size_t stopRepeating()
    {
        const GovernorRun &from = *base;
        base = nullptr;
        const std::size_t whole = repeated - repeated % EntryBatch::SIZE;
        for (std::size_t b = 0; b < whole; b += EntryBatch::SIZE) {
            batch.copyFrom(from, b, b + EntryBatch::SIZE);
            batch.appendTo(run, EntryBatch::SIZE);
            if (observe)
                (*observe)(run, b, b + EntryBatch::SIZE);
        }
        batch.copyFrom(from, whole, repeated);
        return repeated - whole;
    }
};

GovernorRunBuilder::GovernorRunBuilder(std::unique_ptr<State> state) : m_state(std::move(state)) {}
GovernorRunBuilder::GovernorRunBuilder(GovernorRunBuilder &&) noexcept = default;
GovernorRunBuilder &GovernorRunBuilder::operator=(GovernorRunBuilder &&) noexcept = default;
GovernorRunBuilder::~GovernorRunBuilder() = default;

Result<GovernorRunBuilder> GovernorRunBuilder::start(const IdleStateTable &table, const IdleStream &stream,
                                                     const std::string &variant, const RunOptions &options)
{
    auto gov = makeConfiguredGovernor(variant, options.settings);
    if (!gov)
        return gov.error();
    if (Status s = prepareGovernor(**gov, table, stream, options.latencyLimitNs); !s)
        return s.error();
    (*gov)->keepReasoning(false); // entries only: reasoningAt() re-runs for an entry's reasoning
    auto state = std::make_unique<State>(table, stream, std::move(*gov), options);
    GovernorRun &run = state->run;
    if (options.storage) {
        run = std::move(*options.storage);
        run.forEachColumn([](auto &column) { column.clear(); });
        run.summary = ReplaySummary{};
    }
    state->base = options.base;
    run.variant = variant;
    run.settings = options.settings;
    // Most spans are one entry; a tick or the polling limit splits some (up
    // to ~17 % on the GUI's default scenario). Reserve enough that a typical
    // run never regrows (a regrowth copies every column once).
    const std::size_t guess = stream.size() + stream.size() / 4 + 16;
    run.forEachColumn([guess](auto &column) { column.reserve(guess); });
    return GovernorRunBuilder(std::move(state));
}

bool GovernorRunBuilder::advance(std::size_t spans)
{
    State &st = *m_state;
    const IdleStream &stream = st.stream;
    GovernorRun &run = st.run;
    EntryBatch &batch = st.batch;
    const RunObserver *observe = st.observe;
    const Ns *spanClock = st.spanClock;
    std::size_t used = st.used; // a local, so that it lives in a register
    Ns shift = 0;               // onSpanClock()'s, set at each span's first entry (a span is never cut between steps)
    auto keep = [&](const EntryRecord &e, const Governor &) {
        Ns startNs = e.startNs - REPLAY_START_NS;
        if (spanClock) {
            if (e.entry == 0)
                shift = spanClock[e.span] - startNs;
            startNs += shift;
        }
        const EntryFlags flags = entryFlags(e);
        if (st.base) {
            if (baseHasEntry(*st.base, st.repeated, e, startNs, flags)) {
                ++st.repeated;
                return;
            }
            used = st.stopRepeating();
        }
        const std::size_t k = used;
        batch.startNs[k] = startNs;
        batch.residencyNs[k] = e.residencyNs;
        batch.predictedNs[k] = e.predictedNs;
        batch.sleepLengthNs[k] = e.sleepLengthNs;
        batch.span[k] = e.span;
        batch.state[k] = static_cast<std::int8_t>(e.state);
        batch.flags[k] = flags;
        // At most the exit latency of a state, which the tables hold under a second.
        batch.wakeInExitNs[k] = static_cast<std::int32_t>(std::min<Ns>(e.wakeInExitNs, INT32_MAX));
        if (++used == EntryBatch::SIZE) {
            batch.appendTo(run, used);
            if (observe)
                (*observe)(run, run.size() - used, run.size());
            used = 0;
        }
    };
    const std::size_t end = std::min(stream.size(), st.next + spans);
    st.replay.runSpans(stream, st.next, end, keep);
    st.next = end;
    st.used = used;
    if (end < stream.size())
        return false;
    return true;
}

std::size_t GovernorRunBuilder::spansLeft() const
{
    return m_state->stream.size() - m_state->next;
}

bool GovernorRunBuilder::repeatedBase() const
{
    const State &st = *m_state;
    return st.base && st.next == st.stream.size() && st.repeated == st.base->size();
}

Result<GovernorRun> GovernorRunBuilder::take()
{
    State &st = *m_state;
    if (st.base && !repeatedBase())
        st.used = st.stopRepeating(); // the base has more entries than this run
    st.batch.appendTo(st.run, st.used);
    if (st.observe && st.used > 0)
        (*st.observe)(st.run, st.run.size() - st.used, st.run.size());
    st.used = 0;
    st.run.summary = st.replay.summary();
    if (Status s = finishGovernor(*st.gov, &st.run.summary); !s)
        return s.error();
    return std::move(st.run);
}

Result<GovernorRun> runGovernor(const IdleStateTable &table, const IdleStream &stream, const std::string &variant,
                                const RunOptions &options)
{
    return runToEnd(GovernorRunBuilder::start(table, stream, variant, options), options.cancel);
}

Result<EntryReasoning> reasoningAt(const IdleStateTable &table, const IdleStream &stream, const std::string &variant,
                                   const std::vector<TunableSetting> &settings, std::int64_t index, Ns latencyLimitNs)
{
    auto gov = makeConfiguredGovernor(variant, settings);
    if (!gov)
        return gov.error();
    if (index < 0)
        return Error{"", 0, "entry", "negative entry index"};
    if (Status s = prepareGovernor(**gov, table, stream, latencyLimitNs); !s)
        return s.error();

    ReferenceReplay replay(table, **gov, latencyLimitNs);
    std::int64_t seen = 0;
    bool found = false;
    EntryReasoning out;
    for (std::size_t i = 0; i < stream.size(); ++i) {
        replay.runSpans(stream, i, i + 1, [&](const EntryRecord &e, const Governor &g) {
            if (seen++ == index) {
                out.entry = e;
                out.reasoning = g.reasoning();
                out.selection = Selection{e.state, e.stopTick, e.predictedNs};
                found = true;
            }
        });
        if (found) {
            if (Status st = finishGovernor(**gov, nullptr); !st)
                return st.error();
            return out;
        }
    }
    if (Status st = finishGovernor(**gov, nullptr); !st)
        return st.error();
    return Error{"", 0, "entry",
                 "entry " + std::to_string(index) + " is past the end of the run (" + std::to_string(seen)
                     + " entries)"};
}

} // namespace idlescope
