// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file teo_governor.h
 * The timer events oriented (teo) governor of drivers/cpuidle/governors/teo.c
 * after Rafael Wysocki's June 2021 rework (v5.14) up to v7.1: per-state bins
 * of decayed "hits" and "intercepts", an optional ring of recent intercepts,
 * and the later tick and short-idle statistics.
 *
 * One class reproduces every version; what differs between versions is a
 * TeoOptions value (one per variant id, see teoVariants()). With the kernel
 * default tunables every variant decides exactly as its kernel file.
 *
 * The pre-2021 teo (v5.13 and older) is a separate family
 * (teo_legacy_governor.cpp).
 */
#pragma once

#include "core/governors/governor.h"
#include "core/governors/tunable_check.h"

#include <array>
#include <cstdint>
#include <optional>

namespace idlescope {

namespace teo {
/// Added to a metric when it grows (teo.c PULSE).
inline constexpr std::int64_t PULSE = 1024;
/// Metrics lose metric >> DECAY_SHIFT at every update (teo.c DECAY_SHIFT).
inline constexpr std::int64_t DECAY_SHIFT = 3;
/// Recent intercepts remembered by v5.14–v6.10 (teo.c NR_RECENT).
inline constexpr std::int64_t NR_RECENT = 9;
/// The largest NR_RECENT the fixed-size ring accepts.
inline constexpr int NR_RECENT_MAX = 64;
/// v6.3–v6.10: utilized means util > capacity >> UTIL_THRESHOLD_SHIFT.
inline constexpr std::int64_t UTIL_THRESHOLD_SHIFT = 6;
/// SCHED_CAPACITY_SCALE: the capacity sched_cpu_util() is measured against.
inline constexpr std::int64_t SCHED_CAPACITY_SCALE = 1024;
/// v6.14+: exit latency limit below which the sleep length is not queried.
inline constexpr Ns LATENCY_THRESHOLD_NS = RESIDENCY_THRESHOLD_NS / 2;
} // namespace teo

/**
 * What one teo version does, as named choices. Each field names the kernel
 * change that introduced the behaviour; teoVariants() pairs one value with
 * each variant id.
 */
struct TeoOptions {
    /// When tick_nohz_get_sleep_length() is called.
    enum class SleepLengthQuery : std::uint8_t {
        /// v5.14–v6.5: at the start of every select; the candidate is the deepest
        /// state within the sleep length, and the intercept walk sets the expected
        /// duration to the middle of the chosen bin (teo_middle_of_bin()).
        Upfront,
        /// v6.6+ ("Do not call tick_nohz_get_sleep_length() upfront"): after the
        /// intercept walk and the latency cap, unless a skip rule applies.
        AfterCandidate,
    };
    /// When the v6.6+ query is skipped (the tick is then kept).
    enum class QuerySkip : std::uint8_t {
        Never,            ///< v5.14: always queried
        ShallowCandidate, ///< v6.6–v6.13: candidate 0, or TR < RESIDENCY_THRESHOLD_NS with a polling state 0
        ShortIdles,       ///< v6.14+: shallow candidate and (short idles dominate or tight latency limit)
    };
    /// How teo_update() decides that a wakeup tells nothing about the idle duration.
    enum class SafetyNet : std::uint8_t {
        TimeSpan,         ///< v5.14–v6.10: time_span_ns >= sleep_length_ns (incl. poll limit / tick)
        ArtificialWakeup, ///< v6.14–v6.18: poll time limit, or a tick with sleep length > TICK_NSEC
        PollLimitOnly,    ///< v6.19+: only the poll time limit (tick wakeups have their own rule)
    };
    /// How the grand total of events is kept.
    enum class Total : std::uint8_t {
        SumOfBins, ///< recomputed: decayed hits + intercepts of all bins, plus PULSE
        Decayed,   ///< v6.14–v6.18: decayed on its own (total -= total >> DECAY_SHIFT; += PULSE)
    };
    /// Which tick statistics exist and how they are counted.
    enum class TickStats : std::uint8_t {
        None,                    ///< v5.14
        TickHitsBin,             ///< v6.6–v6.10: a hits-only bin beyond the last state, intercept sum in select
        InterceptsAtOrAboveTick, ///< v6.14–v6.18: tick_intercepts counts intercepts with measured >= TICK_NSEC
        InterceptsAtOrBelowTick, ///< v6.19+ ("Fix tick_intercepts handling"): measured <= TICK_NSEC
    };
    /// The threshold that keeps the tick for frequent tick-range intercepts.
    enum class TickRule : std::uint8_t {
        None,        ///< v5.14
        FiveEighths, ///< v6.6–v6.19: intercepts > total/2 + total/8
        TwoThirds,   ///< v7.0 ("Refine tick_intercepts vs total events check"): 3 * intercepts >= 2 * total
    };
    /// How a wakeup by the tick is treated.
    enum class TickWakeups : std::uint8_t {
        SafetyNet,      ///< up to v6.18: a tick with sleep length > TICK_NSEC counts as a long sleep
        TotalTick,      ///< v6.19: total_tick; when ticks dominate, a hit on the deepest bin
        TotalTickOrHit, ///< v7.0: also a hit on the timer bin when tick-range intercepts are rare
    };
    /// How the intercepts-based lookup walks down from the candidate.
    enum class InterceptWalk : std::uint8_t {
        FirstSuitable,       ///< v5.14–v6.18: first majority state, else the first suitable deeper one
        MinIdx,              ///< v6.19 ("Simplify intercepts-based state lookup"): down to min_idx
        MinIdxMaxIntercepts, ///< v7.0: also not above the bin with the most intercepts, no zero-size bins
    };

    SleepLengthQuery query = SleepLengthQuery::AfterCandidate;
    QuerySkip skip = QuerySkip::ShortIdles;
    SafetyNet safetyNet = SafetyNet::PollLimitOnly;
    Total total = Total::SumOfBins;
    TickStats tickStats = TickStats::InterceptsAtOrBelowTick;
    TickRule tickRule = TickRule::FiveEighths;
    TickWakeups tickWakeups = TickWakeups::TotalTick;
    InterceptWalk walk = InterceptWalk::MinIdx;
    bool recentIntercepts = false;       ///< v5.14–v6.10: NR_RECENT ring and the alt_recent rule
    bool utilAwareness = false;          ///< v6.3–v6.10: sched_cpu_util() against capacity >> 6
    bool shortIdles = false;             ///< v6.14+: the short_idles metric
    bool stateOkAfterShallower = false;  ///< v6.6–v6.18: a state found below the sleep length must be teo_state_ok()
    bool decayToZero = false;            ///< v6.19+ teo_decay(): metrics below 1 << DECAY_SHIFT drop to 0
    bool hitNeedsTimerProximity = false; ///< v7.0: a hit also needs sleep_length - measured < EL/2
    bool singleStateInCore = false;      ///< v7.0: the core answers for a one-state driver (0, tick kept)
    /// v7.1 "Rearrange stopped tick handling": no min_idx in the intercepts
    /// walk; with the tick stopped the sleep length is always read, and a
    /// timer beyond SAFE_TIMER_RANGE_NS moves a sub-tick choice to the
    /// deepest state within the latency limit that fits it.
    bool safeTimerRange = false;

    friend constexpr bool operator==(const TeoOptions &, const TeoOptions &) = default;
};

/**
 * teo for one CPU. select()/reflect() never allocate; reasoning() holds a
 * TeoReasoning filled at every select (unless keepReasoning(false)).
 * Tunables (kernel defaults): PULSE, DECAY_SHIFT, and where the version has
 * them NR_RECENT, UTIL_THRESHOLD_SHIFT,
 * RESIDENCY_THRESHOLD_NS, LATENCY_THRESHOLD_NS. A tunable changed after
 * enable() takes effect at once; NR_RECENT restarts the recent ring.
 */
class TeoGovernor final : public TableTunableGovernor<TeoGovernor> {
public:
    TeoGovernor(const VariantInfo &v, const TeoOptions &options);

    const VariantInfo &variant() const override { return m_variant; }
    const TeoOptions &options() const { return m_opt; }

    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override;
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override;
    void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) override;

    std::span<const TunableInfo> tunables() const override;

    /// struct teo_bin: the metrics of one bin (unsigned int, wrapping as in C).
    struct Bin {
        std::uint32_t intercepts = 0;
        std::uint32_t hits = 0;
        std::uint32_t recent = 0; ///< v5.14–v6.10 only
    };

    /// The decayed statistics of struct teo_cpu (unsigned int each, as in C).
    struct Metrics {
        std::array<std::uint32_t, CPUIDLE_STATE_MAX> intercepts{};
        std::array<std::uint32_t, CPUIDLE_STATE_MAX> hits{};
        std::array<std::uint32_t, CPUIDLE_STATE_MAX> recent{}; ///< v5.14–v6.10 only
        std::uint32_t total = 0;
        std::uint32_t tickIntercepts = 0; ///< v6.14+
        std::uint32_t shortIdles = 0;     ///< v6.14+
        std::uint32_t totalTick = 0;      ///< v6.19+
        std::uint32_t tickHits = 0;       ///< v6.6–v6.10
    };
    /// Seed the statistics (an inspector's "what if", or a test's starting
    /// point). The recent ring, saved sleep length and wakeup flags are kept.
    void setMetrics(const Metrics &m);

    /// The per-CPU data (struct teo_cpu), for tests and inspectors.
    Bin bin(int i) const
    {
        const auto k = static_cast<size_t>(i);
        return Bin{m_intercepts[k], m_hits[k], m_recent[k]};
    }
    std::uint32_t total() const { return m_total; }
    std::uint32_t tickIntercepts() const { return m_tickIntercepts; }
    std::uint32_t shortIdles() const { return m_shortIdles; }
    std::uint32_t totalTick() const { return m_totalTick; }
    Ns sleepLengthNs() const { return m_sleepLengthNs; }

private:
    // The algorithm, written once. P supplies the options: a compile-time
    // constant for the six kernel option sets (so the compiler drops the
    // branches a version does not take) or m_opt for any other TeoOptions.
    // One function per step of the prose in teo_governor.cpp, shared there
    // or in the header of the version family that owns it (teo_v5_14.h,
    // teo_v6_6.h, teo_v6_19.h); the structs they pass are in teo_steps.h.
    struct Measured;
    struct Bins;
    struct Notes;
    struct Choice;
    struct Candidate;
    struct TickChoice;

    friend class TableTunableGovernor<TeoGovernor>;
    /// The tunables of all versions; tunables() lists a version's own.
    static std::span<const TunableRow<TeoGovernor>> tunableRows();

    template <class P>
    Selection selectWith(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx);
    template <class P>
    void reflectWith(const IdleStateTable &drv, CpuidleDevice &dev, int index);
    template <class P>
    void bind();

    // teo_update(); notes what it did in @p st and returns measured_ns.
    template <class P>
    Ns updateWith(const IdleStateTable &drv, CpuidleDevice &dev, int n, TeoSteps &st);
    template <class P>
    Measured measuredWith(const IdleStateTable &drv, CpuidleDevice &dev, int n);
    template <class P>
    Bins decayBinsWith(const IdleStateTable &drv, int n, Ns measuredNs);
    int advanceRecentRing();
    Bins tickBin(const IdleStateTable &drv, int n, Ns measuredNs, Bins b);
    template <class P>
    bool tickWakeupWith(int n, const Bins &b, TeoSteps &st);
    template <class P>
    void countWakeupWith(const Measured &m, const Bins &b, int slot, TeoSteps &st);

    // teo_select(): v5.14's flow and the v6.6+ one over the same steps.
    template <class P>
    Choice selectUpfrontWith(const IdleStateTable &drv, const SelectContext &ctx, Notes &notes);
    template <class P>
    Choice selectDeferredWith(const IdleStateTable &drv, const SelectContext &ctx, Notes &notes);
    Choice querySleepLength(const SelectContext &ctx, Choice ch, Notes &notes);
    Choice stoppedTickTimerRule(const IdleStateTable &drv, Choice ch, Notes &notes);
    std::optional<Choice> utilizedTwoStates(const IdleStateTable &drv, const SelectContext &ctx, int first, Choice ch,
                                            Notes &notes);
    template <class P>
    Candidate candidateWith(const IdleStateTable &drv, const SelectContext &ctx, int first, Ns durationNs,
                            Notes &notes);
    template <class P>
    Choice shallowerWith(const IdleStateTable &drv, const SelectContext &ctx, const Candidate &cand, Choice ch,
                         Notes &notes);
    template <class P>
    Choice interceptsRuleWith(const IdleStateTable &drv, const SelectContext &ctx, const Candidate &cand, Choice ch,
                              Notes &notes);
    template <class P>
    Choice walkFirstSuitableWith(const IdleStateTable &drv, const SelectContext &ctx, const Candidate &cand, Choice ch,
                                 bool altRecent, bool altIntercepts);
    int walkMinIdx(const IdleStateTable &drv, const SelectContext &ctx, const Candidate &cand, bool trackMax,
                   Notes &notes);
    template <class P>
    Choice sleepLengthStepWith(const IdleStateTable &drv, const SelectContext &ctx, Choice ch, Notes &notes);
    template <class P>
    bool skipQueryWith(const IdleStateTable &drv, const SelectContext &ctx, int idx) const;
    template <class P>
    bool tickInterceptsRuleWith(std::uint32_t tickInterceptSum) const;
    TickChoice tickDecision(const IdleStateTable &drv, const SelectContext &ctx, const Choice &ch, Notes &notes);
    template <class P>
    void recordWith(const SelectContext &ctx, int n, const Choice &ch, const TickChoice &t, Notes &notes);

    std::uint32_t decayed(std::uint32_t m, bool toZero) const;
    bool stateOk(const IdleStateTable &drv, int i, bool tickStopped) const;
    static int findShallowerState(const IdleStateTable &drv, int stateIdx, Ns durationNs, bool noPoll);

    using SelectFn = Selection (TeoGovernor::*)(const IdleStateTable &, CpuidleDevice &, const SelectContext &);
    using ReflectFn = void (TeoGovernor::*)(const IdleStateTable &, CpuidleDevice &, int);

    const VariantInfo &m_variant;
    const TeoOptions m_opt;
    SelectFn m_selectFn = nullptr;
    ReflectFn m_reflectFn = nullptr;

    // struct teo_cpu (the union of all versions' fields).
    // state_bins[] stored as three arrays (same values), so that copying them
    // into the reasoning record is three block copies.
    std::array<std::uint32_t, CPUIDLE_STATE_MAX> m_intercepts{};
    std::array<std::uint32_t, CPUIDLE_STATE_MAX> m_hits{};
    std::array<std::uint32_t, CPUIDLE_STATE_MAX> m_recent{};
    std::uint32_t m_total = 0;
    std::uint32_t m_tickIntercepts = 0;
    std::uint32_t m_shortIdles = 0;
    std::uint32_t m_totalTick = 0;
    std::uint32_t m_tickHits = 0;
    Ns m_sleepLengthNs = 0;
    Ns m_timeSpanNs = 0;
    bool m_artificialWakeup = false;
    bool m_tickWakeup = false;
    int m_nextRecentIdx = 0;
    std::array<std::int8_t, teo::NR_RECENT_MAX> m_recentIdx{};
    Ns m_tickNsec = 0;

    // Tunables.
    std::uint32_t m_pulse = teo::PULSE;
    int m_decayShift = teo::DECAY_SHIFT;
    int m_nrRecent = teo::NR_RECENT;
    int m_utilShift = teo::UTIL_THRESHOLD_SHIFT;
    Ns m_residencyThresholdNs = RESIDENCY_THRESHOLD_NS;
    Ns m_latencyThresholdNs = teo::LATENCY_THRESHOLD_NS;
};

} // namespace idlescope
