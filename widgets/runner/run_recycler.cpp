// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/run_recycler.h"

#include <algorithm>
#include <utility>

namespace idlescope {

namespace {

bool smaller(const GovernorRun &a, const GovernorRun &b)
{
    return a.startNs.capacity() < b.startNs.capacity();
}

} // namespace

RunRecycler &RunRecycler::instance()
{
    static RunRecycler *r = new RunRecycler;
    return *r;
}

GovernorRun RunRecycler::take()
{
    QMutexLocker lock(&m_mutex);
    if (m_bin.empty())
        return {};
    auto largest = std::max_element(m_bin.begin(), m_bin.end(), smaller);
    GovernorRun out = std::move(*largest);
    m_bin.erase(largest);
    return out;
}

void RunRecycler::give(GovernorRun &&run)
{
    QMutexLocker lock(&m_mutex);
    if (m_bin.size() < KEEP) {
        m_bin.push_back(std::move(run));
        return;
    }
    // Full: keep the larger columns (a run of a longer stream serves any
    // shorter one). The smaller run goes back to the caller, who frees it.
    auto smallest = std::min_element(m_bin.begin(), m_bin.end(), smaller);
    if (smaller(*smallest, run))
        std::swap(*smallest, run);
}

void RunRecycler::prefill(std::size_t count, std::size_t capacity)
{
    for (;;) {
        std::vector<GovernorRun> tooSmall; // freed outside the lock
        {
            // Checked again before every spare: the snapshot that asked for
            // them lets go of the previous one's (smaller) runs meanwhile.
            QMutexLocker lock(&m_mutex);
            for (auto it = m_bin.begin(); it != m_bin.end();) {
                if (it->startNs.capacity() < capacity) {
                    tooSmall.push_back(std::move(*it));
                    it = m_bin.erase(it);
                } else {
                    ++it;
                }
            }
            if (m_bin.size() >= std::min(count, KEEP))
                return;
        }
        GovernorRun spare;
        const auto warm = [capacity](auto &column) {
            column.resize(capacity); // writes every page once
            column.clear();          // keeps the capacity
        };
        warm(spare.startNs);
        warm(spare.residencyNs);
        warm(spare.predictedNs);
        warm(spare.sleepLengthNs);
        warm(spare.span);
        warm(spare.state);
        warm(spare.flags);
        give(std::move(spare));
    }
}

std::vector<std::size_t> RunRecycler::capacities() const
{
    QMutexLocker lock(&m_mutex);
    std::vector<std::size_t> out;
    for (const GovernorRun &r : m_bin)
        out.push_back(r.startNs.capacity());
    std::sort(out.rbegin(), out.rend());
    return out;
}

GovernorResult::RunPtr RunRecycler::share(GovernorRun run)
{
    return GovernorResult::RunPtr(new GovernorRun(std::move(run)), [](const GovernorRun *r) {
        instance().give(std::move(*const_cast<GovernorRun *>(r))); // created non-const above
        delete r;
    });
}

} // namespace idlescope
