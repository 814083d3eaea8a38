// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/replay/reference_replay.h"

namespace idlescope {

std::int64_t ReplaySummary::totalAbove() const
{
    return sumOverStates(states, stateCount, &StateStats::above);
}

std::int64_t ReplaySummary::totalBelow() const
{
    return sumOverStates(states, stateCount, &StateStats::below);
}

ReferenceReplay::ReferenceReplay(const IdleStateTable &table, Governor &governor, Ns latencyLimitNs)
    : m_table(table), m_gov(governor), m_latencyLimitNs(latencyLimitNs)
{
    reset();
}

void ReferenceReplay::reset()
{
    m_dev = CpuidleDevice{};
    m_summary = ReplaySummary{};
    m_summary.stateCount = m_table.count();
    m_summary.endNowNs = REPLAY_START_NS;
    m_now = REPLAY_START_NS;
    m_tickNsec = m_table.tickNsec();
    m_nextTickNs = 0;
    m_spanStart = REPLAY_START_NS;
    m_lastWakeNs = REPLAY_START_NS;
    m_inStay = false;
    m_tickStopped = false;
    m_pollInFlight = false;
    m_pollRule = m_gov.variant().pollTime;
    m_readsGotTick = m_gov.variant().idleLoopReadsGotTick;
    m_gov.enable(m_table, m_dev);
}

ReplaySummary replayStream(const IdleStateTable &table, std::span<const IdleSpan> stream, Governor &governor)
{
    return replayStream(table, stream, governor, [](const EntryRecord &, const Governor &) {});
}

} // namespace idlescope
