// SPDX-License-Identifier: GPL-3.0-or-later
// Words for the ladder reasoning record (ladder_select_state(), ladder.c v7.0).
#include "core/governors/explain.h"

namespace idlescope {

namespace {

const char *actionName(LadderReasoning::Action a)
{
    switch (a) {
    case LadderReasoning::Action::Stay: return "stay";
    case LadderReasoning::Action::Promote: return "promote";
    case LadderReasoning::Action::Demote: return "demote";
    case LadderReasoning::Action::ForcedDemote: return "forced_demote";
    case LadderReasoning::Action::LatencyZero: return "latency_zero";
    case LadderReasoning::Action::CoreSingleState: return "core_single_state";
    }
    return "?";
}

} // namespace

std::string describeLadder(const LadderReasoning &r)
{
    return std::string("action=") + actionName(r.action) + " last=" + std::to_string(r.lastIdx)
           + " first=" + std::to_string(r.firstIdx) + " last_residency_ns=" + std::to_string(r.lastResidencyNs)
           + " promotion_time_ns=" + std::to_string(r.promotionTimeNs) + " demotion_time_ns="
           + std::to_string(r.demotionTimeNs) + " promotion_count=" + std::to_string(r.promotionCount)
           + " demotion_count=" + std::to_string(r.demotionCount) + " latency_req_ns=" + std::to_string(r.latencyReqNs)
           + " chosen=" + std::to_string(r.chosenIdx);
}

namespace {

using Action = LadderReasoning::Action;

/// The rung ladder stood on and what the last entry measured beyond its exit latency.
std::vector<std::string> residencySentences(const LadderReasoning &r, const IdleStateTable &drv,
                                            const ExplainContext &cx)
{
    const std::string last = drv[r.lastIdx].name;
    const std::string lasted = formatDuration(r.lastResidencyNs, cx.units);
    std::vector<std::string> out;
    if (cx.firstSelect) {
        // ladder_enable_device() put last_state_idx on the first state; no
        // entry has happened, so last_residency_ns is still 0.
        out.push_back("This is ladder's first decision: no idle period came before it. It starts on " + last
                      + ", and with no residency yet (0) the time beyond " + last + "'s exit latency reads " + lasted
                      + ".");
        if (r.lastResidencyNs < 0)
            out.push_back("ladder compares that negative value as an unsigned 64-bit number, so it counts as "
                          "a long residency.");
        return out;
    }
    out.push_back("ladder stood on " + last + "; the last entry lasted " + lasted + " beyond its exit latency.");
    if (r.lastResidencyNs < 0)
        out.push_back("That is negative, and ladder compares it as an unsigned 64-bit number, so "
                      "it counts as a long residency.");
    return out;
}

/// What ladder did with it: promote, demote (forced or counted) or stay.
std::string actionSentence(const LadderReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    const std::string last = drv[r.lastIdx].name;
    const std::string chosen = drv[r.chosenIdx].name;
    switch (r.action) {
    case Action::Promote:
        return "That is longer than " + last + "'s promotion time of " + dur(r.promotionTimeNs) + ", "
               + std::to_string(r.promotionCount)
               + " times in a row, which reaches the promotion count, so ladder stepped down to " + chosen + ".";
    case Action::ForcedDemote:
        return last
               + (drv[r.lastIdx].disabled ? std::string(" is disabled")
                                          : " exits too slowly for the latency limit of " + dur(r.latencyReqNs))
               + ", so ladder moved up to " + chosen
               + ", the first shallower state within the limit (or the first usable state).";
    case Action::Demote:
        return "That is shorter than " + last + "'s demotion time of " + dur(r.demotionTimeNs)
               + ", so ladder stepped up to " + chosen + ".";
    case Action::Stay:
        if (r.promotionCandidate)
            return "That is long enough to count towards promotion (" + std::to_string(r.promotionCount)
                   + " in a row so far), but not yet enough, so ladder stayed on " + chosen + ".";
        if (r.demotionCandidate)
            return "That is short enough to count towards demotion (" + std::to_string(r.demotionCount)
                   + " in a row so far), but not yet enough, so ladder stayed on " + chosen + ".";
        return "Neither promotion nor demotion applies, so ladder stayed on " + chosen + ".";
    case Action::LatencyZero:
    case Action::CoreSingleState: break;
    }
    return {};
}

} // namespace

std::vector<std::string> explainLadder(const LadderReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    if (r.action == Action::CoreSingleState)
        return {"The table has one state, so the cpuidle core (v7.0) does not ask ladder: it uses " + drv[0].name
                + " and keeps the tick."};
    if (r.action == Action::LatencyZero)
        return {"The latency limit is 0, so ladder went straight to " + drv[r.chosenIdx].name
                + " and forgot the counts it had on " + drv[r.lastIdx].name + "."};
    std::vector<std::string> out = residencySentences(r, drv, cx);
    out.push_back(actionSentence(r, drv, cx));
    out.push_back("ladder never keeps the tick and makes no prediction of the idle time.");
    return out;
}

} // namespace idlescope
