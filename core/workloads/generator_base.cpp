// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workloads/generator_base.h"

#include <algorithm>

namespace idlescope::workloads {

IdleSpan GeneratorBase::next()
{
    if (m_pendingWaitNs >= 0) {
        const Ns rest = m_pendingWaitNs;
        m_pendingWaitNs = -1;
        return eventWake(TIMER_RUN_NS, rest);
    }
    return produce();
}

IdleSpan GeneratorBase::eventWake(Ns gapNs, Ns waitNs)
{
    const Ns timer =
        m_nextTimerNs > 0 ? m_rng.range(m_nextTimerNs / 2, m_nextTimerNs + m_nextTimerNs / 2) : NO_TIMER_NS;
    if (timer < waitNs) {
        // The unrelated timer fires first: it ends this span and the event
        // arrives, at its original absolute time, in the next one.
        m_pendingWaitNs = std::max<Ns>(0, waitNs - timer - TIMER_RUN_NS);
        return IdleSpan{gapNs, timer, timer, NO_LATENCY_REQ, 0};
    }
    return IdleSpan{gapNs, timer, waitNs, NO_LATENCY_REQ, 0};
}

} // namespace idlescope::workloads
