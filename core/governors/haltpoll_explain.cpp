// SPDX-License-Identifier: GPL-3.0-or-later
// Words for the haltpoll reasoning record (haltpoll_select()/adjust_poll_limit(), haltpoll.c v7.0).
#include "core/governors/explain.h"

namespace idlescope {

namespace {

const char *actionName(HaltpollReasoning::Action a)
{
    switch (a) {
    case HaltpollReasoning::Action::LatencyZero: return "latency_zero";
    case HaltpollReasoning::Action::NoPollWindow: return "no_poll_window";
    case HaltpollReasoning::Action::PollAgain: return "poll_again";
    case HaltpollReasoning::Action::PollExpired: return "poll_expired";
    case HaltpollReasoning::Action::AfterHalt: return "after_halt";
    case HaltpollReasoning::Action::CoreSingleState: return "core_single_state";
    }
    return "?";
}

const char *adjustName(HaltpollReasoning::Adjust a)
{
    switch (a) {
    case HaltpollReasoning::Adjust::None: return "none";
    case HaltpollReasoning::Adjust::Grow: return "grow";
    case HaltpollReasoning::Adjust::Shrink: return "shrink";
    }
    return "?";
}

} // namespace

std::string describeHaltpoll(const HaltpollReasoning &r)
{
    std::string s = std::string("action=") + actionName(r.action) + " last=" + std::to_string(r.lastStateIdx)
                    + " poll_time_limit=" + (r.pollTimeLimit ? "1" : "0")
                    + " poll_limit_ns=" + std::to_string(r.pollLimitNs)
                    + " latency_req_ns=" + std::to_string(r.latencyReqNs) + " chosen=" + std::to_string(r.chosenIdx);
    if (r.reflected)
        s += " block_ns=" + std::to_string(r.blockNs) + " adjust=" + adjustName(r.adjust)
             + " val=" + std::to_string(r.rawVal) + " new_poll_limit_ns=" + std::to_string(r.newPollLimitNs);
    return s;
}

namespace {

using Action = HaltpollReasoning::Action;
using Adjust = HaltpollReasoning::Adjust;

/// The first paragraph: which branch of haltpoll_select() chose @p chosen.
std::string selectParagraph(const HaltpollReasoning &r, const std::string &chosen, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    switch (r.action) {
    case Action::LatencyZero: return "The latency limit is 0, so haltpoll polls (" + chosen + ") and keeps the tick.";
    case Action::NoPollWindow:
        return std::string(cx.firstSelect ? "The poll window starts at 0 (no halt has grown it yet)"
                                          : "The poll window is 0 (no halt has grown it yet, or a long "
                                            "halt shrank it away)")
               + ", so haltpoll halts in " + chosen + " without polling and lets the tick stop.";
    case Action::PollAgain:
        return "The last entry polled and an event ended it within the " + dur(r.pollLimitNs)
               + " window, so haltpoll polls again (" + chosen + ") and keeps the tick.";
    case Action::PollExpired:
        return "The last entry polled for the whole " + dur(r.pollLimitNs)
               + " window without an event, so haltpoll halts in " + chosen + " and lets the tick stop.";
    case Action::AfterHalt:
        return "The last entry halted, so haltpoll polls first (" + chosen + ", window " + dur(r.pollLimitNs)
               + ") and keeps the tick.";
    case Action::CoreSingleState:
        return "The table has one state, so the cpuidle core (v7.0) does not ask haltpoll: it uses " + chosen
               + " and keeps the tick.";
    }
    return {};
}

/// The second paragraph: how haltpoll_reflect() moved the poll window after a halt.
std::string adjustParagraph(const HaltpollReasoning &r, const ExplainContext &cx)
{
    auto dur = [&](Ns ns) { return formatDuration(ns, cx.units); };
    const std::string block = dur(r.blockNs);
    switch (r.adjust) {
    case Adjust::Grow:
        return "The halt blocked for " + block
               + ", longer than the window but short enough for polling "
                 "to have covered it, so the window grew to "
               + dur(r.newPollLimitNs) + (r.raisedToGrowStart ? " (raised to grow_start)" : "")
               + (r.cappedAtMax ? " (capped at guest_halt_poll_ns)" : "") + ".";
    case Adjust::Shrink:
        return "The halt blocked for " + block
               + ", longer than guest_halt_poll_ns, so polling could "
                 "not have helped and the window shrank to "
               + dur(r.newPollLimitNs)
               + (r.resetToZero ? " (below grow_start, so to 0: no polling until a halt grows it)" : "") + ".";
    case Adjust::None:
        return "The halt blocked for " + block + ", which leaves the window at " + dur(r.newPollLimitNs) + ".";
    }
    return {};
}

} // namespace

std::vector<std::string> explainHaltpoll(const HaltpollReasoning &r, const IdleStateTable &drv,
                                         const ExplainContext &cx)
{
    std::vector<std::string> out{selectParagraph(r, drv[r.chosenIdx].name, cx)};
    if (r.action != Action::CoreSingleState && r.reflected && r.chosenIdx != 0)
        out.push_back(adjustParagraph(r, cx));
    return out;
}

} // namespace idlescope
