// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Words for the menu reasoning record (menu_reasoning.h): describeMenu() is
 * one "key=value" line for test failures and logs, explainMenu() the plain
 * sentences of the GUI's episode inspector, in the order menu_select()
 * works: what was learnt from the last entry, the recent-interval pattern,
 * the timer, the state loop, the tick. Allocates; never on the hot path.
 */
#include "core/governors/explain.h"

#include <string>
#include <vector>

namespace idlescope {

namespace {

using Path = MenuReasoning::Path;
using Typical = MenuReasoning::Typical;
using LoopEnd = MenuReasoning::LoopEnd;
using OverrideBlock = MenuReasoning::OverrideBlock;
using Measured = MenuReasoning::Measured;

const char *pathName(Path p)
{
    switch (p) {
    case Path::MainLoop: return "main-loop";
    case Path::EarlyState0: return "early-state0";
    case Path::PollingOverride: return "polling-override";
    case Path::TickStoppedDeeper: return "tick-stopped-deeper";
    case Path::TickKeptDemotion: return "tick-kept-demotion";
    case Path::ResidencyThreshold: return "residency-threshold";
    case Path::CoreSingleState: return "core-single-state";
    }
    return "?";
}

const char *typicalName(Typical t)
{
    switch (t) {
    case Typical::Average: return "average";
    case Typical::MaxOfRemaining: return "max-of-remaining";
    case Typical::NoPattern: return "no-pattern";
    case Typical::NoSamples: return "no-samples";
    case Typical::AboveTimer: return "above-timer";
    }
    return "?";
}

const char *loopEndName(LoopEnd e)
{
    switch (e) {
    case LoopEnd::AllFit: return "all-fit";
    case LoopEnd::Residency: return "residency";
    case LoopEnd::Latency: return "latency";
    case LoopEnd::ShallowKeepTick: return "shallow-keep-tick";
    case LoopEnd::TickStopped: return "tick-stopped";
    case LoopEnd::NotRun: return "not-run";
    }
    return "?";
}

const char *blockName(OverrideBlock b)
{
    switch (b) {
    case OverrideBlock::None: return "none";
    case OverrideBlock::Disabled: return "disabled";
    case OverrideBlock::LatencyLimit: return "latency";
    case OverrideBlock::NextTimer: return "next-timer";
    case OverrideBlock::ExitLatency: return "exit-latency";
    case OverrideBlock::ResidencyThreshold: return "residency-threshold";
    }
    return "?";
}

const char *measuredName(Measured m)
{
    switch (m) {
    case Measured::Residency: return "residency";
    case Measured::ResidencyHalved: return "halved";
    case Measured::TickWakeup: return "tick-wakeup";
    case Measured::PollTimeLimit: return "poll-limit";
    case Measured::Invalid: return "invalid";
    }
    return "?";
}

std::string stateName(const IdleStateTable &drv, int i)
{
    if (i < 0 || i >= drv.count())
        return "state " + std::to_string(i);
    return drv[i].name;
}

std::string joinList(const std::vector<std::string> &items)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i)
            out += i + 1 == items.size() ? " and " : ", ";
        out += items[i];
    }
    return out;
}

// "The last 8 idle intervals were ...; 2 were dropped as outliers (...); ..."
std::string windowSentence(const MenuReasoning &r, const ExplainContext &cx)
{
    auto us = [&](std::uint64_t v) { return formatMicros(v, cx.units); };
    const int n = r.intervalCount;
    std::vector<std::string> all;
    std::vector<std::string> dropped;
    std::vector<std::string> invalid;
    bool ktimeMax = false;
    for (int k = 0; k < n; ++k) {
        // The KTIME_MAX artefact is noted once after the list, not at each of its samples.
        const std::uint32_t sample = r.intervalsUs[size_t(k)];
        ktimeMax |= sample == KTIME_MAX_US_U32;
        const std::string v = sample == KTIME_MAX_US_U32 ? formatDuration(Ns(sample) * 1000, cx.units) : us(sample);
        all.push_back(v);
        if (r.discardedMask >> k & 1)
            dropped.push_back(v);
        if (r.invalidMask >> k & 1)
            invalid.push_back(v);
    }
    std::string s;
    if (cx.firstSelect) {
        // menu_enable_device() zeroes the ring: these are not idle periods.
        s = "No idle period has been measured yet: the " + std::to_string(n)
            + " slots of the recent-interval ring hold " + joinList(all) + " (their initial values";
        s += r.updated && r.measuredKind == Measured::Invalid ? ", and the UINT_MAX just recorded)" : ")";
    } else {
        s = "The last " + std::to_string(n) + " idle intervals were " + joinList(all) + " (oldest first)";
    }
    if (!invalid.empty())
        s += "; " + std::to_string(invalid.size()) + (invalid.size() == 1 ? " was" : " were")
             + " above the detector's initial threshold and never counted (" + joinList(invalid) + ")";
    if (!dropped.empty())
        s += "; " + std::to_string(dropped.size())
             + (dropped.size() == 1 ? " was dropped as an outlier (" : " were dropped as outliers (")
             + joinList(dropped) + ")";
    if (ktimeMax)
        s += "; " + formatDuration(Ns(KTIME_MAX_US_U32) * 1000, cx.units) + " is " + KTIME_MAX_US_NOTE;
    return s;
}

// Integer square root (floor), for showing a variance as a standard deviation.
std::uint64_t isqrt(std::uint64_t v)
{
    std::uint64_t x = 0;
    for (std::uint64_t bit = std::uint64_t(1) << 62; bit; bit >>= 2) {
        if (v >= x + bit) {
            v -= x + bit;
            x = (x >> 1) + bit;
        } else {
            x >>= 1;
        }
    }
    return x;
}

std::string typicalSentence(const MenuReasoning &r, const ExplainContext &cx)
{
    auto us = [&](std::uint64_t v) { return formatMicros(v, cx.units); };
    const std::string test = std::to_string(r.stddevRatio) + "\u00d7stddev";
    const std::string stats = "their average " + us(r.avgUs) + " with standard deviation " + us(isqrt(r.varianceUs2));
    switch (r.typical) {
    case Typical::Average: {
        const bool absolute = r.varianceUs2 <= std::uint64_t(r.stddevMaxUs) * r.stddevMaxUs;
        return "; " + stats + (absolute ? " is within " + us(r.stddevMaxUs) : " passed the " + test + " test")
               + ", so the typical interval is " + us(r.typicalUs) + ".";
    }
    case Typical::MaxOfRemaining:
        return "; " + stats + " failed the " + test + " test, but " + std::to_string(r.divisor)
               + " samples remained, so their maximum " + us(r.typicalUs) + " is the typical interval.";
    case Typical::NoPattern:
        return "; " + stats + " failed the " + test
               + " test and too few samples remained to drop more, so there is no typical interval.";
    case Typical::NoSamples:
        return r.rounds ? "; none of them is usable (all zero or excluded), so there is no typical interval."
                        : "; the pattern detector was not consulted.";
    case Typical::AboveTimer:
        return "; even the shortest of them (" + us(r.minUs)
               + ") is not below the timer prediction, so the detector gave up early.";
    }
    return ".";
}

std::string updateSentence(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    if (!r.updated)
        return cx.firstSelect ? std::string("This is menu's first decision: no idle period came before it, so "
                                            "there was nothing to learn from.")
                              : std::string();
    if (r.measuredKind == Measured::Invalid)
        return cx.firstSelect
                   ? "This is menu's first decision: no idle period came before it (last residency 0), so menu "
                     "recorded UINT_MAX as a recent interval, a value the pattern detector never counts."
                   : "No state was entered since the last selection (last residency 0), so UINT_MAX was "
                     "recorded as a recent interval.";
    std::string s = "Learning from the last entry (" + stateName(drv, r.updatedStateIdx) + ", residency "
                    + dur(r.lastResidencyNs) + "): ";
    switch (r.measuredKind) {
    case Measured::Residency: s += "the idle time less the exit latency"; break;
    case Measured::ResidencyHalved: s += "half the residency, since it did not exceed twice the exit latency"; break;
    case Measured::TickWakeup:
        s += "the tick woke the CPU although no timer was due within a tick, so 45 ms was assumed";
        break;
    case Measured::PollTimeLimit: s += "polling hit its time limit, so the next timer was assumed"; break;
    case Measured::Invalid: break;
    }
    s += " gives " + dur(r.measuredNs);
    if (r.measuredClamped)
        s += " (cut to the next timer)";
    s += "; recorded as " + formatMicros(r.storedUs, cx.units) + ", correction factor of bucket "
         + std::to_string(r.updatedBucket) + " now " + std::to_string(r.updatedFactor) + "/8192.";
    return s;
}

} // namespace

std::string describeMenu(const MenuReasoning &r)
{
    std::string s = "path=" + std::string(pathName(r.path)) + " chosen=" + std::to_string(r.chosenIdx) + " candidate="
                    + std::to_string(r.candidateIdx) + " stop_tick=" + (r.stopTick ? "1" : "0") + " predicted_ns="
                    + std::to_string(r.predictedNs) + " predicted_initial_ns=" + std::to_string(r.predictedInitialNs)
                    + " latency_req_ns=" + std::to_string(r.latencyReqNs) + " intervals=[";
    for (int k = 0; k < r.intervalCount; ++k) {
        if (k)
            s += ',';
        s += std::to_string(r.intervalsUs[size_t(k)]);
        if (r.discardedMask >> k & 1)
            s += 'x';
        if (r.invalidMask >> k & 1)
            s += '!';
    }
    s += "] typical=" + std::string(typicalName(r.typical)) + " typical_us=" + std::to_string(r.typicalUs)
         + " rounds=" + std::to_string(r.rounds) + " divisor=" + std::to_string(r.divisor)
         + " avg_us=" + std::to_string(r.avgUs) + " var_us2=" + std::to_string(r.varianceUs2)
         + " timer_queried=" + (r.timerQueried ? "1" : "0") + " next_timer_ns=" + std::to_string(r.nextTimerNs)
         + " delta_tick_ns=" + std::to_string(r.deltaTickNs) + " bucket=" + std::to_string(r.bucket)
         + " cf=" + std::to_string(r.correctionFactor) + " timer_us=" + std::to_string(r.timerUs)
         + " tick_stopped=" + (r.tickStopped ? "1" : "0") + " loop_end=" + loopEndName(r.loopEnd)
         + " loop_stop_idx=" + std::to_string(r.loopStopIdx) + " override_block=" + blockName(r.overrideBlock);
    if (r.updated)
        s += " measured=" + std::string(measuredName(r.measuredKind)) + " measured_ns=" + std::to_string(r.measuredNs)
             + " stored_us=" + std::to_string(r.storedUs);
    return s;
}

namespace {

/// Step 2: the timer query, or why there was none.
std::string timerSentence(const MenuReasoning &r, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    if (r.timerQueried)
        return "The next timer is " + dur(r.nextTimerNs) + " away (the next event including the tick "
               + dur(r.deltaTickNs) + "); bucket " + std::to_string(r.bucket) + "'s correction factor "
               + std::to_string(r.correctionFactor) + "/8192 makes that " + formatMicros(r.timerUs, cx.units) + ".";
    if (r.residencyThresholdNs > 0)
        return "The typical interval is not above " + dur(r.residencyThresholdNs)
               + ", so menu did not ask for the next timer: it assumes none and the tick " + dur(r.deltaTickNs)
               + " away.";
    return {};
}

/// Step 3: why state 0 was used no matter what.
std::string earlyState0Sentence(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    std::string why;
    if (r.latencyReqInputNs == 0)
        why = "the latency limit is 0";
    else if (drv.count() <= 1)
        why = "there is only one state";
    else if (r.nextTimerNs < drv[1].targetResidencyNs)
        why = "the next timer (" + dur(r.nextTimerNs) + ") comes before " + stateName(drv, 1) + "'s target residency ("
              + dur(drv[1].targetResidencyNs) + ")";
    else
        why = "the latency limit (" + dur(r.latencyReqInputNs) + ") is below " + stateName(drv, 1) + "'s exit latency ("
              + dur(drv[1].exitLatencyNs) + ")";
    return "State 0 would be used no matter what because " + why + ", so menu chose " + stateName(drv, r.chosenIdx)
           + (r.stopTick ? " and lets the tick stop." : " and keeps the tick (it polls).");
}

/// Step 4: what the state loop planned for.
std::string planSentence(const MenuReasoning &r, const ExplainContext &cx)
{
    std::string plan = "menu planned for " + formatDuration(r.predictedInitialNs, cx.units);
    if (r.stoppedTickReplaced)
        plan += " (the tick is already stopped, so a short prediction was replaced by the time till the next timer"
                + std::string(r.safeTimerRangeRule ? ", more than two tick periods (SAFE_TIMER_RANGE_NS) away)" : ")");
    if (r.safeTimerKept)
        plan += " (the tick is already stopped, but the next timer is within two tick periods "
                "(SAFE_TIMER_RANGE_NS, v7.1) and will end a shallow state soon, so the short prediction stands)";
    if (r.latencyReqNs != r.latencyReqInputNs)
        plan += ", with the exit latency limited to that prediction";
    else
        plan += ", with a latency limit of " + formatDuration(r.latencyReqNs, cx.units);
    return plan + ".";
}

/// Step 5: where the state loop stopped.
std::string loopEndWords(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    const std::string stopName = stateName(drv, r.loopStopIdx);
    switch (r.loopEnd) {
    case LoopEnd::AllFit: return " (every enabled state does)";
    case LoopEnd::Residency: return "; " + stopName + " needs " + dur(drv[r.loopStopIdx].targetResidencyNs);
    case LoopEnd::Latency:
        return "; " + stopName + "'s exit latency " + dur(drv[r.loopStopIdx].exitLatencyNs) + " exceeds the limit";
    case LoopEnd::ShallowKeepTick: {
        std::string s = "; it is shallow, so the tick will be kept and menu will run again at the next tick";
        if (r.predictedNs != r.predictedInitialNs)
            s += " (to make sure, the kernel set predicted_ns to " + stateName(drv, r.candidateIdx)
                 + "'s target residency, " + dur(r.predictedNs) + ", below a tick period)";
        return s;
    }
    case LoopEnd::TickStopped: return " with the tick already stopped";
    case LoopEnd::NotRun: break;
    }
    return {};
}

/// Step 7: why the polling override did not pick the state the loop stopped at.
std::string overrideBlockWords(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (r.loopStopIdx < 0 || r.loopStopIdx >= drv.count())
        return {};
    const IdleState &next = drv[r.loopStopIdx];
    switch (r.overrideBlock) {
    case OverrideBlock::None:
    case OverrideBlock::ResidencyThreshold: break;
    case OverrideBlock::Disabled: return "; this variant has no polling override";
    case OverrideBlock::LatencyLimit:
        return "; the polling override did not pick " + next.name + " because its exit latency ("
               + formatDuration(next.exitLatencyNs, cx.units) + ") is above the latency limit";
    case OverrideBlock::NextTimer:
        return "; the polling override did not pick " + next.name
               + " because its target residency is beyond the next timer";
    case OverrideBlock::ExitLatency:
        return "; the polling override did not pick " + next.name + " because its exit latency ("
               + formatDuration(next.exitLatencyNs, cx.units) + ") is above the predicted idle time";
    }
    return {};
}

/// Steps 5–7: the state loop's choice.
std::vector<std::string> loopSentences(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    const std::string chosen = stateName(drv, r.chosenIdx);
    switch (r.path) {
    case Path::PollingOverride: {
        std::vector<std::string> out{"The polling state fitted, but the first non-polling state " + chosen
                                     + " (target residency " + dur(drv[r.chosenIdx].targetResidencyNs)
                                     + ") fits before the next timer, so menu chose " + chosen + "."};
        // menu_select() re-assigns predicted_ns here; the tick decision reads it.
        if (r.predictedNs != r.predictedInitialNs)
            out.push_back("With it, the kernel set predicted_ns to " + chosen + "'s target residency, "
                          + dur(r.predictedNs) + " (menu's own prediction was " + dur(r.predictedInitialNs)
                          + "); the tick decision below uses " + dur(r.predictedNs) + ".");
        return out;
    }
    case Path::ResidencyThreshold:
        return {"Only the polling state fitted; " + stateName(drv, r.loopStopIdx) + "'s target residency ("
                + dur(drv[r.loopStopIdx].targetResidencyNs) + ") is not below " + dur(r.residencyThresholdNs)
                + ", so the residency threshold kept " + stateName(drv, r.candidateIdx) + "."};
    case Path::TickStoppedDeeper:
        return {"The tick is already stopped and " + chosen
                + " fits before the next event, so menu went deeper than the prediction to avoid being "
                  "stuck in a shallow state."};
    default:
        return {stateName(drv, r.candidateIdx) + " is the deepest state that fits" + loopEndWords(r, drv, cx)
                + overrideBlockWords(r, drv, cx) + "."};
    }
}

/// Step 8: the tick, and a demotion to fit before it.
std::vector<std::string> tickSentences(const MenuReasoning &r, const IdleStateTable &drv)
{
    const std::string chosen = stateName(drv, r.chosenIdx);
    std::vector<std::string> out;
    if (r.path == Path::TickKeptDemotion)
        out.push_back("The tick is kept, and " + stateName(drv, r.candidateIdx)
                      + " would not pay off before it, so menu demoted to " + chosen + ".");
    if (r.tickStopped)
        out.push_back("The tick was already stopped.");
    else
        out.push_back(r.stopTick ? "menu chose " + chosen + " and lets the tick stop."
                                 : "menu chose " + chosen + " and keeps the tick running.");
    return out;
}

} // namespace

std::vector<std::string> explainMenu(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (r.path == Path::CoreSingleState)
        return {"The driver has a single idle state, so the v7.0 core uses " + stateName(drv, r.chosenIdx)
                + " without asking menu and keeps the tick."};
    // One paragraph per step of menu_select() that has something to say.
    std::vector<std::string> out;
    auto add = [&](std::string s) {
        if (!s.empty())
            out.push_back(std::move(s));
    };
    add(updateSentence(r, drv, cx));
    add(windowSentence(r, cx) + typicalSentence(r, cx));
    add(timerSentence(r, cx));
    if (r.path == Path::EarlyState0) {
        add(earlyState0Sentence(r, drv, cx));
        return out;
    }
    add(planSentence(r, cx));
    for (std::string &s : loopSentences(r, drv, cx))
        add(std::move(s));
    for (std::string &s : tickSentences(r, drv))
        add(std::move(s));
    return out;
}

std::string expectMenu(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    if (r.path == Path::CoreSingleState)
        return "menu was not asked: the driver has a single idle state.";
    if (r.predictedInitialNs < 0)
        return "menu made no prediction: state 0 was used no matter what.";
    std::string s = "menu predicted " + dur(r.predictedInitialNs) + " of idle time";
    if (r.predictedNs != r.predictedInitialNs) {
        if (r.path == Path::PollingOverride)
            s += "; the polling override then set predicted_ns to " + stateName(drv, r.chosenIdx)
                 + "'s target residency, " + dur(r.predictedNs);
        else
            s += "; the kernel then set predicted_ns to " + dur(r.predictedNs)
                 + (r.loopEnd == LoopEnd::ShallowKeepTick ? " to keep the tick" : "");
    }
    return s + ".";
}

} // namespace idlescope
