// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/replay/governor_run.h"

#include "core/governors/registry.h"

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

Result<GovernorRun> runGovernor(const IdleStateTable &table, const IdleStream &stream,
                                const std::string &variant,
                                const std::vector<TunableSetting> &settings,
                                const std::atomic<bool> *cancel)
{
    auto gov = makeConfiguredGovernor(variant, settings);
    if (!gov)
        return gov.error();

    GovernorRun run;
    run.variant = variant;
    run.settings = settings;
    // Most spans are one entry; reserve a little more to avoid regrowth.
    const std::size_t guess = stream.size() + stream.size() / 8 + 16;
    run.startNs.reserve(guess);
    run.residencyNs.reserve(guess);
    run.predictedNs.reserve(guess);
    run.sleepLengthNs.reserve(guess);
    run.span.reserve(guess);
    run.state.reserve(guess);
    run.flags.reserve(guess);

    ReferenceReplay replay(table, **gov);
    auto keep = [&](const EntryRecord &e, const Governor &) {
        run.startNs.push_back(e.startNs - REPLAY_START_NS);
        run.residencyNs.push_back(e.residencyNs);
        run.predictedNs.push_back(e.predictedNs);
        run.sleepLengthNs.push_back(e.sleepLengthNs);
        run.span.push_back(e.span);
        run.state.push_back(static_cast<std::int8_t>(e.state));
        const bool wokenByWakeup = e.residencyNs - table[e.state].exitLatencyNs >= e.remainingWakeNs;
        run.flags.push_back(static_cast<std::uint8_t>(
            (e.stopTick ? ENTRY_STOP_TICK : 0) | (e.above ? ENTRY_ABOVE : 0) | (e.below ? ENTRY_BELOW : 0)
            | (e.gotTick ? ENTRY_GOT_TICK : 0) | (e.pollTimeLimit ? ENTRY_POLL_TIME_LIMIT : 0)
            | (e.tickStopped ? ENTRY_TICK_STOPPED : 0) | (wokenByWakeup ? ENTRY_WOKEN_BY_WAKEUP : 0)));
    };
    for (std::size_t i = 0; i < stream.size(); ++i) {
        if (cancel && (i & 4095) == 0 && cancel->load(std::memory_order_relaxed))
            return Error{"", 0, "", "cancelled"};
        replay.runSpan(stream[i], keep);
    }
    run.summary = replay.summary();
    return run;
}

Result<EntryReasoning> reasoningAt(const IdleStateTable &table, const IdleStream &stream,
                                   const std::string &variant,
                                   const std::vector<TunableSetting> &settings, std::int64_t index)
{
    auto gov = makeConfiguredGovernor(variant, settings);
    if (!gov)
        return gov.error();
    if (index < 0)
        return Error{"", 0, "entry", "negative entry index"};

    ReferenceReplay replay(table, **gov);
    std::int64_t seen = 0;
    bool found = false;
    EntryReasoning out;
    for (const IdleSpan &s : stream) {
        replay.runSpan(s, [&](const EntryRecord &e, const Governor &g) {
            if (seen++ == index) {
                out.entry = e;
                out.reasoning = g.reasoning();
                out.selection = Selection{e.state, e.stopTick, e.predictedNs};
                found = true;
            }
        });
        if (found)
            return out;
    }
    return Error{"", 0, "entry", "entry " + std::to_string(index) + " is past the end of the run ("
                                     + std::to_string(seen) + " entries)"};
}

} // namespace idlescope
