// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file run_recycler.h
 * Column memory of runs that no snapshot holds any more, kept for the next
 * re-simulation: writing a million-entry run (~40 MB) into pages that are
 * already mapped saves the page faults of fresh memory, which cost about a
 * third of the replay itself on a virtual machine (three to four times the
 * whole re-simulation when every page is new). A few runs at most, the
 * largest ones.
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

#include <QMutex>

#include <cstddef>
#include <vector>

namespace idlescope {

class RunRecycler {
public:
    /// Spare runs kept at most.
    static constexpr std::size_t KEEP = 4;

    /// The process's recycler (never destroyed: a snapshot released during
    /// static destruction still finds it).
    static RunRecycler &instance();

    /// A spare run with the largest columns (moved out), or an empty run.
    GovernorRun take();
    /// A finished run whose columns may serve again: kept while fewer than
    /// KEEP are, or in place of the smallest kept one if its columns are larger.
    void give(GovernorRun &&run);
    /// Adds spare runs until @p count (at most KEEP) have room for @p capacity
    /// entries, each with that much column memory faulted in (written once);
    /// spare runs too small for it are let go. Checked before every spare, so
    /// that smaller runs given back meanwhile are let go too.
    void prefill(std::size_t count, std::size_t capacity);
    /// The column capacities (entries) of the spare runs, largest first (tests, measurements).
    std::vector<std::size_t> capacities() const;

    /// The shared handle a snapshot holds for @p run; when the last snapshot
    /// lets go of it, its columns come back to instance() (moved: O(1), on
    /// whichever thread).
    static GovernorResult::RunPtr share(GovernorRun run);

private:
    mutable QMutex m_mutex;
    std::vector<GovernorRun> m_bin;
};

} // namespace idlescope
