// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file run_counts.h
 * Per-state totals of a GovernorRun over any prefix of its entries — usage,
 * above, below and residency time, the columns of the kernel's
 * cpuidle_state_usage — at O(CHUNK) cost per query, so that playback can
 * show "the counts so far" at every frame of a million-entry run. A
 * checkpoint of the running totals is kept every CHUNK entries (the
 * per-chunk summaries of the aesthetics guide, item 10), plus the running
 * miss count per entry for the cumulative idle-miss ratio.
 *
 * Also: a log-binned histogram of span idle durations with the same prefix
 * queries. Plain C++, no Qt.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/replay/governor_run.h"
#include "core/stream/idle_span.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace idlescope {

/// Totals of entries [0, end): per-state usage/above/below/time, as in ReplaySummary.
struct PrefixCounts {
    std::int64_t entries = 0;
    std::array<std::int64_t, CPUIDLE_STATE_MAX> usage{};
    std::array<std::int64_t, CPUIDLE_STATE_MAX> above{};
    std::array<std::int64_t, CPUIDLE_STATE_MAX> below{};
    std::array<Ns, CPUIDLE_STATE_MAX> timeNs{};

    std::int64_t totalAbove() const;
    std::int64_t totalBelow() const;
    /// (above + below) / entries, 0 for no entries (the kernel threads' "idle miss ratio").
    double missRatio() const;
};

class RunCounts {
    struct Data;

public:
    static constexpr std::size_t CHUNK = 4096;

    RunCounts() = default;
    /// Builds checkpoints and the running miss column of @p run. O(n).
    explicit RunCounts(const GovernorRun &run);

    /// The same, built range by range while a run grows (runGovernor()'s
    /// observer), so that each batch is counted while it is still in cache.
    class Builder {
    public:
        /// @p expectedEntries only sizes the buffers.
        explicit Builder(std::size_t expectedEntries);
        /// Entries [begin, end) of @p run; ranges must follow each other from 0.
        void add(const GovernorRun &run, std::size_t begin, std::size_t end);
        /// Misses among entries [0, i] for an entry already added.
        std::uint32_t missesThrough(std::size_t i) const { return m_data->missesThrough[i]; }
        /// The counts of the entries added; the builder is spent.
        RunCounts finish();

    private:
        std::shared_ptr<Data> m_data;
        PrefixCounts m_totals;
        std::uint32_t m_misses = 0;
    };

    /// Totals of entries [0, end) of @p run (the run this was built from); end is clamped.
    PrefixCounts upTo(const GovernorRun &run, std::size_t end) const;

    /// Misses (above + below) among entries [0, i], i.e. including entry i.
    std::uint32_t missesThrough(std::size_t i) const { return m_data->missesThrough[i]; }
    std::size_t size() const { return m_data ? m_data->missesThrough.size() : 0; }

private:
    struct Data {
        std::vector<PrefixCounts> checkpoints; ///< [k] = totals of entries [0, k * CHUNK)
        std::vector<std::uint32_t> missesThrough;
    };
    /// Immutable once built: copies of a RunCounts share it.
    std::shared_ptr<const Data> m_data;
};

/// Log-spaced histogram bins for durations: BINS_PER_DECADE per decade from MIN_NS up.
struct DurationBins {
    static constexpr Ns MIN_NS = 100; ///< lower edge of bin 0 (shorter ones go to bin 0)
    static constexpr int BINS_PER_DECADE = 5;
    static constexpr int DECADES = 9; ///< 100 ns .. 100 s
    static constexpr int COUNT = BINS_PER_DECADE * DECADES;

    /// Bin of a duration, clamped to [0, COUNT - 1].
    static int binOf(Ns d);
    /// Lower edge of bin @p b (ns, as double for plotting); lowerEdge(COUNT) is the top edge.
    static double lowerEdge(int b);
};

/// Histogram of span idle durations (IdleSpan::wakeNs) over any prefix of the spans.
class DurationHistogram {
public:
    static constexpr std::size_t CHUNK = 4096;
    using Counts = std::array<std::int64_t, DurationBins::COUNT>;

    DurationHistogram() = default;
    explicit DurationHistogram(const IdleStream &stream);

    /// Counts of spans [0, end).
    Counts upTo(std::size_t end) const;
    std::size_t size() const { return m_data ? m_data->bins.size() : 0; }

private:
    struct Data {
        std::vector<std::uint8_t> bins;
        std::vector<Counts> checkpoints;
    };
    /// Immutable once built: copies share it.
    std::shared_ptr<const Data> m_data;
};

} // namespace idlescope
