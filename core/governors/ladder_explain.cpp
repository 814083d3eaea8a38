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
           + " first=" + std::to_string(r.firstIdx) + " last_residency_ns="
           + std::to_string(r.lastResidencyNs) + " promotion_time_ns="
           + std::to_string(r.promotionTimeNs) + " demotion_time_ns="
           + std::to_string(r.demotionTimeNs) + " promotion_count="
           + std::to_string(r.promotionCount) + " demotion_count=" + std::to_string(r.demotionCount)
           + " latency_req_ns=" + std::to_string(r.latencyReqNs) + " chosen="
           + std::to_string(r.chosenIdx);
}

std::vector<std::string> explainLadder(const LadderReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    using Action = LadderReasoning::Action;
    std::vector<std::string> out;
    if (r.action == Action::CoreSingleState) {
        out.push_back("The table has one state, so the cpuidle core (v7.0) does not ask ladder: it uses "
                      + drv[0].name + " and keeps the tick.");
        return out;
    }
    const std::string last = drv[r.lastIdx].name;
    const std::string chosen = drv[r.chosenIdx].name;

    if (r.action == Action::LatencyZero) {
        out.push_back("The latency limit is 0, so ladder went straight to " + chosen
                      + " and forgot the counts it had on " + last + ".");
        return out;
    }

    if (cx.firstSelect) {
        // ladder_enable_device() put last_state_idx on the first state; no
        // entry has happened, so last_residency_ns is still 0.
        out.push_back("This is ladder's first decision: no idle period came before it. It starts on " + last
                      + ", and with no residency yet (0) the time beyond " + last + "'s exit latency reads "
                      + dur(r.lastResidencyNs) + ".");
        if (r.lastResidencyNs < 0)
            out.push_back("ladder compares that negative value as an unsigned 64-bit number, so it counts as "
                          "a long residency.");
    } else {
        out.push_back("ladder stood on " + last + "; the last entry lasted " + dur(r.lastResidencyNs)
                      + " beyond its exit latency.");
        if (r.lastResidencyNs < 0)
            out.push_back("That is negative, and ladder compares it as an unsigned 64-bit number, so "
                          "it counts as a long residency.");
    }

    switch (r.action) {
    case Action::Promote:
        out.push_back("That is longer than " + last + "'s promotion time of "
                      + dur(r.promotionTimeNs) + ", " + std::to_string(r.promotionCount)
                      + " times in a row, which reaches the promotion count, so ladder stepped down to "
                      + chosen + ".");
        break;
    case Action::ForcedDemote:
        out.push_back(last
                      + (drv[r.lastIdx].disabled
                             ? std::string(" is disabled")
                             : " exits too slowly for the latency limit of " + dur(r.latencyReqNs))
                      + ", so ladder moved up to " + chosen
                      + ", the first shallower state within the limit (or the first usable state).");
        break;
    case Action::Demote:
        out.push_back("That is shorter than " + last + "'s demotion time of "
                      + dur(r.demotionTimeNs) + ", so ladder stepped up to " + chosen + ".");
        break;
    case Action::Stay:
        if (r.promotionCandidate)
            out.push_back("That is long enough to count towards promotion ("
                          + std::to_string(r.promotionCount)
                          + " in a row so far), but not yet enough, so ladder stayed on " + chosen + ".");
        else if (r.demotionCandidate)
            out.push_back("That is short enough to count towards demotion ("
                          + std::to_string(r.demotionCount)
                          + " in a row so far), but not yet enough, so ladder stayed on " + chosen + ".");
        else
            out.push_back("Neither promotion nor demotion applies, so ladder stayed on " + chosen + ".");
        break;
    case Action::LatencyZero:
    case Action::CoreSingleState:
        break;
    }
    out.push_back("ladder never keeps the tick and makes no prediction of the idle time.");
    return out;
}

} // namespace idlescope
