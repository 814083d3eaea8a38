// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The oracle reads the future: the time until the event that ends this idle
 * entry. With that, the best state is the deepest enabled one whose target
 * residency the idle time covers (so the entry is not "above") and whose exit
 * latency respects the PM QoS limit. It stops the tick for any hardware state,
 * since the tick would only cut a well-chosen sleep short, and keeps it while
 * polling, as the kernel does.
 */
#include "core/governors/oracle_governor.h"

#include "core/governors/registry.h"

namespace idlescope {

namespace {
constexpr VariantInfo kOracle[] = {
    {"oracle",
     "oracle",
     "none (knows the future)",
     {},
     "Deepest state whose target residency fits the real idle time: the lower bound for misses",
     PollTimeRule::V5_11,
     false},
};
} // namespace

std::span<const VariantInfo> oracleVariants()
{
    return kOracle;
}

std::unique_ptr<Governor> makeOracleGovernor(const VariantInfo &v)
{
    return std::make_unique<OracleGovernor>(v);
}

void OracleGovernor::enable(const IdleStateTable &, CpuidleDevice &)
{
    m_reasoning = OracleReasoning{};
}

Selection OracleGovernor::select(const IdleStateTable &drv, CpuidleDevice &, const SelectContext &ctx)
{
    int idx = -1;
    for (int i = 0; i < drv.count(); ++i) {
        const IdleState &s = drv[i];
        if (s.disabled)
            continue;
        if (idx < 0) {
            idx = i; // the shallowest enabled state is the fallback
            continue;
        }
        if (s.exitLatencyNs > ctx.latencyReqNs || s.targetResidencyNs > ctx.oracleIdleNs)
            break;
        idx = i;
    }
    if (idx < 0 || ctx.latencyReqNs == 0)
        idx = 0;

    m_reasoning = OracleReasoning{ctx.oracleIdleNs, ctx.latencyReqNs, idx};
    return Selection{idx, !drv[idx].polling, ctx.oracleIdleNs};
}

void OracleGovernor::reflect(const IdleStateTable &, CpuidleDevice &dev, int index)
{
    dev.lastStateIdx = index;
}

} // namespace idlescope
