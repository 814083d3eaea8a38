// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scripted_governor.h
 * A governor for hand-worked tests: it makes the decisions it is given, so
 * that every number of a test follows from the replay (or the loop) alone.
 */
#pragma once

#include "core/governors/governor.h"

#include <vector>

namespace idlescope {

/// Returns the scripted (state, stop_tick) pairs in turn and notes what it
/// was given: each select's context, and at each reflect what
/// tick_nohz_idle_got_tick() says (it reads and clears the sticky flag).
class ScriptedGovernor final : public Governor {
public:
    explicit ScriptedGovernor(std::vector<Selection> script) : m_script(std::move(script)) {}

    const VariantInfo &variant() const override { return kInfo; }
    void enable(const IdleStateTable &, CpuidleDevice &) override {}
    Selection select(const IdleStateTable &, CpuidleDevice &, const SelectContext &ctx) override
    {
        contexts.push_back(ctx);
        return m_script.at(contexts.size() - 1);
    }
    void reflect(const IdleStateTable &, CpuidleDevice &dev, int) override
    {
        gotTicks.push_back(dev.tickNohzIdleGotTick());
        pollTimeLimits.push_back(dev.pollTimeLimit);
    }

    std::vector<SelectContext> contexts;
    std::vector<bool> gotTicks;
    std::vector<bool> pollTimeLimits;

private:
    static constexpr VariantInfo kInfo{"scripted",          "test", "", {}, "decisions from a script",
                                       PollTimeRule::V5_11, false};
    std::vector<Selection> m_script;
};

} // namespace idlescope
