// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file job_progress.h
 * How far a snapshot's build has come (buildSnapshot()), written by the
 * worker and read by the GUI thread while it runs.
 */
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace idlescope {

/// How far a job has come, written by the worker and read by the GUI thread while it runs:
/// the governors it replays afresh, and for each the spans replayed so far of its stream.
/// Filled in once the stream is built (before that, no governor is listed).
class JobProgress {
public:
    struct Governor {
        std::string variant;
        double fraction = 0; ///< 0..1 of its stream replayed
    };
    /// The state now (empty while the workload is being built).
    std::vector<Governor> snapshot() const;

    /// Worker side: the runs of @p variants, @p totalSpans each.
    void begin(std::vector<std::string> variants, std::int64_t totalSpans);
    /// Worker side: run @p index has @p spansLeft left.
    void update(std::size_t index, std::int64_t spansLeft);

private:
    std::atomic<bool> m_ready{false};
    std::vector<std::string> m_variants;
    std::unique_ptr<std::atomic<std::int64_t>[]> m_done;
    std::int64_t m_total = 1;
};

} // namespace idlescope
