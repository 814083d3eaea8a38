// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/governor_host/shim_governor.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace idlescope::source_governor {

void DecisionSink::put64(std::int64_t v)
{
    std::memcpy(m_buf + m_used, &v, sizeof v);
    m_used += sizeof v;
    if (m_used > sizeof(m_buf) - 16)
        flush();
}

void DecisionSink::flush()
{
    std::size_t done = 0;
    while (done < m_used && !m_failed) {
        const ssize_t n = ::write(HOST_DECISION_FD, m_buf + done, m_used - done);
        if (n > 0)
            done += static_cast<std::size_t>(n);
        else
            m_failed = true;
    }
    m_used = 0;
}

ShimGovernor::ShimGovernor(const VariantInfo &info, struct idlescope_shim_state &shim, struct cpuidle_driver &drv,
                           struct cpuidle_device &dev, struct cpuidle_governor &gov, bool skipSelectOneState,
                           HostProgress &progress, DecisionSink &sink)
    : m_info(info), m_shim(shim), m_drv(drv), m_dev(dev), m_gov(gov), m_skipSelectOneState(skipSelectOneState),
      m_progress(progress), m_sink(sink), m_stateCount(drv.state_count)
{
}

void ShimGovernor::toC(const CpuidleDevice &dev)
{
    m_dev.last_state_idx = dev.lastStateIdx;
    m_dev.last_residency_ns = static_cast<std::uint64_t>(dev.lastResidencyNs);
    m_dev.poll_limit_ns = static_cast<std::uint64_t>(dev.pollLimitNs);
    m_dev.poll_time_limit = dev.pollTimeLimit ? 1u : 0u;
    m_shim.got_idle_tick = dev.gotTickFlag;
}

void ShimGovernor::fromC(CpuidleDevice &dev)
{
    dev.lastStateIdx = m_dev.last_state_idx;
    dev.pollLimitNs = static_cast<Ns>(m_dev.poll_limit_ns);
    dev.pollTimeLimit = m_dev.poll_time_limit != 0;
    dev.gotTickFlag = m_shim.got_idle_tick != 0;
}

void ShimGovernor::enable(const IdleStateTable &, CpuidleDevice &dev)
{
    m_progress.phase.store(static_cast<std::int32_t>(HostPhase::Enable), std::memory_order_relaxed);
    toC(dev);
    if (m_gov.enable) {
        const int ret = m_gov.enable(&m_drv, &m_dev);
        if (ret != 0 && m_failure.empty())
            m_failure = std::string("the governor's enable() returned ") + std::to_string(ret)
                        + " (cpuidle_enable_device() would fail)";
    }
    fromC(dev);
}

Selection ShimGovernor::select(const IdleStateTable &, CpuidleDevice &dev, const SelectContext &ctx)
{
    m_progress.entry.store(m_entry, std::memory_order_relaxed);
    m_progress.phase.store(static_cast<std::int32_t>(HostPhase::Select), std::memory_order_relaxed);
    m_selectNowNs = ctx.nowNs;
    m_shim.now_ns = ctx.nowNs;
    m_shim.sleep_length_ns = ctx.sleepLengthNs;
    m_shim.delta_next_ns = ctx.deltaNextNs;
    m_shim.latency_req_ns = ctx.latencyReqNs;
    m_shim.tick_stopped = ctx.tickStopped;
    m_shim.util = ctx.util;
    toC(dev);

    int idx = 0;
    m_stopTick = true;
    if (m_skipSelectOneState && m_drv.state_count == 1)
        m_stopTick = false; // v7.0 cpuidle_select(): state 0, tick kept, governor not asked
    else
        idx = m_gov.select(&m_drv, &m_dev, &m_stopTick);
    fromC(dev);

    if (static_cast<unsigned>(idx) >= static_cast<unsigned>(m_stateCount)) [[unlikely]]
        idx = badState(idx);
    // The governor's C wrote the flag: read its byte, not a C++ bool (which may hold only 0
    // or 1). A byte of 2 was taken by the compiled shift for DECISION_POLL_LIMIT (odd_bool.c).
    unsigned char stopTickByte = 0;
    std::memcpy(&stopTickByte, &m_stopTick, 1);
    const bool stopTick = stopTickByte != 0;
    const bool pollLimitChanged = m_dev.poll_limit_ns != m_loopPollLimit;
    m_sink.put(static_cast<std::uint8_t>(idx | (stopTick ? DECISION_STOP_TICK : 0)
                                         | (pollLimitChanged ? DECISION_POLL_LIMIT : 0)));
    if (pollLimitChanged)
        m_sink.put64(static_cast<std::int64_t>(m_dev.poll_limit_ns));
    ++m_entry;
    return Selection{idx, stopTick, -1};
}

int ShimGovernor::badState(int idx)
{
    if (m_failure.empty())
        m_failure = "select() returned state " + std::to_string(idx) + " at entry " + std::to_string(m_entry)
                    + "; the table has states 0.." + std::to_string(m_stateCount - 1);
    return 0;
}

void ShimGovernor::reflect(const IdleStateTable &, CpuidleDevice &dev, int index)
{
    m_progress.phase.store(static_cast<std::int32_t>(HostPhase::Reflect), std::memory_order_relaxed);
    m_loopPollLimit = static_cast<std::uint64_t>(dev.pollLimitNs);
    if (m_replay) {
        // cpuidle_enter_state() has counted this entry before reflect.
        const StateStats &st = m_replay->summary().states[static_cast<std::size_t>(index)];
        struct cpuidle_state_usage &u = m_dev.states_usage[index];
        u.usage = static_cast<unsigned long long>(st.usage);
        u.time_ns = static_cast<std::uint64_t>(st.timeNs);
        u.above = static_cast<unsigned long long>(st.above);
        u.below = static_cast<unsigned long long>(st.below);
    }
    if (m_gov.reflect) {
        // The reference replay advances now by the residency before reflect, so
        // local_clock() there is the wakeup's time (teo v5.13-v6.18 measure the
        // idle span as local_clock() minus the one select() read).
        m_shim.now_ns = m_selectNowNs + dev.lastResidencyNs;
        toC(dev);
        m_gov.reflect(&m_dev, index);
        fromC(dev);
    }
}

} // namespace idlescope::source_governor
