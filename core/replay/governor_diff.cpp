// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/replay/governor_diff.h"

#include <algorithm>

namespace idlescope {

bool sameDecision(const EntryRecord &a, const EntryRecord &b)
{
    return a.state == b.state && a.stopTick == b.stopTick;
}

GovernorDiff diffGovernors(const IdleStateTable &table, const IdleStream &stream, Governor &a, Governor &b,
                           std::size_t keep, Ns latencyLimitNs)
{
    GovernorDiff d;
    ReferenceReplay ra(table, a, latencyLimitNs);
    ReferenceReplay rb(table, b, latencyLimitNs);
    // One row's entries at a time: most rows have one or two.
    std::vector<EntryRecord> ea, eb;
    std::int64_t entryA = 0;
    for (std::size_t row = 0; row < stream.size(); ++row) {
        ea.clear();
        eb.clear();
        ra.runSpans(stream, row, row + 1, [&](const EntryRecord &e, const Governor &) { ea.push_back(e); });
        rb.runSpans(stream, row, row + 1, [&](const EntryRecord &e, const Governor &) { eb.push_back(e); });
        bool rowDiffers = false;
        const std::size_t n = std::max(ea.size(), eb.size());
        for (std::size_t i = 0; i < n; ++i) {
            const bool inA = i < ea.size(), inB = i < eb.size();
            if (inA && inB && sameDecision(ea[i], eb[i]))
                continue;
            rowDiffers = true;
            ++d.differingEntries;
            if (d.first.size() < keep) {
                EntryDifference x;
                x.entry = entryA + static_cast<std::int64_t>(std::min(i, ea.size()));
                // The row where the entry was selected: a polling entry may
                // end, and reach us, in a later row (in-idle wakeups).
                const EntryRecord &first = inA ? ea[i] : eb[i];
                x.span = first.span;
                x.entryInSpan = first.entry;
                x.inA = inA;
                x.inB = inB;
                if (inA)
                    x.a = ea[i];
                if (inB)
                    x.b = eb[i];
                x.tickStoppedA = inA && i > 0 && ea[i - 1].tickStopped;
                x.tickStoppedB = inB && i > 0 && eb[i - 1].tickStopped;
                d.first.push_back(x);
            }
        }
        d.differingSpans += rowDiffers;
        entryA += static_cast<std::int64_t>(ea.size());
    }
    d.a = ra.summary();
    d.b = rb.summary();
    return d;
}

} // namespace idlescope
