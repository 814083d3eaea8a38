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

std::vector<std::string> explainReasoning(const Reasoning &r, const IdleStateTable &drv)
{
    return std::visit(
        Overloaded{[](std::monostate) { return std::vector<std::string>{}; },
                   [&](const MenuReasoning &m) { return explainMenu(m, drv); },
                   [&](const TeoReasoning &t) { return t.legacy ? explainTeoLegacy(t, drv) : explainTeo(t, drv); },
                   [&](const LadderReasoning &l) { return explainLadder(l, drv); },
                   [&](const HaltpollReasoning &h) { return explainHaltpoll(h, drv); },
                   [&](const OracleReasoning &o) { return explainOracle(o, drv); }},
        r);
}

std::string formatDuration(Ns ns)
{
    if (ns == KTIME_MAX)
        return "never (KTIME_MAX)";
    char buf[48];
    const double v = static_cast<double>(ns);
    const double a = v < 0 ? -v : v;
    if (a < 1e3)
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    else if (a < 1e6)
        std::snprintf(buf, sizeof buf, "%.4g us", v / 1e3);
    else if (a < 1e9)
        std::snprintf(buf, sizeof buf, "%.4g ms", v / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.4g s", v / 1e9);
    return buf;
}

std::string describeOracle(const OracleReasoning &r)
{
    return "idle_ns=" + std::to_string(r.idleNs) + " latency_req_ns=" + std::to_string(r.latencyReqNs)
           + " chosen=" + std::to_string(r.chosenIdx);
}

std::vector<std::string> explainOracle(const OracleReasoning &r, const IdleStateTable &drv)
{
    return {"The oracle knew this idle period would last " + formatDuration(r.idleNs) + ".",
            "It chose " + drv[r.chosenIdx].name
                + ", the deepest enabled state whose target residency fits that time and whose exit "
                  "latency fits the latency limit of "
                + formatDuration(r.latencyReqNs) + "."};
}

} // namespace idlescope
