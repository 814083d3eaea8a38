// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/comparison/comparison_stats.h"

namespace idlescope {

Ns entryLatencyCostNs(const GovernorRun &run, const IdleStateTable &table, const IdleStream &stream,
                      std::size_t i)
{
    if (!run.has(i, ENTRY_WOKEN_BY_WAKEUP))
        return 0;
    const auto span = static_cast<std::size_t>(run.span[i]);
    if (span >= stream.size() || stream[span].timerWake())
        return 0;
    return table[run.state[i]].exitLatencyNs;
}

GovernorTotals governorTotals(const GovernorRun &run, const IdleStateTable &table,
                              const IdleStream &stream)
{
    GovernorTotals t;
    const ReplaySummary &s = run.summary;
    t.idles = s.entries;
    t.usage.reserve(static_cast<std::size_t>(s.stateCount));
    for (int i = 0; i < s.stateCount; ++i)
        t.usage.push_back(s.states[static_cast<std::size_t>(i)].usage);
    t.aboves = s.totalAbove();
    t.belows = s.totalBelow();
    t.idleMisses = t.aboves + t.belows;
    if (t.idles > 0) {
        const double n = static_cast<double>(t.idles);
        t.idleMissRatio = static_cast<double>(t.idleMisses) / n;
        t.abovePercent = 100.0 * static_cast<double>(t.aboves) / n;
        t.belowPercent = 100.0 * static_cast<double>(t.belows) / n;
    }
    for (std::size_t i = 0; i < run.size(); ++i) {
        const Ns c = entryLatencyCostNs(run, table, stream, i);
        if (run.has(i, ENTRY_WOKEN_BY_WAKEUP) && !stream[static_cast<std::size_t>(run.span[i])].timerWake())
            ++t.latencyCostEntries;
        t.latencyCostNs += c;
    }
    return t;
}

} // namespace idlescope
