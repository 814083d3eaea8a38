// SPDX-License-Identifier: GPL-3.0-or-later
// Words for a teo-5.13 reasoning record (TeoReasoning with legacy = true; teo.c v5.13).
#include "core/governors/explain.h"

namespace idlescope {

namespace {

const char *pathName(TeoReasoning::Path p)
{
    switch (p) {
    case TeoReasoning::Path::Candidate: return "candidate";
    case TeoReasoning::Path::EarlyHits: return "early_hits";
    case TeoReasoning::Path::LatencyLimit: return "latency_limit";
    case TeoReasoning::Path::RecentIntervals: return "recent_intervals";
    case TeoReasoning::Path::TickKeptDemotion: return "tick_kept_demotion";
    case TeoReasoning::Path::NoChoice: return "no_choice";
    default: return "other";
    }
}

std::string stateName(const IdleStateTable &drv, int idx)
{
    return idx >= 0 && idx < drv.count() ? drv[idx].name : std::string("none");
}

} // namespace

std::string describeTeoLegacy(const TeoReasoning &r)
{
    std::string s = std::string("path=") + pathName(r.path) + " sleep_length_ns=" + std::to_string(r.sleepLengthNs)
                    + " duration_ns=" + std::to_string(r.durationNs) + " candidate=" + std::to_string(r.candidateIdx)
                    + " idx0=" + std::to_string(r.idx0) + " max_early=" + std::to_string(r.maxEarlyIdx) + " constraint="
                    + std::to_string(r.constraintIdx) + " recent_count=" + std::to_string(r.recentCount)
                    + " recent_avg_ns=" + std::to_string(r.recentAvgNs) + " chosen=" + std::to_string(r.chosenIdx)
                    + " stop_tick=" + (r.stopTick ? "1" : "0");
    if (r.updated)
        s += std::string(" measured_ns=") + std::to_string(r.measuredNs) + (r.lastWasHit ? " hit" : " miss");
    s += " hits/misses/early=";
    for (int i = 0; i < r.binCount; ++i) {
        const auto k = static_cast<size_t>(i);
        s += (i ? "," : "") + std::to_string(r.hits[k]) + "/" + std::to_string(r.intercepts[k]) + "/"
             + std::to_string(r.extra[k]);
    }
    return s;
}

namespace {

using Path = TeoReasoning::Path;

/// What teo_update() made of the previous idle period ("" before any).
std::string legacyUpdateSentence(const TeoReasoning &r, const ExplainContext &cx)
{
    if (!r.updated)
        return {};
    if (cx.firstSelect)
        // The kernel runs teo_update() on the zeroed device (last_state_idx 0) too.
        return std::string("This is teo's first decision: no idle period came before it. teo_update() "
                           "still ran on the zeroed per-CPU data (as in the kernel) and counted that empty "
                           "\"previous period\" as a ")
               + (r.lastWasHit ? "hit." : "miss.");
    if (r.measuredNs == KTIME_MAX)
        return "The previous wakeup came at or after the sleep length (a timer, or a safety net), so it counted "
               "as a hit.";
    return "The previous idle period measured " + formatDuration(r.measuredNs, cx.units)
           + " (half the exit latency taken off); it was a "
           + (r.lastWasHit ? "hit." : "miss, and an early hit of the state it matched.");
}

/// The candidate's hits against its misses ("" for no candidate).
std::string candidateRecordSentence(const TeoReasoning &r)
{
    if (r.candidateIdx < 0 || r.candidateIdx >= r.binCount)
        return {};
    const auto k = static_cast<size_t>(r.candidateIdx);
    if (r.hits[k] == 0 && r.intercepts[k] == 0)
        return "Its record is empty: no hits and no misses yet.";
    return "Its record is " + countOf(r.hits[k], "hit", "hits") + " against "
           + countOf(r.intercepts[k], "miss", "misses") + ".";
}

/// Steps 2-5: why the chosen state.
std::string legacyPathSentence(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    const std::string chosen = stateName(drv, r.chosenIdx);
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    switch (r.path) {
    case Path::EarlyHits:
        return "Hits do not outnumber misses, so teo took " + chosen
               + ", the shallower state with the most early hits, and expects " + dur(r.durationNs)
               + " of idle time (its target residency).";
    case Path::LatencyLimit:
        return chosen
               + " is the first state whose exit latency exceeds the latency limit; teo 5.13 "
                 "caps the choice there, so it may pick a state slower than the limit allows "
                 "(fixed by the June 2021 rework).";
    case Path::RecentIntervals:
        return std::to_string(r.recentCount) + " of the recent idle periods were shorter, averaging "
               + dur(r.recentAvgNs) + ", so teo moved to " + chosen + ", which fits that.";
    case Path::TickKeptDemotion:
        return "teo keeps the tick, so the idle period ends at the next tick at the latest; it moved to " + chosen
               + " to fit before it.";
    default: {
        const bool hitsWin =
            r.candidateIdx >= 0 && r.candidateIdx < r.binCount
            && r.hits[static_cast<size_t>(r.candidateIdx)] > r.intercepts[static_cast<size_t>(r.candidateIdx)];
        return hitsWin ? "Hits outnumber misses, so teo stayed with " + chosen + "."
                       : "Hits do not outnumber misses, but no shallower state has more early hits, so "
                         "teo stayed with "
                             + chosen + ".";
    }
    }
}

} // namespace

std::vector<std::string> explainTeoLegacy(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    std::vector<std::string> out;
    if (std::string u = legacyUpdateSentence(r, cx); !u.empty())
        out.push_back(std::move(u));
    if (r.path == Path::NoChoice) {
        out.push_back("No state is enabled, so teo used state 0.");
        return out;
    }
    out.push_back("The next timer is " + formatDuration(r.sleepLengthNs, cx.units)
                  + " away; the deepest enabled state that fits it is " + stateName(drv, r.candidateIdx) + ".");
    if (std::string c = candidateRecordSentence(r); !c.empty())
        out.push_back(std::move(c));
    out.push_back(legacyPathSentence(r, drv, cx));
    out.push_back(r.stopTick ? "It let the tick stop." : "It kept the tick running.");
    return out;
}

} // namespace idlescope
