// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The governor tests' shared rig: the reference table they compute by hand
 * on, and one governor driven entry by entry, with every select() input and
 * every flag cpuidle_enter_state() leaves for reflect() named. Each test file
 * wraps it in the few calls its hand computations use.
 */
#pragma once

#include "core/replay/governor_factory.h"
#include "core/states/idle_state_table.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace idlescope::test {

/// A table of the test's own: @p states (shallow to deep) at @p tickHz, named @p id.
inline IdleStateTable makeTable(std::string id, int tickHz, std::vector<IdleState> states)
{
    IdleStateTable t;
    t.id = std::move(id);
    t.tickHz = tickHz;
    t.states = std::move(states);
    return t;
}

/// intel-skx's POLL, C1, C1E and C6 (exit latency / target residency 0/0, 2/2, 10/20 and
/// 133/600 us) at 250 Hz: the table most hand computations use.
inline IdleStateTable skxLike()
{
    IdleStateTable t;
    t.id = "skx-like";
    t.tickHz = 250;
    t.states = {{.name = "POLL", .polling = true},
                {.name = "C1", .exitLatencyNs = 2000, .targetResidencyNs = 2000},
                {.name = "C1E", .exitLatencyNs = 10000, .targetResidencyNs = 20000},
                {.name = "C6", .exitLatencyNs = 133000, .targetResidencyNs = 600000}};
    return t;
}

/// What select() is given (SelectContext), by name.
struct SelectInputs {
    Ns sleepLengthNs = 5000 * NSEC_PER_USEC;     ///< tick_nohz_get_sleep_length()
    Ns deltaNextNs = -1;                         ///< its delta_next; -1: the sleep length
    Ns latencyReqNs = PM_QOS_DEFAULT_LATENCY_NS; ///< cpuidle_governor_latency_req()
    bool tickStopped = false;                    ///< tick_nohz_tick_stopped()
    int util = 0;                                ///< sched_cpu_util()
    Ns nowNs = NSEC_PER_SEC;                     ///< local_clock()
};

/// What one idle entry leaves for reflect(), as the kernel leaves it: the measured residency;
/// poll_idle() writes poll_time_limit afresh when the entered state polls (other states leave
/// it alone); a tick that fires sets got_idle_tick, which stays set until a governor reads it.
struct EntryResult {
    Ns residencyNs = 0;         ///< dev->last_residency_ns
    bool pollTimeLimit = false; ///< dev->poll_time_limit: the polling state hit its limit
    bool gotTick = false;       ///< ts->got_idle_tick: a tick fired during the entry
};

struct GovernorRig {
    IdleStateTable drv;
    CpuidleDevice dev; ///< zeroed, last_state_idx 0, as in the reference replay
    std::unique_ptr<Governor> gov;

    GovernorRig(const char *variant, IdleStateTable table) : drv(std::move(table)), gov(createGovernor(variant))
    {
        if (gov)
            gov->enable(drv, dev);
    }

    Selection select(const SelectInputs &in = {})
    {
        SelectContext c;
        c.nowNs = in.nowNs;
        c.sleepLengthNs = in.sleepLengthNs;
        c.deltaNextNs = in.deltaNextNs >= 0 ? in.deltaNextNs : in.sleepLengthNs;
        c.latencyReqNs = in.latencyReqNs;
        c.tickNsec = drv.tickNsec();
        c.tickStopped = in.tickStopped;
        c.util = in.util;
        return gov->select(drv, dev, c);
    }

    void reflect(int index, const EntryResult &entry)
    {
        dev.lastResidencyNs = entry.residencyNs;
        if (index >= 0 && index < drv.count() && drv[index].polling)
            dev.pollTimeLimit = entry.pollTimeLimit;
        if (entry.gotTick)
            dev.gotTickFlag = true;
        gov->reflect(drv, dev, index);
    }

    template <typename Reasoning>
    const Reasoning &why() const
    {
        return std::get<Reasoning>(gov->reasoning());
    }

    /// Every tunable as "NAME=VALUE", in tunables() order, joined by ", ".
    std::string tunableValues() const
    {
        std::string out;
        for (const TunableInfo &t : gov->tunables())
            out += (out.empty() ? "" : ", ") + std::string(t.name) + "=" + std::to_string(gov->tunable(t.name));
        return out;
    }

    /// What setTunable() says when it refuses @p value for @p name; "" when it accepts (and sets) it.
    std::string refusal(std::string_view name, std::int64_t value)
    {
        std::string err;
        return gov->setTunable(name, value, &err) ? std::string() : err;
    }
};

} // namespace idlescope::test
