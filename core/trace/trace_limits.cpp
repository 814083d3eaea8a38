// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_limits.h"

namespace idlescope::trace {

TraceLimits traceLimits(const TraceImport &trace)
{
    TraceLimits l;
    l.noTimerEvents = !trace.hasTimerEvents;
    std::int64_t entries = 0;
    bool onlyOne = true;
    bool wholeMicros = true;
    for (const CpuTrace &c : trace.cpus)
        for (const IdleEntryRec &e : c.entries) {
            ++entries;
            onlyOne = onlyOne && e.state == 1;
            wholeMicros = wholeMicros && e.enterNs % NSEC_PER_USEC == 0 && e.exitNs % NSEC_PER_USEC == 0;
        }
    l.defaultIdleOnly = entries > 0 && onlyOne;
    l.microsecondTimestamps = entries > 0 && wholeMicros;
    return l;
}

std::vector<std::string> traceLimitTexts(const TraceLimits &l)
{
    std::vector<std::string> out;
    if (l.noTimerEvents)
        out.emplace_back("no hrtimer events: every row's sleep length falls back to its real idle time, so every "
                         "simulated governor knows the future (its misses are a lower bound)");
    if (l.defaultIdleOnly)
        out.emplace_back("every idle entry is in state 1 and none in another, which is what default_idle_call() "
                         "logs when no cpuidle driver is loaded: if so, the recorded run is not a governor's choices");
    if (l.microsecondTimestamps)
        out.emplace_back("the timestamps are whole microseconds (a text report): every recorded residency is "
                         "rounded to 1 us");
    return out;
}

} // namespace idlescope::trace
