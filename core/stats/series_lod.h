// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file series_lod.h
 * Level-of-detail summaries of a run's columns for plotting: the entries are
 * cut into chunks of CHUNK consecutive entries and each chunk keeps what a
 * pixel column needs — first/min/max/last (with their times) of a value
 * series, or the shallowest/deepest/first/last state, the transitions and
 * the time per state of a state series. A pixel column that spans many
 * chunks then merges their summaries and scans only its two partial chunks,
 * with a result identical to scanning every entry (the chunk min/max keep
 * the earliest extreme, as a scan does). The per-chunk min/max metadata of
 * the aesthetics guide (item 10), built once per run on the worker.
 *
 * Plain C++, no Qt. Copies share the (immutable) chunk vector.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace idlescope {

/// One kept point: time and value, in time order.
struct DecimatedPoint {
    Ns t = 0;
    double v = 0.0;
};

/// Running first/min/max/last of a value series (ties keep the earliest extreme).
struct ValueSummary {
    DecimatedPoint first, min, max, last;
    bool any = false;

    void add(Ns t, double v)
    {
        if (!any) {
            first = min = max = last = DecimatedPoint{t, v};
            any = true;
            return;
        }
        if (v < min.v)
            min = {t, v};
        if (v > max.v)
            max = {t, v};
        last = {t, v};
    }
    /// Append a later summary.
    void merge(const ValueSummary &o)
    {
        if (!o.any)
            return;
        if (!any) {
            *this = o;
            return;
        }
        if (o.min.v < min.v)
            min = o.min;
        if (o.max.v > max.v)
            max = o.max;
        last = o.last;
    }
};

/// Running summary of a state series.
struct StateSummary {
    int first = -1, last = -1, min = -1, max = -1;
    std::int32_t transitions = 0;
    std::array<Ns, CPUIDLE_STATE_MAX> weight{};

    void add(int s, Ns w)
    {
        if (first < 0) {
            first = last = min = max = s;
        } else {
            transitions += s != last;
            last = s;
            min = s < min ? s : min;
            max = s > max ? s : max;
        }
        weight[static_cast<std::size_t>(s)] += w;
    }
    void merge(const StateSummary &o)
    {
        if (o.first < 0)
            return;
        if (first < 0) {
            *this = o;
            return;
        }
        transitions += o.transitions + (o.first != last);
        last = o.last;
        min = o.min < min ? o.min : min;
        max = o.max > max ? o.max : max;
        for (std::size_t s = 0; s < weight.size(); ++s)
            weight[s] += o.weight[s];
    }
};

namespace detail {

/// What ValueLod and StateLod share: the summaries of chunks of CHUNK entries, shared
/// read-only once made.
template <typename Summary>
class ChunkedLod {
public:
    static constexpr std::size_t CHUNK = 64;

    bool empty() const { return !m_chunks; }
    std::size_t chunkCount() const { return m_chunks ? m_chunks->size() : 0; }
    const Summary &chunk(std::size_t c) const { return (*m_chunks)[c]; }

protected:
    template <typename, typename>
    friend class ChunkedLodBuilder;
    std::shared_ptr<const std::vector<Summary>> m_chunks;
};

/// What ValueLod::Builder and StateLod::Builder share: the summaries grown as the series
/// grows, then handed to a @p Lod.
template <typename Lod, typename Summary>
class ChunkedLodBuilder {
public:
    explicit ChunkedLodBuilder(std::size_t expectedEntries) { m_chunks->reserve(expectedEntries / Lod::CHUNK + 1); }
    void grow(std::size_t n) { m_chunks->resize((n + Lod::CHUNK - 1) / Lod::CHUNK); }
    /// The summary of the chunk holding entry i (to fill a whole chunk in registers).
    Summary &chunkOf(std::size_t i) { return (*m_chunks)[i / Lod::CHUNK]; }
    /// The summaries of entries [0, n); the builder is spent.
    Lod finish(std::size_t n)
    {
        grow(n);
        Lod out;
        static_cast<ChunkedLod<Summary> &>(out).m_chunks = std::move(m_chunks);
        return out;
    }

private:
    std::shared_ptr<std::vector<Summary>> m_chunks = std::make_shared<std::vector<Summary>>();
};

} // namespace detail

/// Chunk summaries of a value series.
class ValueLod : public detail::ChunkedLod<ValueSummary> {
public:
    ValueLod() = default;
    /// Summarises entries [0, keys.size()); valueAt(i) -> number, keep(i) -> bool.
    template <typename ValueAt, typename Keep>
    ValueLod(std::span<const Ns> keys, ValueAt &&valueAt, Keep &&keep)
    {
        auto chunks = std::make_shared<std::vector<ValueSummary>>((keys.size() + CHUNK - 1) / CHUNK);
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keep(i))
                (*chunks)[i / CHUNK].add(keys[i], static_cast<double>(valueAt(i)));
        m_chunks = std::move(chunks);
    }

    /// The same summaries built while the series grows: grow(n) before
    /// add() of entries below n, entries in index order (skipping the ones
    /// not kept), finish(n) gives the ValueLod of entries [0, n).
    class Builder : public detail::ChunkedLodBuilder<ValueLod, ValueSummary> {
    public:
        using ChunkedLodBuilder::ChunkedLodBuilder;
        void add(std::size_t i, Ns t, double v) { chunkOf(i).add(t, v); }
    };
};

/// Chunk summaries of a state series weighted by durations (empty = weight 1).
class StateLod : public detail::ChunkedLod<StateSummary> {
public:
    StateLod() = default;
    StateLod(std::span<const std::int8_t> states, std::span<const Ns> durations);

    /// The same summaries built while the series grows (as ValueLod::Builder;
    /// every entry is added, in index order).
    class Builder : public detail::ChunkedLodBuilder<StateLod, StateSummary> {
    public:
        using ChunkedLodBuilder::ChunkedLodBuilder;
        /// Entry i: state @p s (clamped as the constructor does), weight @p w (negative counts 0).
        void add(std::size_t i, int s, Ns w) { chunkOf(i).add(clampState(s), w < 0 ? 0 : w); }
    };

    /// A state index as the summaries hold it: clamped to [0, CPUIDLE_STATE_MAX - 1].
    static int clampState(int s) { return s < 0 ? 0 : (s > CPUIDLE_STATE_MAX - 1 ? CPUIDLE_STATE_MAX - 1 : s); }
};

} // namespace idlescope
