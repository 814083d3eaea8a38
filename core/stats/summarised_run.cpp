// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/summarised_run.h"

#include <algorithm>
#include <optional>

namespace idlescope {

namespace {

/// What RunCounts(run) and RunLod(run, counts) compute, batch by batch.
class SummaryBuilder {
public:
    explicit SummaryBuilder(std::size_t expected)
        : m_counts(expected), m_predicted(expected), m_residency(expected), m_missRatio(expected), m_states(expected)
    {
    }

    void add(const GovernorRun &run, std::size_t begin, std::size_t end)
    {
        m_counts.add(run, begin, end);
        m_predicted.grow(end);
        m_residency.grow(end);
        m_missRatio.grow(end);
        m_states.grow(end);
        // Chunk by chunk, each chunk's summaries in locals (registers) rather
        // than read and written back through memory at every entry.
        static_assert(ValueLod::CHUNK == StateLod::CHUNK);
        constexpr std::size_t CHUNK = ValueLod::CHUNK;
        for (std::size_t a = begin; a < end;) {
            const std::size_t b = std::min(end, (a / CHUNK + 1) * CHUNK);
            ValueSummary predictedSum = m_predicted.chunkOf(a);
            ValueSummary residencySum = m_residency.chunkOf(a);
            ValueSummary missSum = m_missRatio.chunkOf(a);
            StateSummary states = m_states.chunkOf(a);
            for (std::size_t i = a; i < b; ++i) {
                const Ns t = run.startNs[i];
                const Ns predicted = run.predictedNs[i];
                const Ns residency = run.residencyNs[i];
                if (predicted > 0)
                    predictedSum.add(t, static_cast<double>(predicted));
                if (residency > 0)
                    residencySum.add(t, static_cast<double>(residency));
                // missRatioPercent(counts, i), from the builder's running column.
                missSum.add(t, 100.0 * m_counts.missesThrough(i) / static_cast<double>(i + 1));
                states.add(StateLod::clampState(run.state[i]), residency < 0 ? 0 : residency);
            }
            m_predicted.chunkOf(a) = predictedSum;
            m_residency.chunkOf(a) = residencySum;
            m_missRatio.chunkOf(a) = missSum;
            m_states.chunkOf(a) = states;
            a = b;
        }
    }

    void finish(SummarisedRun &out)
    {
        const std::size_t n = out.run.size();
        out.counts = m_counts.finish();
        out.lod.predicted = m_predicted.finish(n);
        out.lod.residency = m_residency.finish(n);
        out.lod.missRatio = m_missRatio.finish(n);
        out.lod.states = m_states.finish(n);
    }

private:
    RunCounts::Builder m_counts;
    ValueLod::Builder m_predicted, m_residency, m_missRatio;
    StateLod::Builder m_states;
};

} // namespace

struct SummarisedRunBuilder::State {
    explicit State(std::size_t expected)
        : summaries(expected),
          observe([this](const GovernorRun &r, std::size_t begin, std::size_t end) { summaries.add(r, begin, end); })
    {
    }
    SummaryBuilder summaries;
    RunObserver observe; // refers to summaries: the state stays where it is made
    std::optional<GovernorRunBuilder> run;
};

SummarisedRunBuilder::SummarisedRunBuilder(std::unique_ptr<State> state) : m_state(std::move(state)) {}
SummarisedRunBuilder::SummarisedRunBuilder(SummarisedRunBuilder &&) noexcept = default;
SummarisedRunBuilder &SummarisedRunBuilder::operator=(SummarisedRunBuilder &&) noexcept = default;
SummarisedRunBuilder::~SummarisedRunBuilder() = default;

Result<SummarisedRunBuilder> SummarisedRunBuilder::start(const IdleStateTable &table, const IdleStream &stream,
                                                         const std::string &variant, RunOptions options)
{
    auto state = std::make_unique<State>(stream.size() + stream.size() / 4 + 16);
    options.observe = &state->observe;
    auto run = GovernorRunBuilder::start(table, stream, variant, options);
    if (!run)
        return run.error();
    state->run.emplace(std::move(*run));
    return SummarisedRunBuilder(std::move(state));
}

bool SummarisedRunBuilder::advance(std::size_t spans)
{
    return m_state->run->advance(spans);
}

std::size_t SummarisedRunBuilder::spansLeft() const
{
    return m_state->run->spansLeft();
}

Result<SummarisedRun> SummarisedRunBuilder::take()
{
    const bool repeated = m_state->run->repeatedBase();
    Result<GovernorRun> run = m_state->run->take();
    if (!run)
        return run.error();
    SummarisedRun out;
    out.run = std::move(*run);
    out.repeatedBase = repeated;
    if (!repeated)
        m_state->summaries.finish(out);
    return out;
}

Result<SummarisedRun> runGovernorSummarised(const IdleStateTable &table, const IdleStream &stream,
                                            const std::string &variant, const RunOptions &options)
{
    return runToEnd(SummarisedRunBuilder::start(table, stream, variant, options), options.cancel);
}

} // namespace idlescope
