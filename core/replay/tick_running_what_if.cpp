// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/replay/tick_running_what_if.h"

#include "core/source_governor/source_governor.h"

#include <algorithm>
#include <optional>

namespace idlescope {

namespace {

/// Passes every call to the governor it wraps, except that its select
/// number @p target is asked with the tick running instead.
class TickRunningAt final : public Governor {
public:
    TickRunningAt(Governor &inner, std::int64_t target) : m_inner(inner), m_target(target) {}

    const VariantInfo &variant() const override { return m_inner.variant(); }
    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override { m_inner.enable(drv, dev); }
    void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) override
    {
        m_inner.reflect(drv, dev, index);
    }
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override
    {
        if (m_selects++ != m_target)
            return m_inner.select(drv, dev, ctx);
        wasStopped = ctx.tickStopped;
        SelectContext running = ctx;
        running.tickStopped = false;
        // The tick fires at multiples of TICK_NSEC, as in the replay.
        const Ns toTick = ctx.tickNsec - ctx.nowNs % ctx.tickNsec;
        running.deltaNextNs = std::min(toTick, ctx.sleepLengthNs);
        const Selection sel = m_inner.select(drv, dev, running);
        whatIf = sel;
        reasoning = m_inner.reasoning();
        return sel;
    }

    bool wasStopped = false;
    std::optional<Selection> whatIf;
    Reasoning reasoning;

private:
    Governor &m_inner;
    std::int64_t m_target;
    std::int64_t m_selects = 0;
};

} // namespace

Result<EntryReasoning> reasoningWithTickRunning(const IdleStateTable &table, const IdleStream &stream,
                                                const std::string &variant, const std::vector<TunableSetting> &settings,
                                                std::int64_t index, Ns latencyLimitNs)
{
    if (isSourceGovernorId(variant))
        return Error{"", 0, "governor",
                     variant
                         + " is built from source: its host replays the stream on its own, so it cannot be "
                           "asked what it would have chosen with the tick running"};
    if (index < 0)
        return Error{"", 0, "entry", "negative entry index"};
    // The real entry, as reasoningAt() gives it.
    Result<EntryReasoning> real = reasoningAt(table, stream, variant, settings, index, latencyLimitNs);
    if (!real)
        return real.error();
    auto gov = makeConfiguredGovernor(variant, settings);
    if (!gov)
        return gov.error();
    TickRunningAt probe(**gov, index);
    ReferenceReplay replay(table, probe, latencyLimitNs);
    for (std::size_t i = 0; i < stream.size() && !probe.whatIf; ++i)
        replay.runSpans(stream, i, i + 1, [](const EntryRecord &, const Governor &) {});
    if (!probe.whatIf)
        return Error{"", 0, "entry", "entry " + std::to_string(index) + " is past the end of the run"};
    if (!probe.wasStopped)
        return Error{"", 0, "entry",
                     "entry " + std::to_string(index) + " was selected with the tick running: nothing to ask"};
    EntryReasoning out;
    out.entry = real->entry;
    out.selection = *probe.whatIf;
    out.reasoning = probe.reasoning;
    return out;
}

} // namespace idlescope
