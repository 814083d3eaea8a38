// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/governors/explain.h"

#include <cstdio>

namespace idlescope {

namespace {
template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;
} // namespace

std::string describeReasoning(const Reasoning &r)
{
    return std::visit(Overloaded{[](std::monostate) { return std::string("(no record)"); },
                                 [](const MenuReasoning &m) { return describeMenu(m); },
                                 [](const TeoReasoning &t) { return t.legacy ? describeTeoLegacy(t) : describeTeo(t); },
                                 [](const LadderReasoning &l) { return describeLadder(l); },
                                 [](const HaltpollReasoning &h) { return describeHaltpoll(h); },
                                 [](const OracleReasoning &o) { return describeOracle(o); }},
                      r);
}

std::vector<std::string> explainReasoning(const Reasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    return std::visit(Overloaded{[](std::monostate) { return std::vector<std::string>{}; },
                                 [&](const MenuReasoning &m) { return explainMenu(m, drv, cx); },
                                 [&](const TeoReasoning &t) {
                                     return t.legacy ? explainTeoLegacy(t, drv, cx) : explainTeo(t, drv, cx);
                                 },
                                 [&](const LadderReasoning &l) { return explainLadder(l, drv, cx); },
                                 [&](const HaltpollReasoning &h) { return explainHaltpoll(h, drv, cx); },
                                 [&](const OracleReasoning &o) { return explainOracle(o, drv, cx); }},
                      r);
}

std::string expectationSentence(const Reasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    return std::visit(
        Overloaded{[](std::monostate) { return std::string(); },
                   [&](const MenuReasoning &m) { return expectMenu(m, drv, cx); },
                   [&](const TeoReasoning &t) { return expectTeo(t, drv, cx); },
                   [](const LadderReasoning &) {
                       return std::string("ladder predicts no idle time: it steps one state at a time by how "
                                          "long the last entries lasted.");
                   },
                   [](const HaltpollReasoning &) {
                       return std::string("haltpoll predicts no idle time: it polls or halts by how the last "
                                          "entry ended.");
                   },
                   [&](const OracleReasoning &o) {
                       return "The oracle knew the idle time: " + formatDuration(o.idleNs, cx.units) + ".";
                   }},
        r);
}

std::string formatDuration(Ns ns, UnitStyle units)
{
    if (ns == KTIME_MAX)
        return "never (KTIME_MAX)";
    char buf[48];
    const double v = static_cast<double>(ns);
    const double a = v < 0 ? -v : v;
    if (a < 1e3)
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    else if (a < 1e6)
        std::snprintf(buf, sizeof buf, units == UnitStyle::Micro ? "%.4g \u00b5s" : "%.4g us", v / 1e3);
    else if (a < 1e9)
        std::snprintf(buf, sizeof buf, "%.4g ms", v / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.4g s", v / 1e9);
    return buf;
}

std::string formatMicros(std::uint64_t us, UnitStyle units)
{
    if (us == UINT_MAX_U32)
        return "UINT_MAX";
    if (us == KTIME_MAX_US_U32) // said where it appears: an idle time of 46 min reads as a bug
        return formatDuration(static_cast<Ns>(us) * 1000, units) + " (" + KTIME_MAX_US_NOTE + ")";
    // Below 1 ms the count itself ("0 us", "100 us"): formatDuration would
    // write a zero as "0 ns", a unit these samples never had.
    if (us < 1000)
        return std::to_string(us) + (units == UnitStyle::Micro ? " \u00b5s" : " us");
    return formatDuration(static_cast<Ns>(us) * 1000, units);
}

std::string countOf(std::uint64_t n, const char *singular, const char *plural)
{
    return std::to_string(n) + ' ' + (n == 1 ? singular : plural);
}

std::string describeOracle(const OracleReasoning &r)
{
    return "idle_ns=" + std::to_string(r.idleNs) + " latency_req_ns=" + std::to_string(r.latencyReqNs)
           + " chosen=" + std::to_string(r.chosenIdx);
}

std::vector<std::string> explainOracle(const OracleReasoning &r, const IdleStateTable &drv, const ExplainContext &cx)
{
    return {"The oracle knew this idle period would last " + formatDuration(r.idleNs, cx.units) + ".",
            "It chose " + drv[r.chosenIdx].name
                + ", the deepest enabled state whose target residency fits that time and whose exit "
                  "latency fits the latency limit of "
                + formatDuration(r.latencyReqNs, cx.units) + "."};
}

} // namespace idlescope
