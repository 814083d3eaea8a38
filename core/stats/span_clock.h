// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file span_clock.h
 * One clock for every run of a workload: the workload's own (the trace's
 * timestamps, or a synthetic stream's time), so that the same x is the same
 * wakeup in every lane.
 *
 * A simulated run keeps its own `now`: each entry adds the state's exit
 * latency, so two governors drift apart over a long stream (on a 2.4 s
 * trace one lane ended at 3.06 s, another at 2.45 s). onSpanClock() moves
 * each entry to the start of its span on the workload clock plus its offset
 * within the span in the run's own time; what it removes is the run's drift
 * (spanDriftNs()), which the inspector shows as a value instead.
 */
#pragma once

#include "core/replay/governor_run.h"
#include "core/stream/idle_span.h"

#include <vector>

namespace idlescope {

/// Start of each span of @p stream on the stream's own time (ns from its start):
/// the sum of the gaps up to it and of the wakeups before it, as if no idle state had an exit latency.
std::vector<Ns> streamSpanStarts(const IdleStream &stream);

/**
 * Rewrites @p run's startNs: entry i goes to spanStartNs[span[i]] plus its
 * offset from the first entry of its span (the summary, on the run's own
 * clock, is not touched). The recorded run of a trace is on the trace clock
 * already and is not passed here. Returns false (run unchanged) when a span
 * row is out of range of @p spanStartNs.
 */
bool onSpanClock(GovernorRun &run, const std::vector<Ns> &spanStartNs);

/// How far a run's own clock had drifted from the workload's at one instant:
/// @p simulatedNowNs (the run's `now` there, REPLAY_START_NS based) minus REPLAY_START_NS
/// minus the same instant on the stream's time @p streamNs (a span's start from
/// streamSpanStarts(), plus the offset within the span). The inspector shows it.
inline Ns spanDriftNs(Ns simulatedNowNs, Ns streamNs)
{
    return simulatedNowNs - REPLAY_START_NS - streamNs;
}

} // namespace idlescope
