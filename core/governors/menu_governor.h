// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file menu_governor.h
 * The menu cpuidle governor (drivers/cpuidle/governors/menu.c) from v5.10 to
 * v7.1 and the posted patches around it: one implementation, with each
 * kernel version's differences as named options (MenuOptions). The variant
 * ids and what each reproduces are listed by menuVariants() (registry.h),
 * their option sets in menu_variants.cpp; menu_governor.cpp's opening prose
 * says where each version's steps are.
 */
#pragma once

#include "core/governors/governor.h"
#include "core/governors/menu_typical_interval.h"
#include "core/governors/tunable_check.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace idlescope {

/// The differences between menu.c versions that change decisions.
struct MenuOptions {
    /// Which get_typical_interval() (see menu_typical_interval.h).
    MenuTypicalAlgo typical = MenuTypicalAlgo::G2;
    /// menu-5 / v6.15–v6.17: return the maximum of >= INTERVALS/2 remaining samples.
    bool maxOfRemaining = false;
    /// v6.6+ ("Skip tick_nohz_get_sleep_length() call in some cases"): the
    /// typical interval comes first and the timer is queried only when it is
    /// above RESIDENCY_THRESHOLD_NS. False: v5.x–v6.5, timer first, and the
    /// G1 detector gets the timer prediction as its argument.
    bool typicalFirst = true;
    /// v5.13+ ("Take negative sleep length values into account"): clamp a
    /// negative sleep length to 0 and use next_timer_ns (not delta_next) when
    /// the tick is stopped. False: v5.5–v5.12.
    bool clampNegativeSleep = true;
    /// BUCKETS: 12 before v6.13 (second half for iowaiters, unused since
    /// nr_iowait_cpu() is 0 here), 6 from v6.13 ("Remove iowait influence").
    int buckets = 6;
    /// v6.17-rc2 "Avoid using invalid recent intervals data": a select that
    /// finds no update pending and last_residency_ns == 0 records UINT_MAX.
    bool invalidIntervalsFix = false;
    /// v6.17-rc3 "Avoid selecting states with too much latency": the exit
    /// latency check comes first in the state loop, and latency_req is no
    /// longer lowered to predicted_ns.
    bool latencyFirst = false;
    /// The "first non-polling state" override exists (false: Aboorva
    /// Devarajan's v1/v2 patch that deletes it).
    bool pollingOverride = true;
    /// Override guard EL(i) <= latency_req (up to v6.17-rc2; redundant after).
    bool overrideNeedsLatency = true;
    /// Override guard EL(i) <= predicted_ns (v6.18-rc4 "Select polling state in some more cases").
    bool overrideNeedsExitLatencyWithinPrediction = false;
    /// Override guard TR(i) < RESIDENCY_THRESHOLD_NS (v6.19; posted v3 "menu-resthresh").
    bool overrideNeedsResidencyThreshold = false;
    /// v7.0-rc1 "Always check timers with tick stopped": query the timer also
    /// when the tick is stopped, and do the stopped-tick replacement there.
    bool alwaysQueryWhenTickStopped = false;
    /// v7.0-rc1: menu_select() no longer handles a single-state driver; the
    /// core skips the governor (returns state 0, tick kept) instead.
    bool coreHandlesSingleState = false;
    /// After v7.0 ("Refine stopped tick handling"): keep a short prediction
    /// with the tick stopped when the next timer is within SAFE_TIMER_RANGE_NS.
    bool safeTimerRange = false;
};

/// The menu options of a variant id, or nullptr for an id that is not menu's.
const MenuOptions *menuOptionsFor(std::string_view id);

/**
 * menu for one CPU. select()/reflect() follow the kernel's menu_select() and
 * menu_reflect(); menu_update() runs lazily at the start of the next select.
 * Tunables: INTERVALS (1..64, default 8), STDDEV_RATIO (1..1000, 6),
 * STDDEV_MAX_US (0..1000000, 20) and, for v6.6+ forms, RESIDENCY_THRESHOLD_NS
 * (0..100000000, 15000). Changing INTERVALS empties the interval ring, as a
 * rebuilt kernel would start. Not copyable (the reasoning record is filled
 * in place through a pointer into the base class).
 */
class MenuGovernor final : public TableTunableGovernor<MenuGovernor> {
public:
    MenuGovernor(const VariantInfo &v, const MenuOptions &o);
    MenuGovernor(const MenuGovernor &) = delete;
    MenuGovernor &operator=(const MenuGovernor &) = delete;

    const VariantInfo &variant() const override { return m_variant; }
    const MenuOptions &options() const { return m_opt; }

    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override;
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override;
    void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) override;

    std::span<const TunableInfo> tunables() const override;
    bool setTunable(std::string_view name, std::int64_t value, std::string *error) override;

    /// The ring as the kernel holds it (index 0 first); for tests and viewers.
    std::span<const std::uint32_t> intervals() const { return {m_intervals.data(), size_t(m_intervalCount)}; }
    /// correction_factor[bucket] (8192 = 1.0).
    std::uint32_t correctionFactor(int bucket) const { return m_correction[size_t(bucket)]; }

private:
    /// Step 2's outcome: predicted_ns (u64 as in the kernel), delta_tick,
    /// and whether predicted_ns is known yet (v5.x: only after step 3).
    struct Prediction {
        std::uint64_t predictedNs;
        Ns deltaTickNs;
        bool known;
    };
    /// tick_nohz_get_sleep_length() and the corrected timer prediction.
    struct TimerQuery {
        std::uint32_t timerUs;
        Ns deltaTickNs;
    };
    /// Step 4's outcome: what the state loop plans for and its latency limit.
    struct Plan {
        std::uint64_t predictedNs;
        Ns latencyReqNs;
    };
    /// Steps 5–7: the state, predicted_ns as the loop leaves it, and whether
    /// menu_select() returned from inside the loop (step 6, tick stopped).
    struct LoopResult {
        int idx;
        Ns predictedNs;
        bool returned;
    };
    /// Step 8: the state and the value left in *stop_tick.
    struct TickChoice {
        int idx;
        bool stopTick;
    };

    friend class TableTunableGovernor<MenuGovernor>;
    /// The tunables: INTERVALS, STDDEV_RATIO, STDDEV_MAX_US, RESIDENCY_THRESHOLD_NS (v6.6+ only).
    static std::span<const TunableRow<MenuGovernor>> tunableRows();

    void update(const IdleStateTable &drv, const CpuidleDevice &dev, Ns tickNsec);
    std::uint64_t measuredNs(const IdleState &target, const CpuidleDevice &dev, Ns tickNsec) const;
    void appendInterval(std::uint32_t us);
    [[gnu::noinline]] static void shiftWindow(std::uint32_t *window, int n, std::uint32_t us);
    std::uint32_t typicalInterval(std::uint32_t predictedUs);
    void recordConfig();

    // menu_select(), one function per step of the prose.
    void startRecord(const SelectContext &ctx);
    Selection coreSingleState();
    void learn(const IdleStateTable &drv, const CpuidleDevice &dev, Ns tickNsec);
    TimerQuery queryTimer(const SelectContext &ctx);
    Prediction predictTypicalFirst(const SelectContext &ctx);
    // v5.5–v5.12 (menu_v5_10.h): the timer first, the typical interval after step 3.
    Prediction predictTimerFirst(const SelectContext &ctx);
    std::uint64_t typicalAfterTimer();
    // v7.0+ (menu_v7_0.h): the stopped tick rule, in step 2.
    std::uint64_t stoppedTickPrediction(std::uint64_t predicted, Ns tickNsec);
    bool state0Anyway(const IdleStateTable &drv, Ns latencyReq) const;
    Selection earlyState0(const IdleStateTable &drv, const Prediction &p, Ns latencyReq);
    Plan stoppedTickRule(std::uint64_t predicted, const SelectContext &ctx, Ns deltaTick);
    /// Steps 2 (v5.x: the typical interval) to 8, when step 3 did not return.
    /// Out of line: select() up to step 3, the path of every select in a run
    /// of polls under a latency limit, then needs no stack frame of its own.
    [[gnu::noinline]] Selection selectDeeper(const IdleStateTable &drv, const SelectContext &ctx, Prediction p);
    LoopResult stateLoop(const IdleStateTable &drv, const SelectContext &ctx, const Plan &plan, Ns deltaTick);
    LoopResult loopStop(LoopResult l, MenuReasoning::LoopEnd end, int stopIdx);
    LoopResult residencyStop(const IdleStateTable &drv, const SelectContext &ctx, LoopResult l, int i, Ns latencyReq,
                             Ns deltaTick);
    bool overrideAllowed(const IdleState &s, Ns predictedNs, Ns latencyReq, Ns residencyThreshold);
    TickChoice tickDecision(const IdleStateTable &drv, const SelectContext &ctx, const LoopResult &l, Ns deltaTick);
    int tickKeptDemotion(const IdleStateTable &drv, int idx, Ns deltaTick) const;
    bool trWithin(Ns targetResidency, Ns delta) const;

    const VariantInfo &m_variant;
    MenuOptions m_opt;
    // Points into Governor::m_reasoning. Its intervalsUs is also state: the
    // ring's samples oldest first, shifted on every append, which the
    // detector reads (no rotation, no re-reading of freshly written slots).
    MenuReasoning *m_rec;

    // struct menu_device
    bool m_needsUpdate = false;
    bool m_tickWakeup = false;
    std::uint64_t m_nextTimerNs = 0;
    int m_bucket = 0;
    std::array<std::uint32_t, 12> m_correction{};
    std::array<std::uint32_t, MENU_MAX_INTERVALS> m_intervals{};
    int m_intervalPtr = 0;

    // Tunables.
    int m_intervalCount = 8;
    std::int64_t m_stddevRatio = 6;
    std::int64_t m_stddevMaxUs = 20;
    Ns m_residencyThresholdNs = RESIDENCY_THRESHOLD_NS;
    MenuTypicalParams m_typicalParams;

    // The detector's last result, valid while the window holds the same
    // samples in any order (see typicalInterval()).
    MenuTypicalResult m_lastTypical;
    std::uint32_t m_lastTypicalPredictedUs = 0;
    bool m_lastTypicalValid = false;
};

} // namespace idlescope
