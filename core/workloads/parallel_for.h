// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file parallel_for.h
 * A minimal worker pool for independent runs: calls fn(i) for i in [0, count)
 * on up to @p threads std::threads (the calling thread is one of them), each
 * taking the next index from a shared counter. Results must go to slots owned
 * by the index, so the output does not depend on scheduling.
 */
#pragma once

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace idlescope::workloads {

/// Returns the threads that ran (the calling one included): fewer than asked when the
/// system refused to start more (std::system_error: no memory for a stack, a process
/// limit), in which case the runs went on, on those.
template <typename Fn>
int parallelFor(int count, int threads, Fn &&fn)
{
    std::atomic<int> next{0};
    auto worker = [&] {
        for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1))
            fn(i);
    };
    const int extra = std::max(0, std::min(threads, count) - 1);
    std::vector<std::thread> pool;
    pool.reserve(static_cast<size_t>(extra));
    for (int t = 0; t < extra; ++t) {
        try {
            pool.emplace_back(worker);
        } catch (const std::system_error &) {
            break; // the work is shared out by the counter: the threads started do all of it
        }
    }
    worker();
    for (std::thread &t : pool)
        t.join();
    return static_cast<int>(pool.size()) + 1;
}

} // namespace idlescope::workloads
