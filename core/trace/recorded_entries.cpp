// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/recorded_entries.h"

#include "core/replay/cpuidle_core.h"

#include <algorithm>

namespace idlescope::trace {

GovernorRun recordedEntries(const CpuTrace &cpu, const StreamRows &rows, const IdleStateTable &table,
                            bool hasMissEvents, Ns originNs)
{
    GovernorRun run;
    run.variant = RECORDED_VARIANT;
    const int deepest = std::max(0, table.count() - 1);
    for (std::size_t row = 0; row < rows.size(); ++row) {
        const IdleSpanRec &sp = cpu.spans[static_cast<std::size_t>(rows.spanIndex[row])];
        const std::int32_t count = rows.entryCount[row];
        // The span's last row ends at the wakeup of a task; the others at an in-idle wakeup.
        const bool lastRow = row + 1 >= rows.size() || rows.spanIndex[row + 1] != rows.spanIndex[row];
        for (std::int32_t k = 0; k < count; ++k) {
            const IdleEntryRec &e = cpu.entries[static_cast<std::size_t>(rows.firstEntry[row] + k)];
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
            if (k == count - 1) {
                const bool timerWake = lastRow && count == sp.entryCount ? (sp.flags & SPAN_TIMER_WAKE) != 0
                                                                         : (e.flags & ENTRY_SLEEP_TIMER_WAKE) != 0;
                flags |= lastRow ? ENTRY_WOKEN_BY_WAKEUP : ENTRY_IN_IDLE_WAKE;
                flags |= timerWake ? ENTRY_TIMER_WAKE : 0;
            }
            run.startNs.push_back(e.enterNs - originNs);
            run.residencyNs.push_back(residency);
            run.predictedNs.push_back(-1);
            run.sleepLengthNs.push_back(e.sleepLengthNs);
            run.span.push_back(static_cast<std::int32_t>(row));
            run.state.push_back(static_cast<std::int8_t>(state));
            run.flags.push_back(flags);
            run.wakeInExitNs.push_back(0);
            StateStats &st = run.summary.states[static_cast<std::size_t>(state)];
            st.usage += 1;
            st.timeNs += residency;
            st.above += above ? 1 : 0;
            st.below += below ? 1 : 0;
            run.summary.entries += 1;
        }
    }
    run.summary.spans = static_cast<std::int64_t>(rows.size());
    run.summary.stateCount = table.count();
    if (!run.startNs.empty())
        run.summary.endNowNs = run.startNs.back() + run.residencyNs.back();
    return run;
}

} // namespace idlescope::trace
