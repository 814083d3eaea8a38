// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/job_progress.h"

#include <algorithm>

namespace idlescope {

std::vector<JobProgress::Governor> JobProgress::snapshot() const
{
    std::vector<Governor> out;
    if (!m_ready.load(std::memory_order_acquire)) // the list is written once, before m_ready
        return out;
    for (std::size_t i = 0; i < m_variants.size(); ++i)
        out.push_back({m_variants[i],
                       static_cast<double>(m_done[i].load(std::memory_order_relaxed)) / static_cast<double>(m_total)});
    return out;
}

void JobProgress::begin(std::vector<std::string> variants, std::int64_t totalSpans)
{
    m_variants = std::move(variants);
    m_done = std::make_unique<std::atomic<std::int64_t>[]>(m_variants.size());
    m_total = std::max<std::int64_t>(1, totalSpans);
    m_ready.store(true, std::memory_order_release);
}

void JobProgress::update(std::size_t index, std::int64_t spansLeft)
{
    m_done[index].store(m_total - spansLeft, std::memory_order_relaxed);
}

} // namespace idlescope
