// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/run_counts.h"

#include <algorithm>
#include <cmath>

namespace idlescope {

std::int64_t PrefixCounts::totalAbove() const
{
    std::int64_t n = 0;
    for (std::int64_t a : above)
        n += a;
    return n;
}

std::int64_t PrefixCounts::totalBelow() const
{
    std::int64_t n = 0;
    for (std::int64_t b : below)
        n += b;
    return n;
}

double PrefixCounts::missRatio() const
{
    return entries == 0 ? 0.0 : static_cast<double>(totalAbove() + totalBelow()) / static_cast<double>(entries);
}

namespace {

void addEntry(PrefixCounts &c, const GovernorRun &run, std::size_t i)
{
    const auto s = static_cast<std::size_t>(run.state[i]);
    c.entries += 1;
    c.usage[s] += 1;
    c.timeNs[s] += run.residencyNs[i];
    c.above[s] += run.has(i, ENTRY_ABOVE) ? 1 : 0;
    c.below[s] += run.has(i, ENTRY_BELOW) ? 1 : 0;
}

} // namespace

RunCounts::RunCounts(const GovernorRun &run)
{
    Builder b(run.size());
    b.add(run, 0, run.size());
    *this = b.finish();
}

RunCounts::Builder::Builder(std::size_t expectedEntries) : m_data(std::make_shared<Data>())
{
    m_data->missesThrough.reserve(expectedEntries);
    m_data->checkpoints.reserve(expectedEntries / CHUNK + 2);
}

void RunCounts::Builder::add(const GovernorRun &run, std::size_t begin, std::size_t end)
{
    Data &d = *m_data;
    d.missesThrough.resize(end);
    PrefixCounts &c = m_totals;
    std::uint32_t misses = m_misses;
    for (std::size_t i = begin; i < end; ++i) {
        if (i % CHUNK == 0)
            d.checkpoints.push_back(c);
        addEntry(c, run, i);
        misses += (run.flags[i] & (ENTRY_ABOVE | ENTRY_BELOW)) ? 1u : 0u;
        d.missesThrough[i] = misses;
    }
    m_misses = misses;
}

RunCounts RunCounts::Builder::finish()
{
    if (m_data->missesThrough.size() % CHUNK == 0)
        m_data->checkpoints.push_back(m_totals); // so upTo(n) needs no scan
    RunCounts out;
    out.m_data = std::move(m_data);
    return out;
}

PrefixCounts RunCounts::upTo(const GovernorRun &run, std::size_t end) const
{
    if (!m_data)
        return {};
    end = std::min({end, run.size(), m_data->missesThrough.size()});
    const std::size_t k = end / CHUNK;
    PrefixCounts c = m_data->checkpoints[k];
    for (std::size_t i = k * CHUNK; i < end; ++i)
        addEntry(c, run, i);
    return c;
}

int DurationBins::binOf(Ns d)
{
    if (d <= MIN_NS)
        return 0;
    const double b = std::log10(static_cast<double>(d) / static_cast<double>(MIN_NS)) * BINS_PER_DECADE;
    return std::clamp(static_cast<int>(b), 0, COUNT - 1);
}

double DurationBins::lowerEdge(int b)
{
    return static_cast<double>(MIN_NS) * std::pow(10.0, static_cast<double>(b) / BINS_PER_DECADE);
}

DurationHistogram::DurationHistogram(const IdleStream &stream)
{
    auto d = std::make_shared<Data>();
    d->bins.resize(stream.size());
    d->checkpoints.reserve(stream.size() / CHUNK + 2);
    Counts c{};
    for (std::size_t i = 0; i < stream.size(); ++i) {
        if (i % CHUNK == 0)
            d->checkpoints.push_back(c);
        const int b = DurationBins::binOf(stream[i].wakeNs);
        d->bins[i] = static_cast<std::uint8_t>(b);
        c[static_cast<std::size_t>(b)] += 1;
    }
    if (stream.size() % CHUNK == 0)
        d->checkpoints.push_back(c);
    m_data = std::move(d);
}

DurationHistogram::Counts DurationHistogram::upTo(std::size_t end) const
{
    if (!m_data)
        return Counts{};
    end = std::min(end, m_data->bins.size());
    const std::size_t k = end / CHUNK;
    Counts c = m_data->checkpoints[k];
    for (std::size_t i = k * CHUNK; i < end; ++i)
        c[m_data->bins[i]] += 1;
    return c;
}

} // namespace idlescope
