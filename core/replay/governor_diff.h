// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_diff.h
 * Where two governors decide differently on the same stream (a patched
 * governor file against the variant it patches): both replay the stream
 * side by side, span by span, and their entries are compared by position
 * (stream row, entry within the row). The first difference is where the
 * two first decide differently on the same inputs; after it their
 * histories differ, so later differences may follow from earlier ones.
 */
#pragma once

#include "core/governors/governor.h"
#include "core/replay/reference_replay.h"
#include "core/stream/idle_span.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace idlescope {

struct EntryDifference {
    std::int64_t entry = 0;       ///< entry index (over the whole run) in the first governor's replay
    std::int32_t span = 0;        ///< stream row
    std::int32_t entryInSpan = 0; ///< entry within the row
    bool inA = true, inB = true;  ///< false: that governor's replay has no such entry in the row
    EntryRecord a, b;             ///< each governor's entry (inputs and decision)
    /// tick_nohz_tick_stopped() at each governor's select (an earlier entry of the row stopped it).
    bool tickStoppedA = false, tickStoppedB = false;
};

struct GovernorDiff {
    std::vector<EntryDifference> first; ///< the first differences, in stream order
    std::int64_t differingEntries = 0;  ///< entries that differ (or exist in one replay only)
    std::int64_t differingSpans = 0;    ///< stream rows with at least one such entry
    ReplaySummary a, b;
};

/// Two entries decide alike: the same state and the same stop_tick.
bool sameDecision(const EntryRecord &a, const EntryRecord &b);

/**
 * Replays @p stream through @p a and @p b (each prepared for it with the same
 * @p latencyLimitNs, see prepareGovernor()) and keeps the first @p keep
 * differences. @p latencyLimitNs >= 0 replaces every span's latency limit
 * (ReferenceReplay).
 */
GovernorDiff diffGovernors(const IdleStateTable &table, const IdleStream &stream, Governor &a, Governor &b,
                           std::size_t keep, Ns latencyLimitNs = NO_LATENCY_REQ);

} // namespace idlescope
