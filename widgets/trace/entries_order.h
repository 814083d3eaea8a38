// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file entries_order.h
 * The rows of the entries list (entries_model.h) as plain work that any thread
 * may do: the entries of one run that pass a filter, in the order of one
 * column. A pass over ten million entries and their sort take seconds of CPU,
 * so the model runs this on a worker; the work looks at a cancel flag between
 * chunks and says how far it has come (per mille), so that a newer request
 * stops it and the window shows a progress bar meanwhile.
 */
#pragma once

#include "core/replay/entry_end.h"
#include "core/replay/governor_run.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace idlescope {

// What ended an entry (EntryEnd, entryEnd(), entryEndName()) is core's: core/replay/entry_end.h.

struct EntryFilter {
    std::uint8_t missMask = 0; ///< ENTRY_ABOVE and/or ENTRY_BELOW: only those misses; 0 = every entry
    int state = -1;            ///< only this state, -1 any
    Ns minResidencyNs = -1;    ///< residency >= this, -1 no bound
    Ns maxResidencyNs = -1;    ///< residency <= this, -1 no bound
    int end = -1;              ///< only this EntryEnd, -1 any

    bool passesAll() const { return missMask == 0 && state < 0 && minResidencyNs < 0 && maxResidencyNs < 0 && end < 0; }
    bool operator==(const EntryFilter &) const = default;
};

/// The columns the list sorts by (EntriesModel::Column has the same values).
enum class EntryKey { Time, Cpu, State, Residency, Prediction, Miss, End };

/// Where the work stands, written by the worker, read by the GUI thread.
struct EntryOrderProgress {
    std::atomic<bool> cancel{false};
    std::atomic<int> perMille{0};
};

/**
 * The entries of @p run that pass @p filter, sorted by @p key (ascending or
 * not); ties in entry order, reversed when descending. Time and CPU are entry
 * order. Nothing when @p progress's cancel flag was raised before the end. The rows are
 * written into @p storage (its old contents dropped, its capacity reused: fresh pages
 * for 10 M rows cost more than the filter pass itself).
 */
std::optional<std::vector<std::uint32_t>> orderedEntries(const GovernorRun &run, const EntryFilter &filter,
                                                         EntryKey key, bool ascending, EntryOrderProgress *progress,
                                                         std::vector<std::uint32_t> storage = {});

} // namespace idlescope
