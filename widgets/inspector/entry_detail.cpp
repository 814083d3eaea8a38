// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/inspector/entry_detail.h"

#include "core/governors/explain.h"
#include "core/replay/governor_factory.h"
#include "core/replay/tick_running_what_if.h"
#include "core/source_governor/source_governor.h"

namespace idlescope {

std::string wakeCauseText(WakeCause c)
{
    return std::string(entryEndName(c)) + ": " + entryEndMeaning(c);
}

WakeCause wakeCause(const EntryRecord &rec)
{
    return entryEnd(rec);
}

OracleReasoning oracleChoice(const IdleStateTable &table, const EntryRecord &rec)
{
    std::unique_ptr<Governor> oracle = createGovernor("oracle");
    if (!oracle)
        return OracleReasoning{rec.remainingWakeNs, rec.latencyReqNs, 0};
    CpuidleDevice dev;
    oracle->enable(table, dev);
    SelectContext ctx;
    ctx.nowNs = rec.startNs;
    ctx.sleepLengthNs = rec.sleepLengthNs;
    ctx.deltaNextNs = rec.deltaNextNs;
    ctx.latencyReqNs = rec.latencyReqNs;
    ctx.tickNsec = table.tickNsec();
    // The oracle reads only the idle time and the latency limit.
    ctx.oracleIdleNs = rec.remainingWakeNs;
    oracle->select(table, dev, ctx);
    if (const auto *o = std::get_if<OracleReasoning>(&oracle->reasoning()))
        return *o;
    return OracleReasoning{rec.remainingWakeNs, rec.latencyReqNs, 0};
}

namespace {

int firstEnabled(const IdleStateTable &t, int from, int step)
{
    for (int i = from; i >= 0 && i < t.count(); i += step)
        if (!t[i].disabled)
            return i;
    return -1;
}

} // namespace

MissCost computeMissCost(const IdleStateTable &table, const EntryRecord &rec, int oracleIdx)
{
    MissCost c;
    c.above = rec.above;
    c.below = rec.below;
    c.chosenIdx = rec.state;
    c.residencyNs = rec.residencyNs;
    const IdleState &chosen = table[rec.state];
    c.exitLatencyPaidNs = chosen.exitLatencyNs;
    if (rec.above) {
        c.betterIdx = oracleIdx < rec.state ? oracleIdx : firstEnabled(table, rec.state - 1, -1);
        if (c.betterIdx >= 0)
            c.wastedExitLatencyNs = chosen.exitLatencyNs - table[c.betterIdx].exitLatencyNs;
        c.shortOfTargetNs = chosen.targetResidencyNs - rec.residencyNs;
    } else if (rec.below) {
        c.betterIdx = oracleIdx > rec.state ? oracleIdx : firstEnabled(table, rec.state + 1, 1);
        if (c.betterIdx >= 0)
            c.missedDeeperNs =
                std::max<Ns>(0, rec.residencyNs - chosen.exitLatencyNs - table[c.betterIdx].exitLatencyNs);
    }
    return c;
}

Result<EntryDetail> computeEntryDetail(const SimulationSnapshot &snap, int governorIndex, std::int64_t entryIndex)
{
    if (governorIndex < 0 || governorIndex >= snap.governorCount())
        return Error{"", 0, "governor", "no governor " + std::to_string(governorIndex)};
    const GovernorRun &run = *snap.governors[static_cast<std::size_t>(governorIndex)].run;
    if (entryIndex < 0 || entryIndex >= static_cast<std::int64_t>(run.size()))
        return Error{"", 0, "entry",
                     "no entry " + std::to_string(entryIndex) + " in "
                         + snap.governors[static_cast<std::size_t>(governorIndex)].displayName()};
    if (!snap.stream)
        return Error{"", 0, "stream", "the snapshot has no stream"};
    const IdleStream &stream = *snap.stream;

    Result<EntryReasoning> r =
        reasoningAt(snap.table, stream, run.variant, run.settings, entryIndex, snap.spec.latencyLimitNs);
    if (!r)
        return r.error();

    EntryDetail d;
    d.governorIndex = governorIndex;
    d.entryIndex = entryIndex;
    d.variant = run.variant;
    d.name = snap.governors[static_cast<std::size_t>(governorIndex)].displayName();
    d.entry = r->entry;
    d.reasoning = r->reasoning;
    d.selection = r->selection;
    // reasoningAt() replays from enable() on a zeroed device: entry 0 is the
    // first select, with no idle period before it.
    ExplainContext cx;
    cx.units = UnitStyle::Micro;
    cx.firstSelect = entryIndex == 0;
    d.sentences = explainReasoning(d.reasoning, snap.table, cx);
    if (d.sentences.empty() && isSourceGovernorId(run.variant))
        d.sentences.push_back("A governor built from source keeps no reasoning record: shown are the inputs "
                              "it was given, its decision and what the entry cost.");
    d.expectation = expectationSentence(d.reasoning, snap.table, cx);
    const IdleSpan &span = stream[static_cast<std::size_t>(d.entry.span)];
    d.cause = wakeCause(d.entry);
    d.spanTimerWake = span.timerWake();
    d.spanTimerNs = span.timerNs;
    d.spanWakeNs = span.wakeNs;
    d.axisNs = run.startNs[static_cast<std::size_t>(entryIndex)];
    d.oracle = oracleChoice(snap.table, d.entry);
    d.oracleSentences = explainOracle(d.oracle, snap.table, cx);
    d.cost = computeMissCost(snap.table, d.entry, d.oracle.chosenIdx);
    if (d.entry.tickStoppedAtSelect && !isSourceGovernorId(run.variant)) {
        // The stopped-tick branches are where menu's and teo's versions
        // differ most: set the choice with the tick running beside the real one.
        Result<EntryReasoning> w = reasoningWithTickRunning(snap.table, stream, run.variant, run.settings, entryIndex,
                                                            snap.spec.latencyLimitNs);
        if (w) {
            d.tickRunningIdx = w->selection.stateIndex;
            d.tickRunningStopTick = w->selection.stopTick;
            d.tickRunningSentences = explainReasoning(w->reasoning, snap.table, cx);
        }
    }
    return d;
}

std::int64_t findMiss(const GovernorRun &run, std::int64_t from, bool forward, std::uint8_t mask)
{
    const auto n = static_cast<std::int64_t>(run.size());
    if (forward) {
        for (std::int64_t i = std::max<std::int64_t>(from + 1, 0); i < n; ++i)
            if (run.flags[static_cast<std::size_t>(i)] & mask)
                return i;
    } else {
        for (std::int64_t i = (from < 0 || from > n ? n : from) - 1; i >= 0; --i)
            if (run.flags[static_cast<std::size_t>(i)] & mask)
                return i;
    }
    return -1;
}

} // namespace idlescope
