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

std::string num(std::int64_t v) { return std::to_string(v); }

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
    }
    return "?";
}

/// More recent intercepts than this cannot exist (NR_RECENT is at most 64):
/// a larger sum is the v5.14–v6.10 counters' unsigned wrap-around.
constexpr std::int64_t teoRecentSanityLimit = 64;

std::string nsText(Ns ns) { return ns == KTIME_MAX ? std::string("max") : std::to_string(ns); }

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
        s += " update_bin=" + num(r.updateBin) + " measured=" + nsText(r.measuredNs)
             + " safety_net=" + num(r.measuredSafetyNet) + " prev_sleep_length=" + nsText(r.updateSleepLengthNs)
             + " timer_bin=" + num(r.timerBin) + " duration_bin=" + num(r.durationBin)
             + " tick_wakeup=" + num(r.tickWakeup);
    }
    s += " hits=" + list(r.hits, n) + " intercepts=" + list(r.intercepts, n) + " recent=" + list(r.extra, n);
    s += " total=" + num(r.total) + " tick_intercepts=" + num(r.tickIntercepts)
         + " short_idles=" + num(r.shortIdles) + " total_tick=" + num(r.totalTick)
         + " tick_hits=" + num(r.tickHits);
    s += " candidate=" + num(r.candidateIdx) + " idx0=" + num(r.idx0) + " constraint=" + num(r.constraintIdx)
         + " idx_intercept_sum=" + num(r.idxInterceptSum) + " idx_hit_sum=" + num(r.idxHitSum)
         + " idx_recent_sum=" + num(r.idxRecentSum) + " alt_intercepts=" + num(r.altIntercepts)
         + " alt_recent=" + num(r.altRecent) + " tick_intercept_sum=" + num(r.tickInterceptSum)
         + " intercept_max_idx=" + num(r.interceptMaxIdx) + " min_idx=" + num(r.minIdx)
         + " walk_idx=" + num(r.walkIdx) + " latency_capped=" + num(r.latencyCapped);
    if (r.utilThreshold)
        s += " util=" + num(r.util) + " util_threshold=" + num(r.utilThreshold) + " utilized=" + num(r.utilized)
             + " util_shallower=" + num(r.utilShallower);
    s += " skipped_query=" + num(r.skippedQuery) + " queried=" + num(r.sleepLengthQueried);
    if (r.sleepLengthQueried)
        s += " sleep_length=" + num(r.sleepLengthNs);
    s += " refined=" + num(r.sleepLengthRefined) + " tick_rule=" + num(r.tickInterceptsRule)
         + " demoted=" + num(r.tickKeptDemotion) + " duration=" + num(r.durationNs)
         + " delta_tick=" + num(r.deltaTickNs) + " tick_stopped=" + num(r.tickStopped)
         + " chosen=" + num(r.chosenIdx) + " stop_tick=" + num(r.stopTick) + " path=" + pathName(r.path);
    return s;
}

std::vector<std::string> explainTeo(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    std::vector<std::string> out;
    auto name = [&](int i) { return stateName(drv, i); };
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };

    if (r.path == TeoReasoning::Path::CoreSingleState) {
        out.push_back("The driver has a single idle state, so the cpuidle core used it without asking teo "
                      "and kept the tick.");
        return out;
    }

    // What the previous wakeup taught teo. On the first select there was none:
    // the kernel still runs teo_update() (last_state_idx starts at 0) on the
    // zeroed per-CPU data, a zero residency against a zero sleep length.
    if (r.updated && cx.firstSelect) {
        out.push_back("This is teo's first decision: no idle period came before it. teo_update() still ran, as "
                      "in the kernel (the device starts zeroed, with last_state_idx 0), and counted that empty "
                      "\"previous period\" as "
                      + std::string(r.update == TeoReasoning::Update::Intercept ? "an intercept" : "a hit")
                      + " in the " + name(r.updateBin) + " bin: the only event teo knows so far.");
    } else if (r.updated) {
        const bool timerKnown = r.updateSleepLengthNs != KTIME_MAX;
        const std::string timer = timerKnown ? "the next timer was " + dur(r.updateSleepLengthNs) + " away"
                                             : std::string("teo had not asked when the next timer was due");
        const std::string lasted =
            "it lasted " + dur(r.measuredNs) + " (measured, less half the exit latency)";
        switch (r.update) {
        case TeoReasoning::Update::Hit:
            if (r.measuredSafetyNet)
                out.push_back("A safety net ended the previous idle period (the polling time limit, a tick, or a "
                              "wakeup at or after the timer), so teo counted it as a sleep until the timer: a hit "
                              "in the " + name(r.updateBin) + " bin.");
            else
                out.push_back("The previous idle period was a hit in the " + name(r.updateBin) + " bin: " + lasted
                              + " and " + timer + ", both in that bin.");
            break;
        case TeoReasoning::Update::Intercept:
            if (r.measuredSafetyNet)
                out.push_back("The polling time limit ended the previous idle period, so teo counted it as a long "
                              "sleep; with " + timer + ", that is an intercept in the " + name(r.updateBin)
                              + " bin.");
            else if (r.timerBin == r.durationBin)
                out.push_back("The previous idle period was an intercept in the " + name(r.updateBin) + " bin: "
                              + lasted + "; " + timer + ", in the same bin, but the CPU woke more than half an "
                              "exit latency before it, so something else woke it.");
            else
                out.push_back("The previous idle period was an intercept in the " + name(r.updateBin) + " bin: "
                              + lasted + ", while " + timer + " (the " + name(r.timerBin)
                              + " bin), so something other than the timer woke the CPU.");
            break;
        case TeoReasoning::Update::TickHit:
            out.push_back("The previous idle period lasted at least a tick period, as the sleep length foretold: "
                          "a hit in the extra tick bin beyond the deepest state.");
            break;
        case TeoReasoning::Update::TickDominant:
            out.push_back("The scheduler tick ended the previous idle period, and tick wakeups are more than two "
                          "thirds of all events, so teo counted it as a hit on the deepest bin ("
                          + name(r.updateBin) + ") to make stopping the tick more likely.");
            break;
        case TeoReasoning::Update::TickWakeupHit:
            out.push_back("The scheduler tick ended the previous idle period while intercepts within a tick "
                          "period are rare, so teo counted it as a hit in the " + name(r.updateBin)
                          + " bin of the sleep length rather than as an intercept.");
            break;
        case TeoReasoning::Update::None:
            break;
        }
    }

    // The candidate.
    if (r.path == TeoReasoning::Path::NoChoice)
        out.push_back(name(r.chosenIdx) + " was the only choice: it is the shallowest enabled state (or nothing "
                                          "is enabled), so teo looked no further.");
    else if (r.candidateBySleepLength)
        out.push_back("The candidate was " + name(r.candidateIdx)
                      + ", the deepest enabled state whose target residency fits the sleep length of "
                      + dur(r.sleepLengthNs) + ".");
    else
        out.push_back("The candidate was " + name(r.candidateIdx) + ", the deepest enabled state.");

    // The intercepts rule: intercepts below the candidate against all events
    // except the hits below it (2 * idx_intercept_sum > total - idx_hit_sum).
    const std::uint32_t against = r.total - r.idxHitSum;
    const bool recentWrapped = r.idxRecentSum > static_cast<std::uint32_t>(teoRecentSanityLimit);
    if (r.altIntercepts || r.altRecent) {
        std::string why;
        if (r.altIntercepts)
            why = "Intercepts in bins below " + name(r.candidateIdx) + " add up to "
                  + percent(r.idxInterceptSum, against)
                  + " of all events other than the hits below it, more than half";
        if (r.altRecent) {
            why += r.altIntercepts ? "; and " : "";
            if (recentWrapped)
                why += std::string(r.altIntercepts ? "the" : "The")
                       + " recent-intercepts count below it reads " + std::to_string(r.idxRecentSum)
                       + " (the kernel's per-bin counters wrapped around below zero, a bug fixed in v6.11)";
            else
                why += std::to_string(r.idxRecentSum)
                       + " of the most recent wakeups were intercepts below it, more than half of them";
        }
        std::string result;
        if (r.walkIdx >= 0 && r.walkIdx != r.candidateIdx)
            result = ", so teo looked for a shallower state and settled on " + name(r.walkIdx)
                     + ", the deepest one whose bins below the candidate hold most of those intercepts"
                     + (r.candidateBySleepLength ? ", expecting an idle period in the middle of its bin ("
                                                       + dur(r.durationNs) + ")."
                                                 : std::string("."));
        else
            result = ", so teo looked for a shallower state, but none qualified and it kept "
                     + name(r.candidateIdx) + ".";
        if (r.minIdx >= 0 && r.tickStopped)
            result += " With the tick stopped it would not go below " + name(r.minIdx)
                      + ", the shallowest state worth a tick period.";
        out.push_back(why + result);
    } else if (r.path != TeoReasoning::Path::NoChoice && r.candidateIdx != r.idx0) {
        if (against == 0)
            out.push_back("Intercepts in bins below " + name(r.candidateIdx) + ": "
                          + percent(r.idxInterceptSum, against)
                          + " besides the hits below it, so the intercepts rule does not apply and teo kept the "
                            "candidate.");
        else
            out.push_back("Intercepts in bins below " + name(r.candidateIdx) + " are "
                          + percent(r.idxInterceptSum, against)
                          + " of all events other than the hits below it; that is not more than half, so teo "
                            "kept the candidate.");
    }

    if (r.latencyCapped)
        out.push_back("The latency limit of " + dur(r.latencyReqNs) + " allows at most "
                      + name(r.constraintIdx) + ", so teo capped the choice there.");

    if (r.utilThreshold) {
        if (r.utilized)
            out.push_back("The CPU is utilized (" + std::to_string(r.util) + " of 1024, above the threshold "
                          + std::to_string(r.utilThreshold) + ")"
                          + (r.utilShallower ? ", so teo took a shallower non-polling state."
                                             : ", but no shallower non-polling state was usable."));
        else
            out.push_back("The CPU is not utilized (" + std::to_string(r.util) + " of 1024, threshold "
                          + std::to_string(r.utilThreshold) + "), so utilization played no part.");
    }

    if (r.skippedQuery)
        out.push_back("teo did not ask when the next timer is due: " + name(r.chosenIdx)
                      + " is shallow, and short idle periods dominate (or the latency limit is tight).");
    else if (r.sleepLengthQueried && !r.candidateBySleepLength)
        out.push_back("The next timer was " + dur(r.sleepLengthNs) + " away"
                      + (r.sleepLengthRefined ? std::string(", too soon for the state chosen so far, so teo moved to "
                                                            "a shallower one that fits.")
                                              : std::string(".")));

    if (r.tickInterceptsRule)
        out.push_back("Intercepts within a tick period are frequent, so teo expected only half a tick ("
                      + dur(r.durationNs) + "), which keeps the tick running.");

    if (r.stopTick) {
        if (r.tickStopped)
            out.push_back("The tick was already stopped and stays stopped.");
        else
            out.push_back("It let the tick stop: " + name(r.chosenIdx) + " is a hardware state and "
                          + durationWords(r, cx.units) + ", at least a tick period.");
    } else {
        std::string s = "It kept the tick running";
        if (r.chosenIdx >= 0 && r.chosenIdx < drv.count() && drv[r.chosenIdx].polling)
            s += ", since " + name(r.chosenIdx) + " is a polling state";
        else if (!r.hasDuration || r.skippedQuery)
            s += ", as teo does when it decides without the sleep length";
        else if (r.durationNs < r.tickNsec)
            s += ", since " + durationWords(r, cx.units) + ", less than a tick period";
        if (r.tickKeptDemotion)
            s += "; the tick comes in " + dur(r.deltaTickNs) + ", so teo moved to "
                 + name(r.chosenIdx) + ", whose target residency fits before it";
        out.push_back(s + ".");
    }

    out.push_back("teo chose " + name(r.chosenIdx) + ".");
    return out;
}

} // namespace idlescope
