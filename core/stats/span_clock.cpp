// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/span_clock.h"

namespace idlescope {

std::vector<Ns> streamSpanStarts(const IdleStream &stream)
{
    std::vector<Ns> starts;
    starts.reserve(stream.size());
    Ns t = 0;
    for (const IdleSpan &s : stream) {
        t += s.gapNs;
        starts.push_back(t);
        t += s.wakeNs;
    }
    return starts;
}

bool onSpanClock(GovernorRun &run, const std::vector<Ns> &spanStartNs)
{
    const std::size_t n = run.size();
    for (std::size_t i = 0; i < n; ++i)
        if (run.span[i] < 0 || static_cast<std::size_t>(run.span[i]) >= spanStartNs.size())
            return false;
    std::int32_t span = -1;
    Ns shift = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (run.span[i] != span) { // the first entry of a span starts at the span's start
            span = run.span[i];
            shift = spanStartNs[static_cast<std::size_t>(span)] - run.startNs[i];
        }
        run.startNs[i] += shift;
    }
    return true;
}

} // namespace idlescope
