// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/entries_order.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <utility>

namespace idlescope {

namespace {

/// Entries between two looks at the cancel flag in the filter pass.
constexpr std::size_t FILTER_CHUNK = 1 << 20;
/// The sort is done as this many sorted runs merged pairwise: a look at the
/// cancel flag and a progress step after each, at the cost of a few merges.
constexpr std::size_t SORT_PIECES = 16;

/// Progress milestones (per mille) at the end of each phase.
constexpr int FILTERED = 200;
constexpr int KEYED = 300;
constexpr int PIECES_SORTED = 800;

bool cancelled(const EntryOrderProgress *p)
{
    return p && p->cancel.load(std::memory_order_relaxed);
}

void report(EntryOrderProgress *p, int perMille)
{
    if (p)
        p->perMille.store(perMille, std::memory_order_relaxed);
}

bool passes(const GovernorRun &r, const EntryFilter &f, std::size_t i)
{
    const EntryFlags flags = r.flags[i];
    if (f.missMask && !(flags & f.missMask))
        return false;
    if (f.state >= 0 && r.state[i] != f.state)
        return false;
    const Ns res = r.residencyNs[i];
    if ((f.minResidencyNs >= 0 && res < f.minResidencyNs) || (f.maxResidencyNs >= 0 && res > f.maxResidencyNs))
        return false;
    return f.end < 0 || static_cast<int>(entryEnd(flags)) == f.end;
}

std::int64_t keyOf(const GovernorRun &r, EntryKey key, std::uint32_t i)
{
    switch (key) {
    case EntryKey::State: return r.state[i];
    case EntryKey::Residency: return r.residencyNs[i];
    case EntryKey::Prediction: return r.predictedNs[i];
    case EntryKey::Miss: return r.has(i, ENTRY_ABOVE) ? 2 : r.has(i, ENTRY_BELOW) ? 1 : 0;
    case EntryKey::End: return static_cast<std::int64_t>(entryEnd(r.flags[i]));
    case EntryKey::Time:
    case EntryKey::Cpu: break;
    }
    return i;
}

using Keyed = std::pair<std::int64_t, std::uint32_t>;

/// Sorts @p keyed in SORT_PIECES pieces, then merges them; false when cancelled.
template <typename Less>
bool sortInPieces(std::vector<Keyed> &keyed, Less less, EntryOrderProgress *progress)
{
    const std::size_t n = keyed.size();
    const std::size_t piece = std::max<std::size_t>(1, (n + SORT_PIECES - 1) / SORT_PIECES);
    for (std::size_t p = 0; p * piece < n; ++p) {
        if (cancelled(progress))
            return false;
        std::sort(keyed.begin() + std::ptrdiff_t(p * piece),
                  keyed.begin() + std::ptrdiff_t(std::min(n, (p + 1) * piece)), less);
        report(progress, KEYED + int((PIECES_SORTED - KEYED) * (p + 1) * piece / std::max<std::size_t>(1, n)));
    }
    int pass = 0;
    for (std::size_t width = piece; width < n; width *= 2, ++pass) {
        for (std::size_t lo = 0; lo + width < n; lo += 2 * width) {
            if (cancelled(progress))
                return false;
            const auto first = keyed.begin() + std::ptrdiff_t(lo);
            std::inplace_merge(first, first + std::ptrdiff_t(width),
                               keyed.begin() + std::ptrdiff_t(std::min(n, lo + 2 * width)), less);
        }
        // Four passes merge the sixteen pieces.
        report(progress, std::min(990, PIECES_SORTED + 50 * (pass + 1)));
    }
    return true;
}

} // namespace

std::optional<std::vector<std::uint32_t>> orderedEntries(const GovernorRun &r, const EntryFilter &filter, EntryKey key,
                                                         bool ascending, EntryOrderProgress *progress,
                                                         std::vector<std::uint32_t> storage)
{
    const std::size_t n = r.size();
    std::vector<std::uint32_t> rows = std::move(storage);
    rows.clear();
    if (filter.passesAll()) {
        rows.resize(n);
        std::iota(rows.begin(), rows.end(), std::uint32_t(0));
    } else {
        for (std::size_t lo = 0; lo < n; lo += FILTER_CHUNK) {
            if (cancelled(progress))
                return std::nullopt;
            const std::size_t hi = std::min(n, lo + FILTER_CHUNK);
            for (std::size_t i = lo; i < hi; ++i)
                if (passes(r, filter, i))
                    rows.push_back(static_cast<std::uint32_t>(i));
            report(progress, int(FILTERED * hi / n));
        }
    }
    report(progress, KEYED);
    if (key == EntryKey::Time || key == EntryKey::Cpu) { // entry order: the rows already are
        if (!ascending)
            std::reverse(rows.begin(), rows.end());
        report(progress, 1000);
        return rows;
    }
    // Each key read once, in row order, then (key, entry) pairs sorted in one array: a
    // comparison that read the run's columns at two random entries took 10 s of CPU for
    // 10 M rows (bench/bench_entries_gui.cpp), the pairs about a tenth of it.
    std::vector<Keyed> keyed(rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k)
        keyed[k] = {keyOf(r, key, rows[k]), rows[k]};
    if (cancelled(progress))
        return std::nullopt;
    const bool sorted =
        ascending ? sortInPieces(keyed, std::less<>(), progress) : sortInPieces(keyed, std::greater<>(), progress);
    if (!sorted)
        return std::nullopt;
    for (std::size_t k = 0; k < rows.size(); ++k)
        rows[k] = keyed[k].second;
    report(progress, 1000);
    return rows;
}

} // namespace idlescope
