// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file summarised_run.h
 * A GovernorRun with its prefix counts (run_counts.h) and plot summaries
 * (run_lod.h) built in the same pass: every batch of entries the replay
 * appends is counted and summarised at once, while it is still in cache,
 * instead of streaming the finished columns (tens of MB per million
 * entries) through memory twice more. The results are identical to
 * RunCounts(run) and RunLod(run, counts) (tst_summarised_run).
 */
#pragma once

#include "core/replay/governor_run.h"
#include "core/stats/run_counts.h"
#include "core/stats/run_lod.h"

#include <memory>

namespace idlescope {

struct SummarisedRun {
    GovernorRun run;
    RunCounts counts; ///< = RunCounts(run)
    RunLod lod;       ///< = RunLod(run, counts)
    /// Every entry was RunOptions::base's: the run has no columns and counts and lod are
    /// empty; the base's entries and their summaries are this run's.
    bool repeatedBase = false;
};

/// runGovernorSummarised() in steps, as GovernorRunBuilder is runGovernor() in steps.
class SummarisedRunBuilder {
public:
    /// GovernorRunBuilder::start(); options.observe is the builder's own (whatever is set there is not called).
    static Result<SummarisedRunBuilder> start(const IdleStateTable &table, const IdleStream &stream,
                                              const std::string &variant, RunOptions options = {});
    SummarisedRunBuilder(SummarisedRunBuilder &&) noexcept;
    SummarisedRunBuilder &operator=(SummarisedRunBuilder &&) noexcept;
    ~SummarisedRunBuilder();

    /// GovernorRunBuilder::advance(), the new entries summarised on the way.
    bool advance(std::size_t spans);
    std::size_t spansLeft() const;
    /// The run and its summaries, once advance() returned true; the builder is
    /// spent. An Error as GovernorRunBuilder::take()'s.
    Result<SummarisedRun> take();

private:
    struct State;
    explicit SummarisedRunBuilder(std::unique_ptr<State> state);
    std::unique_ptr<State> m_state;
};

/// runGovernor() (same arguments, errors, cancellation, column storage reuse and span clock) plus the
/// summaries, which are made on the times the run keeps; options.observe as in SummarisedRunBuilder::start().
Result<SummarisedRun> runGovernorSummarised(const IdleStateTable &table, const IdleStream &stream,
                                            const std::string &variant, const RunOptions &options = {});

} // namespace idlescope
