// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workloads/idle_profile.h"

namespace idlescope::workloads {

int idleBand(Ns idleNs)
{
    int k = 0;
    while (k < IDLE_BANDS - 1 && idleNs >= IDLE_BAND_UPPER_NS[static_cast<size_t>(k)])
        ++k;
    return k;
}

void IdleProfile::add(Ns idleNs, bool inIdleWakeup)
{
    ++wakeups;
    inIdle += inIdleWakeup ? 1 : 0;
    ++bands[static_cast<size_t>(idleBand(idleNs))];
}

double IdleProfile::perSecond() const
{
    return observedNs > 0 ? double(wakeups) * double(NSEC_PER_SEC) / double(observedNs) : 0.0;
}

double IdleProfile::inIdleShare() const
{
    return wakeups > 0 ? double(inIdle) / double(wakeups) : 0.0;
}

double IdleProfile::bandShare(int k) const
{
    return wakeups > 0 ? double(bands[static_cast<size_t>(k)]) / double(wakeups) : 0.0;
}

IdleProfile streamProfile(const IdleStream &stream)
{
    IdleProfile p;
    for (const IdleSpan &s : stream) {
        p.observedNs += s.gapNs + s.wakeNs;
        p.add(s.wakeNs, !s.needResched);
    }
    return p;
}

} // namespace idlescope::workloads
