// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file entry_detail.h
 * Everything the episode inspector shows about one idle entry, computed
 * without widgets (so it can run on a worker thread and be tested): the
 * entry's inputs and what ended it, the governor's reasoning record and its
 * sentences, the oracle's choice for the same entry, and what a miss cost.
 *
 * The oracle's choice is made on this entry's own inputs (its time to the
 * wakeup and latency limit) by the oracle governor, not read from the
 * snapshot's oracle run: the two runs split spans into entries differently
 * (ticks, polling limits), so the oracle run's entry with the same index is
 * generally a different moment. The oracle keeps no history, so this is
 * exactly the choice it would make here.
 */
#pragma once

#include "core/common/error.h"
#include "core/governors/reasoning.h"
#include "core/replay/entry_end.h"
#include "core/replay/governor_run.h"
#include "widgets/runner/simulation_snapshot.h"

#include <string>
#include <vector>

namespace idlescope {

/// What ended an idle entry: core's EntryEnd (core/replay/entry_end.h), the entries list's words.
using WakeCause = EntryEnd;

/// "wakeup: a wakeup announced by no timer (IPI or device interrupt): a task was woken": the
/// entries list's word for @p c, then what it means.
std::string wakeCauseText(WakeCause c);

/// What a miss cost (all ns; zero for entries that are not misses).
struct MissCost {
    bool above = false;
    bool below = false;
    int chosenIdx = 0;
    /// above: the shallower state that would have been right (the oracle's
    /// choice when it is shallower, else the first enabled shallower state);
    /// below: the deeper state that would have paid off (the oracle's choice
    /// when it is deeper, else the first enabled deeper state); -1 otherwise.
    int betterIdx = -1;
    Ns residencyNs = 0;         ///< measured residency (time in the chosen state)
    Ns exitLatencyPaidNs = 0;   ///< exit latency of the chosen state
    Ns wastedExitLatencyNs = 0; ///< above: exit latency paid beyond betterIdx's
    Ns shortOfTargetNs = 0;     ///< above: target residency of the chosen state minus the residency
    Ns missedDeeperNs = 0;      ///< below: idle time that could have been spent in betterIdx
                                ///< (residency minus both states' exit latencies, >= 0)
};

/// The cost of entry @p rec in @p table, given the oracle's state for it.
MissCost computeMissCost(const IdleStateTable &table, const EntryRecord &rec, int oracleIdx);

struct EntryDetail {
    int governorIndex = -1;
    std::int64_t entryIndex = -1;
    std::string variant;
    std::string name;    ///< the governor's name in the views (GovernorResult::displayName())
    EntryRecord entry;   ///< inputs and outcome (startNs as the replay's `now`)
    Reasoning reasoning; ///< the governor's record for this select
    Selection selection;
    std::vector<std::string> sentences; ///< explainReasoning() (µs; first select when entryIndex is 0)
    std::string expectation;            ///< expectationSentence(): the Decision line's family-specific words
    WakeCause cause = WakeCause::Other;
    bool spanTimerWake = false; ///< the span ended at its timer
    Ns spanTimerNs = 0;         ///< the span's timer_ns (from span start)
    Ns spanWakeNs = 0;          ///< the span's wake_ns (from span start)
    /// Where the plots draw the entry: its run's startNs, on the workload's clock (the trace's
    /// time since its first event, or the stream's); the replay's own `now` is entry.startNs.
    Ns axisNs = 0;
    OracleReasoning oracle; ///< the oracle's choice for this entry's inputs
    std::vector<std::string> oracleSentences;
    MissCost cost;
    /// Selected with the tick already stopped (after an in-idle wakeup): what the
    /// governor would have chosen with it running (reasoningWithTickRunning()),
    /// -1 when the tick was running or the governor cannot be asked (built from source).
    int tickRunningIdx = -1;
    bool tickRunningStopTick = false;
    std::vector<std::string> tickRunningSentences;
};

/// What ended @p rec, from the marks the replay left on it.
WakeCause wakeCause(const EntryRecord &rec);

/// The oracle's choice for an entry with these inputs (stateless, exact).
OracleReasoning oracleChoice(const IdleStateTable &table, const EntryRecord &rec);

/**
 * Builds the detail of entry @p entryIndex of run @p governorIndex of @p snap
 * (re-runs the governor up to that entry: O(entryIndex)). Errors: indices out
 * of range, or the run cannot be re-created.
 */
Result<EntryDetail> computeEntryDetail(const SimulationSnapshot &snap, int governorIndex, std::int64_t entryIndex);

/// Index of the next (@p forward) or previous entry after/before @p from in
/// @p run whose flags contain any of @p mask (ENTRY_ABOVE, ENTRY_BELOW or
/// both), or -1. @p from may be -1 (search from the start / the end).
std::int64_t findMiss(const GovernorRun &run, std::int64_t from, bool forward, std::uint8_t mask);

} // namespace idlescope
