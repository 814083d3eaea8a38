// SPDX-License-Identifier: GPL-3.0-or-later
// Words for the TeoReasoning record of TeoGovernor (v5.14–v7.0): one
// key=value line for test failures and logs, and sentences for the episode
// inspector. The pre-2021 teo-5.13 records (legacy) have their own words in
// teo_legacy_explain.cpp.
#include "core/governors/explain.h"

#include <cstdio>
#include <string>

namespace idlescope {

namespace {

std::string num(std::int64_t v)
{
    return std::to_string(v);
}

std::string list(const std::array<std::uint32_t, CPUIDLE_STATE_MAX> &a, int n)
{
    std::string s = "[";
    for (int i = 0; i < n && i < CPUIDLE_STATE_MAX; ++i) {
        if (i)
            s += ',';
        s += std::to_string(a[static_cast<size_t>(i)]);
    }
    return s + ']';
}

const char *updateName(TeoReasoning::Update u)
{
    switch (u) {
    case TeoReasoning::Update::None: return "none";
    case TeoReasoning::Update::Hit: return "hit";
    case TeoReasoning::Update::Intercept: return "intercept";
    case TeoReasoning::Update::TickHit: return "tick_hit";
    case TeoReasoning::Update::TickDominant: return "tick_dominant";
    case TeoReasoning::Update::TickWakeupHit: return "tick_wakeup_hit";
    }
    return "?";
}

const char *pathName(TeoReasoning::Path p)
{
    switch (p) {
    case TeoReasoning::Path::Candidate: return "candidate";
    case TeoReasoning::Path::Intercepts: return "intercepts";
    case TeoReasoning::Path::LatencyLimit: return "latency_limit";
    case TeoReasoning::Path::SleepLength: return "sleep_length";
    case TeoReasoning::Path::TickIntercepts: return "tick_intercepts";
    case TeoReasoning::Path::TickKeptDemotion: return "tick_kept_demotion";
    case TeoReasoning::Path::SkipSleepLength: return "skip_sleep_length";
    case TeoReasoning::Path::NoChoice: return "no_choice";
    case TeoReasoning::Path::EarlyHits: return "early_hits";
    case TeoReasoning::Path::RecentIntervals: return "recent_intervals";
    case TeoReasoning::Path::Utilized: return "utilized";
    case TeoReasoning::Path::CoreSingleState: return "core_single_state";
    case TeoReasoning::Path::StoppedTickTimer: return "stopped_tick_timer";
    }
    return "?";
}

/// More recent intercepts than this cannot exist (NR_RECENT is at most 64):
/// a larger sum is the v5.14–v6.10 counters' unsigned wrap-around.
constexpr std::int64_t teoRecentSanityLimit = 64;

std::string nsText(Ns ns)
{
    return ns == KTIME_MAX ? std::string("max") : std::to_string(ns);
}

/// "C6", or "the tick bin" for the extra bin of v6.6–v6.10.
std::string stateName(const IdleStateTable &drv, int i)
{
    if (i >= 0 && i < drv.count())
        return drv[i].name;
    if (i == drv.count())
        return "tick";
    return "state " + std::to_string(i);
}

/// "42%"; a share of nothing (before any event) is "none (no events yet)".
std::string percent(std::uint32_t part, std::uint32_t whole)
{
    if (whole == 0)
        return "none (no events yet)";
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * part / whole);
    return buf;
}

/// What teo's duration_ns is, in words: mostly the sleep length itself
/// (teo predicts no idle time), sometimes a target residency, the middle of
/// a bin (v5.14) or half a tick.
std::string durationWords(const TeoReasoning &r, UnitStyle units)
{
    const std::string d = formatDuration(r.durationNs, units);
    if (r.tickInterceptsRule)
        return "teo assumed half a tick (" + d + ")";
    if (r.sleepLengthQueried && r.durationNs == r.sleepLengthNs)
        return "the next timer is " + d + " away";
    return "teo's working estimate of the idle time is " + d;
}

} // namespace

std::string expectTeo(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    if (r.legacy)
        return r.durationNs >= 0 ? "teo-5.13 expected " + dur(r.durationNs) + " of idle time." : std::string();
    if (r.path == TeoReasoning::Path::CoreSingleState)
        return "teo was not asked: the driver has a single idle state.";
    // teo (v5.14+) has no idle-time prediction: the bins pick the state, and
    // duration_ns is the sleep length, used to fit the state and decide the tick.
    const int binsPick = r.walkIdx >= 0 ? r.walkIdx : r.candidateIdx;
    std::string s = "teo predicts no idle time: ";
    if (r.path == TeoReasoning::Path::NoChoice)
        s += stateName(drv, r.chosenIdx) + " was the only choice";
    else if (r.path == TeoReasoning::Path::Utilized && r.candidateIdx == 0 && r.walkIdx < 0)
        s += "the CPU is utilized, which picked " + stateName(drv, r.chosenIdx) + " without the bins";
    else
        s += "its hits and intercepts pointed to " + stateName(drv, binsPick);
    if (r.sleepLengthQueried)
        s += "; the next timer was " + dur(r.sleepLengthNs) + " away";
    else
        s += "; it did not ask when the next timer was due";
    if (r.hasDuration && !(r.sleepLengthQueried && r.durationNs == r.sleepLengthNs))
        s += "; for the tick it assumed " + dur(r.durationNs);
    return s + ".";
}

std::string describeTeo(const TeoReasoning &r)
{
    const int n = r.binCount;
    std::string s;
    s.reserve(512);
    s += "update=" + std::string(updateName(r.update));
    if (r.updated) {
        s += " update_bin=" + num(r.updateBin) + " measured=" + nsText(r.measuredNs) + " safety_net="
             + num(r.measuredSafetyNet) + " prev_sleep_length=" + nsText(r.updateSleepLengthNs) + " timer_bin="
             + num(r.timerBin) + " duration_bin=" + num(r.durationBin) + " tick_wakeup=" + num(r.tickWakeup);
    }
    s += " hits=" + list(r.hits, n) + " intercepts=" + list(r.intercepts, n) + " recent=" + list(r.extra, n);
    s += " total=" + num(r.total) + " tick_intercepts=" + num(r.tickIntercepts) + " short_idles=" + num(r.shortIdles)
         + " total_tick=" + num(r.totalTick) + " tick_hits=" + num(r.tickHits);
    s += " candidate=" + num(r.candidateIdx) + " idx0=" + num(r.idx0) + " constraint=" + num(r.constraintIdx)
         + " idx_intercept_sum=" + num(r.idxInterceptSum) + " idx_hit_sum=" + num(r.idxHitSum) + " idx_recent_sum="
         + num(r.idxRecentSum) + " alt_intercepts=" + num(r.altIntercepts) + " alt_recent=" + num(r.altRecent)
         + " tick_intercept_sum=" + num(r.tickInterceptSum) + " intercept_max_idx=" + num(r.interceptMaxIdx)
         + " min_idx=" + num(r.minIdx) + " walk_idx=" + num(r.walkIdx) + " latency_capped=" + num(r.latencyCapped);
    if (r.utilThreshold)
        s += " util=" + num(r.util) + " util_threshold=" + num(r.utilThreshold) + " utilized=" + num(r.utilized)
             + " util_shallower=" + num(r.utilShallower);
    s += " skipped_query=" + num(r.skippedQuery) + " queried=" + num(r.sleepLengthQueried);
    if (r.sleepLengthQueried)
        s += " sleep_length=" + num(r.sleepLengthNs);
    s += " refined=" + num(r.sleepLengthRefined) + " tick_rule=" + num(r.tickInterceptsRule)
         + " demoted=" + num(r.tickKeptDemotion) + " duration=" + num(r.durationNs)
         + " delta_tick=" + num(r.deltaTickNs) + " tick_stopped=" + num(r.tickStopped) + " chosen=" + num(r.chosenIdx)
         + " stop_tick=" + num(r.stopTick) + " path=" + pathName(r.path);
    return s;
}

namespace {

using Update = TeoReasoning::Update;
using Path = TeoReasoning::Path;

/// The first select: teo_update() still ran on the zeroed device.
std::string firstUpdateParagraph(const TeoReasoning &r, const IdleStateTable &drv)
{
    // The kernel still runs teo_update() (last_state_idx starts at 0) on the
    // zeroed per-CPU data, a zero residency against a zero sleep length.
    return "This is teo's first decision: no idle period came before it. teo_update() still ran, as "
           "in the kernel (the device starts zeroed, with last_state_idx 0), and counted that empty "
           "\"previous period\" as "
           + std::string(r.update == Update::Intercept ? "an intercept" : "a hit") + " in the "
           + stateName(drv, r.updateBin) + " bin: the only event teo knows so far.";
}

/// What teo_update() made of the previous idle period.
std::string updateParagraph(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (!r.updated)
        return {};
    if (cx.firstSelect)
        return firstUpdateParagraph(r, drv);
    auto name = [&](int i) { return stateName(drv, i); };
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    const bool timerKnown = r.updateSleepLengthNs != KTIME_MAX;
    const std::string timer = timerKnown ? "the next timer was " + dur(r.updateSleepLengthNs) + " away"
                                         : std::string("teo had not asked when the next timer was due");
    const std::string lasted = "it lasted " + dur(r.measuredNs) + " (measured, less half the exit latency)";
    switch (r.update) {
    case Update::Hit:
        if (r.measuredSafetyNet)
            return "A safety net ended the previous idle period (the polling time limit, a tick, or a "
                   "wakeup at or after the timer), so teo counted it as a sleep until the timer: a hit "
                   "in the "
                   + name(r.updateBin) + " bin.";
        return "The previous idle period was a hit in the " + name(r.updateBin) + " bin: " + lasted + " and " + timer
               + ", both in that bin.";
    case Update::Intercept:
        if (r.measuredSafetyNet)
            return "The polling time limit ended the previous idle period, so teo counted it as a long "
                   "sleep; with "
                   + timer + ", that is an intercept in the " + name(r.updateBin) + " bin.";
        if (r.timerBin == r.durationBin)
            return "The previous idle period was an intercept in the " + name(r.updateBin) + " bin: " + lasted + "; "
                   + timer
                   + ", in the same bin, but the CPU woke more than half an "
                     "exit latency before it, so something else woke it.";
        return "The previous idle period was an intercept in the " + name(r.updateBin) + " bin: " + lasted + ", while "
               + timer + " (the " + name(r.timerBin) + " bin), so something other than the timer woke the CPU.";
    case Update::TickHit:
        return "The previous idle period lasted at least a tick period, as the sleep length foretold: "
               "a hit in the extra tick bin beyond the deepest state.";
    case Update::TickDominant:
        return "The scheduler tick ended the previous idle period, and tick wakeups are more than two "
               "thirds of all events, so teo counted it as a hit on the deepest bin ("
               + name(r.updateBin) + ") to make stopping the tick more likely.";
    case Update::TickWakeupHit:
        return "The scheduler tick ended the previous idle period while intercepts within a tick "
               "period are rare, so teo counted it as a hit in the "
               + name(r.updateBin) + " bin of the sleep length rather than as an intercept.";
    case Update::None: break;
    }
    return {};
}

/// Step 2: the candidate.
std::string candidateParagraph(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (r.path == Path::NoChoice)
        return stateName(drv, r.chosenIdx)
               + " was the only choice: it is the shallowest enabled state (or "
                 "nothing is enabled), so teo looked no further.";
    if (r.candidateBySleepLength)
        return "The candidate was " + stateName(drv, r.candidateIdx)
               + ", the deepest enabled state whose target residency fits the sleep length of "
               + formatDuration(r.sleepLengthNs, cx.units) + ".";
    return "The candidate was " + stateName(drv, r.candidateIdx) + ", the deepest enabled state.";
}

/// Step 3, when it applied: why the intercepts rule fired.
std::string interceptsWhy(const TeoReasoning &r, const IdleStateTable &drv)
{
    const std::uint32_t against = r.total - r.idxHitSum;
    std::string why;
    if (r.altIntercepts)
        why = "Intercepts in bins below " + stateName(drv, r.candidateIdx) + " add up to "
              + percent(r.idxInterceptSum, against) + " of all events other than the hits below it, more than half";
    if (r.altRecent) {
        why += r.altIntercepts ? "; and " : "";
        if (r.idxRecentSum > static_cast<std::uint32_t>(teoRecentSanityLimit))
            why += std::string(r.altIntercepts ? "the" : "The") + " recent-intercepts count below it reads "
                   + std::to_string(r.idxRecentSum)
                   + " (the kernel's per-bin counters wrapped around below zero, a bug fixed in v6.11)";
        else
            why += std::to_string(r.idxRecentSum)
                   + " of the most recent wakeups were intercepts below it, more than half of them";
    }
    return why;
}

/// Step 3, when it applied: where the walk went.
std::string interceptsResult(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    std::string result;
    if (r.walkIdx >= 0 && r.walkIdx != r.candidateIdx)
        result = ", so teo looked for a shallower state and settled on " + stateName(drv, r.walkIdx)
                 + ", the deepest one whose bins below the candidate hold most of those intercepts"
                 + (r.candidateBySleepLength ? ", expecting an idle period in the middle of its bin ("
                                                   + formatDuration(r.durationNs, cx.units) + ")."
                                             : std::string("."));
    else
        result = ", so teo looked for a shallower state, but none qualified and it kept "
                 + stateName(drv, r.candidateIdx) + ".";
    if (r.minIdx >= 0 && r.tickStopped)
        result += " With the tick stopped it would not go below " + stateName(drv, r.minIdx)
                  + ", the shallowest state worth a tick period.";
    return result;
}

/// Step 3: intercepts below the candidate against all events except the
/// hits below it (2 * idx_intercept_sum > total - idx_hit_sum).
std::string interceptsParagraph(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (r.altIntercepts || r.altRecent)
        return interceptsWhy(r, drv) + interceptsResult(r, drv, cx);
    if (r.path == Path::NoChoice || r.candidateIdx == r.idx0)
        return {};
    const std::uint32_t against = r.total - r.idxHitSum;
    if (against == 0)
        return "Intercepts in bins below " + stateName(drv, r.candidateIdx) + ": " + percent(r.idxInterceptSum, against)
               + " besides the hits below it, so the intercepts rule does not apply and teo kept the candidate.";
    return "Intercepts in bins below " + stateName(drv, r.candidateIdx) + " are " + percent(r.idxInterceptSum, against)
           + " of all events other than the hits below it; that is not more than half, so teo kept the candidate.";
}

/// Step 4: the latency cap and (teo-6.10) utilization.
std::string latencyParagraph(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (!r.latencyCapped)
        return {};
    return "The latency limit of " + formatDuration(r.latencyReqNs, cx.units) + " allows at most "
           + stateName(drv, r.constraintIdx) + ", so teo capped the choice there.";
}

std::string utilParagraph(const TeoReasoning &r)
{
    if (!r.utilThreshold)
        return {};
    if (!r.utilized)
        return "The CPU is not utilized (" + std::to_string(r.util) + " of 1024, threshold "
               + std::to_string(r.utilThreshold) + "), so utilization played no part.";
    return "The CPU is utilized (" + std::to_string(r.util) + " of 1024, above the threshold "
           + std::to_string(r.utilThreshold) + ")"
           + (r.utilShallower ? ", so teo took a shallower non-polling state."
                              : ", but no shallower non-polling state was usable.");
}

/// Step 5 (v6.6+): the sleep length query, its refinement and the tick-intercepts rule.
std::string sleepLengthParagraph(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (r.skippedQuery)
        return "teo did not ask when the next timer is due: " + stateName(drv, r.chosenIdx)
               + " is shallow, and short idle periods dominate (or the latency limit is tight).";
    if (!r.sleepLengthQueried || r.candidateBySleepLength)
        return {};
    return "The next timer was " + formatDuration(r.sleepLengthNs, cx.units) + " away"
           + (r.sleepLengthRefined ? std::string(", too soon for the state chosen so far, so teo moved to "
                                                 "a shallower one that fits.")
                                   : std::string("."));
}

/// Step 5 (v7.1): a stopped tick and a far timer.
std::string stoppedTickTimerParagraph(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (!r.safeTimerRangeDeeper)
        return {};
    return "The tick was already stopped and the next timer is " + formatDuration(r.sleepLengthNs, cx.units)
           + " away, more than two tick periods (SAFE_TIMER_RANGE_NS), so nothing would end a shallow state "
             "soon: teo took "
           + stateName(drv, r.chosenIdx)
           + ", the deepest enabled state within the latency limit whose target residency fits before that "
             "timer. Had the timer been within two ticks, the shallow choice would have stood.";
}

std::string tickInterceptsParagraph(const TeoReasoning &r, const ExplainContext &cx)
{
    if (!r.tickInterceptsRule)
        return {};
    return "Intercepts within a tick period are frequent, so teo expected only half a tick ("
           + formatDuration(r.durationNs, cx.units) + "), which keeps the tick running.";
}

/// Step 6: the tick.
std::string tickParagraph(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (r.stopTick && r.tickStopped)
        return "The tick was already stopped and stays stopped.";
    if (r.stopTick)
        return "It let the tick stop: " + stateName(drv, r.chosenIdx) + " is a hardware state and "
               + durationWords(r, cx.units) + ", at least a tick period.";
    std::string s = "It kept the tick running";
    if (r.chosenIdx >= 0 && r.chosenIdx < drv.count() && drv[r.chosenIdx].polling)
        s += ", since " + stateName(drv, r.chosenIdx) + " is a polling state";
    else if (!r.hasDuration || r.skippedQuery)
        s += ", as teo does when it decides without the sleep length";
    else if (r.durationNs < r.tickNsec)
        s += ", since " + durationWords(r, cx.units) + ", less than a tick period";
    if (r.tickKeptDemotion)
        s += "; the tick comes in " + formatDuration(r.deltaTickNs, cx.units) + ", so teo moved to "
             + stateName(drv, r.chosenIdx) + ", whose target residency fits before it";
    return s + ".";
}

} // namespace

std::vector<std::string> explainTeo(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (r.path == Path::CoreSingleState)
        return {"The driver has a single idle state, so the cpuidle core used it without asking teo "
                "and kept the tick."};
    // One paragraph per step that has something to say, in the order teo took them.
    std::vector<std::string> out;
    for (std::string p :
         {updateParagraph(r, drv, cx), candidateParagraph(r, drv, cx), interceptsParagraph(r, drv, cx),
          latencyParagraph(r, drv, cx), utilParagraph(r), sleepLengthParagraph(r, drv, cx),
          stoppedTickTimerParagraph(r, drv, cx), tickInterceptsParagraph(r, cx), tickParagraph(r, drv, cx)})
        if (!p.empty())
            out.push_back(std::move(p));
    out.push_back("teo chose " + stateName(drv, r.chosenIdx) + ".");
    return out;
}

} // namespace idlescope
