// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/recorded_entries.h"

#include "core/replay/cpuidle_core.h"

#include <algorithm>

namespace idlescope::trace {

GovernorRun recordedEntries(const CpuTrace &cpu, const std::vector<std::int32_t> &spanIndex,
                            const IdleStateTable &table, bool hasMissEvents, Ns originNs)
{
    GovernorRun run;
    run.variant = RECORDED_VARIANT;
    const int deepest = std::max(0, table.count() - 1);
    for (std::size_t row = 0; row < spanIndex.size(); ++row) {
        const IdleSpanRec &sp = cpu.spans[static_cast<std::size_t>(spanIndex[row])];
        const bool timerWake = (sp.flags & SPAN_TIMER_WAKE) != 0;
        for (std::int32_t k = 0; k < sp.entryCount; ++k) {
            const IdleEntryRec &e = cpu.entries[static_cast<std::size_t>(sp.firstEntry + k)];
            if (e.flags & ENTRY_TRUNCATED)
                continue; // no measured residency; computeStats() skips them too
            const Ns residency = e.residencyNs();
            const int state = std::min<int>(e.state, deepest);
            bool above = false;
            bool below = false;
            if (hasMissEvents) {
                above = (e.flags & ENTRY_MISS_ABOVE) != 0;
                below = (e.flags & ENTRY_MISS_BELOW) != 0;
            } else if (e.state < table.count()) {
                const MissFlags m = classifyMiss(table, e.state, residency, table[e.state].exitLatencyNs);
                above = m.above;
                below = m.below;
            }
            EntryFlags flags = 0;
            flags |= above ? ENTRY_ABOVE : 0;
            flags |= below ? ENTRY_BELOW : 0;
            flags |= (e.flags & trace::ENTRY_TICK_STOPPED) ? idlescope::ENTRY_TICK_STOPPED : 0;
            if (k == sp.entryCount - 1) {
                flags |= ENTRY_WOKEN_BY_WAKEUP;
                flags |= timerWake ? ENTRY_TIMER_WAKE : 0;
            }
            run.startNs.push_back(e.enterNs - originNs);
            run.residencyNs.push_back(residency);
            run.predictedNs.push_back(-1);
            run.sleepLengthNs.push_back(e.sleepLengthNs);
            run.span.push_back(static_cast<std::int32_t>(row));
            run.state.push_back(static_cast<std::int8_t>(state));
            run.flags.push_back(flags);
            StateStats &st = run.summary.states[static_cast<std::size_t>(state)];
            st.usage += 1;
            st.timeNs += residency;
            st.above += above ? 1 : 0;
            st.below += below ? 1 : 0;
            run.summary.entries += 1;
        }
    }
    run.summary.spans = static_cast<std::int64_t>(spanIndex.size());
    run.summary.stateCount = table.count();
    if (!run.startNs.empty())
        run.summary.endNowNs = run.startNs.back() + run.residencyNs.back();
    return run;
}

} // namespace idlescope::trace
