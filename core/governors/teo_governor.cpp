// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Mirrors drivers/cpuidle/governors/teo.c from Rafael Wysocki's June 2021
 * rework to Linux v7.0, one variant per kernel file (the conformance kit's
 * ../shared/conformance/VARIANTS.md lists them with their sources):
 *
 *   teo-5.14   v5.14–v6.2  (blob d9262db79cae)  bins with hits, intercepts and
 *              recent intercepts; the sleep length is queried up front.
 *   teo-6.10   v6.6–v6.10  (blob 7244f71c59c5)  + util-awareness (v6.3), the
 *              query after the candidate, a hits-only tick bin.
 *   teo-6.14   v6.14–v6.18 (blob 8fe5e1b47ef9)  short_idles, tick_intercepts,
 *              artificial wakeups, an independently decayed total.
 *   teo-6.19   v6.19       (blob 81ac5fd58a1c)  teo_decay(), total_tick,
 *              simplified intercepts walk.
 *   teo-latest v7.0        (blob bec0142377b8)  wakeup classification with
 *              EL/2 margin, the max-intercepts bin, 2/3 tick rule.
 *
 * Vocabulary. Bin i holds idle durations in [TR(i), TR(i+1)) (the last bin
 * is open-ended). After each wakeup teo_update() decays every metric by
 * metric >> DECAY_SHIFT and adds PULSE to one: "hits" of the bin of the
 * sleep length when the measured idle duration fell into the same bin (the
 * timer woke the CPU), else "intercepts" of the bin of the measured duration
 * (something woke it earlier). "total" is the grand total of events. The
 * "candidate" is the deepest enabled state (v5.14: within the sleep length).
 * "measured" is last_residency_ns minus half the exit latency (halved
 * instead when shorter than the exit latency).
 *
 * teo_update(), at the start of select() when an entry was reflected:
 *  1. measured := the maximum when a safety net fired (v5.14–v6.10: the
 *     entry lasted at least the saved sleep length, or it was ended by the
 *     poll limit or by a tick with sleep length > TICK_NSEC; v6.14–v6.18:
 *     poll limit or tick; v6.19+: poll limit only), else as above; v6.14+
 *     count short idles (measured < RESIDENCY_THRESHOLD_NS).
 *  2. Decay all bins, locate idx_timer (deepest TR <= sleep length) and
 *     idx_duration (deepest such TR <= measured too).
 *  3. v5.14–v6.10: advance the NR_RECENT ring, forgetting its oldest entry.
 *     v6.6–v6.10: with every TR < TICK_NSEC, a tick-long sleep is a "tick
 *     hit" in an extra bin. v6.19+: a tick wakeup adds to total_tick; when
 *     ticks dominate it is a hit on the deepest bin; v7.0: when tick-range
 *     intercepts are rare it is a hit on idx_timer.
 *  4. Hit or intercept (v7.0: a hit also needs sleep length - measured <
 *     EL/2); v6.14+ count tick-range intercepts.
 *  5. total := sum of decayed bins + PULSE (v6.14–v6.18: decayed on its own).
 *
 * teo_select():
 *  1. Update if needed. v5.14: query the sleep length now; with state 0
 *     enabled and TR(1) beyond it, take state 0. teo-6.10 with two states
 *     and a utilized CPU: the first non-polling state.
 *  2. Candidate: walk the enabled states summing the metrics of the bins
 *     below each; remember the deepest one within the latency limit.
 *     Only one enabled state: use it.
 *  3. If the intercepts below the candidate outweigh the hits and
 *     intercepts at and above it (v5.14–v6.10: or most recent intercepts
 *     lie below it), walk down to the deepest state whose bins hold the
 *     majority of those intercepts (see walkFirstSuitable / walkMinIdx).
 *  4. Latency cap; teo-6.10: utilized CPU, a shallower non-polling state.
 *  5. v6.6+: skip the sleep length query (keep the tick) for shallow
 *     candidates; else query it, and move to a state that fits it.
 *  6. Frequent tick-range intercepts: expect TICK_NSEC/2 (keeps the tick).
 *  7. Tick: stop it for a hardware state with duration >= TICK_NSEC (or
 *     when already stopped); else keep it and fit the state before the tick.
 *
 * teo_reflect(): up to v6.18, the poll time limit (then no tick query: the
 * C || short-circuit) or a tick wakeup with sleep length > TICK_NSEC marks
 * the wakeup as a safety net; v6.19+ always record tick_nohz_idle_got_tick().
 *
 * Kernel integer types are kept: metrics and sums are 32-bit unsigned and
 * wrap (teo-6.10's recent counts underflow, as in the kernel, when a tick
 * hit leaves a ring slot stale); times are s64; v7.0's sleep length minus
 * measured wraps as the kernel's -fno-strict-overflow build does.
 *
 * Implementation. select(), teo_update() and reflect() are written once, as
 * templates over an options provider: for the five kernel option sets the
 * options are compile-time constants, so each variant runs the same source
 * without the branches of the other versions (about twice as fast); any
 * other TeoOptions value runs it with run-time checks. The reasoning record
 * is written once at the end of select() from locals.
 *
 * Deviations: none in decisions. measured's "U64_MAX" (v5.14–v6.18) is held
 * as S64_MAX: it is only compared with non-negative values, where the two
 * agree. The replay gives last_residency_ns >= 0, so the u64 reading of a
 * negative residency is not modelled. For a one-state driver teo-latest
 * answers as the v7.0 core does (state 0, tick kept) and skips the update.
 */
#include "core/governors/teo_governor.h"

#include "core/governors/registry.h"

#include <iterator>
#include <memory>
#include <string>
#include <variant>

namespace idlescope {

namespace {

using O = TeoOptions;

/// One row per kernel file: what the variant reproduces and its options.
struct TeoVariant {
    VariantInfo info;
    TeoOptions options;
};

constexpr TeoVariant kVariants[] = {
    {{"teo-5.14", "teo", "v5.14–v6.2",
      "Timer events oriented: hit/intercept bins plus 9 recent intercepts, sleep length queried first",
      PollTimeRule::V5_11, false},
     {
         .query = O::SleepLengthQuery::Upfront,
         .skip = O::QuerySkip::Never,
         .safetyNet = O::SafetyNet::TimeSpan,
         .total = O::Total::SumOfBins,
         .tickStats = O::TickStats::None,
         .tickRule = O::TickRule::None,
         .tickWakeups = O::TickWakeups::SafetyNet,
         .walk = O::InterceptWalk::FirstSuitable,
         .recentIntercepts = true,
         .utilAwareness = false,
         .shortIdles = false,
         .stateOkAfterShallower = false,
         .decayToZero = false,
         .hitNeedsTimerProximity = false,
         .singleStateInCore = false,
     }},
    {{"teo-6.10", "teo", "v6.6–v6.10",
      "teo with util-awareness, the sleep length queried only for deep candidates, tick statistics",
      PollTimeRule::V5_11, false},
     {
         .query = O::SleepLengthQuery::AfterCandidate,
         .skip = O::QuerySkip::ShallowCandidate,
         .safetyNet = O::SafetyNet::TimeSpan,
         .total = O::Total::SumOfBins,
         .tickStats = O::TickStats::TickHitsBin,
         .tickRule = O::TickRule::FiveEighths,
         .tickWakeups = O::TickWakeups::SafetyNet,
         .walk = O::InterceptWalk::FirstSuitable,
         .recentIntercepts = true,
         .utilAwareness = true,
         .shortIdles = false,
         .stateOkAfterShallower = true,
         .decayToZero = false,
         .hitNeedsTimerProximity = false,
         .singleStateInCore = false,
     }},
    {{"teo-6.14", "teo", "v6.14–v6.18",
      "teo with short-idle and tick-intercept statistics; tick wakeups count as long sleeps",
      PollTimeRule::V5_11, false},
     {
         .query = O::SleepLengthQuery::AfterCandidate,
         .skip = O::QuerySkip::ShortIdles,
         .safetyNet = O::SafetyNet::ArtificialWakeup,
         .total = O::Total::Decayed,
         .tickStats = O::TickStats::InterceptsAtOrAboveTick,
         .tickRule = O::TickRule::FiveEighths,
         .tickWakeups = O::TickWakeups::SafetyNet,
         .walk = O::InterceptWalk::FirstSuitable,
         .recentIntercepts = false,
         .utilAwareness = false,
         .shortIdles = true,
         .stateOkAfterShallower = true,
         .decayToZero = false,
         .hitNeedsTimerProximity = false,
         .singleStateInCore = false,
     }},
    {{"teo-6.19", "teo", "v6.19",
      "teo with small metrics decaying to zero, tick-wakeup statistics, simpler intercepts walk",
      PollTimeRule::V5_11, false},
     {
         .query = O::SleepLengthQuery::AfterCandidate,
         .skip = O::QuerySkip::ShortIdles,
         .safetyNet = O::SafetyNet::PollLimitOnly,
         .total = O::Total::SumOfBins,
         .tickStats = O::TickStats::InterceptsAtOrBelowTick,
         .tickRule = O::TickRule::FiveEighths,
         .tickWakeups = O::TickWakeups::TotalTick,
         .walk = O::InterceptWalk::MinIdx,
         .recentIntercepts = false,
         .utilAwareness = false,
         .shortIdles = true,
         .stateOkAfterShallower = false,
         .decayToZero = true,
         .hitNeedsTimerProximity = false,
         .singleStateInCore = false,
     }},
    {{"teo-latest", "teo", "v7.0",
      "teo of v7.0: hits need the wakeup near the timer, walk bounded by the busiest intercepts bin",
      PollTimeRule::V5_11, true},
     {
         .query = O::SleepLengthQuery::AfterCandidate,
         .skip = O::QuerySkip::ShortIdles,
         .safetyNet = O::SafetyNet::PollLimitOnly,
         .total = O::Total::SumOfBins,
         .tickStats = O::TickStats::InterceptsAtOrBelowTick,
         .tickRule = O::TickRule::TwoThirds,
         .tickWakeups = O::TickWakeups::TotalTickOrHit,
         .walk = O::InterceptWalk::MinIdxMaxIntercepts,
         .recentIntercepts = false,
         .utilAwareness = false,
         .shortIdles = true,
         .stateOkAfterShallower = false,
         .decayToZero = true,
         .hitNeedsTimerProximity = true,
         .singleStateInCore = true,
     }},
};
constexpr auto kInfos = variantInfos(kVariants);

// Options providers for TeoGovernor's templates: a kernel option set known at
// compile time, or the governor's own m_opt read at run time.
template <int I>
struct KernelOptions {
    static constexpr TeoOptions get(const TeoOptions &) { return kVariants[I].options; }
};
struct RuntimeOptions {
    static TeoOptions get(const TeoOptions &o) { return o; }
};

constexpr TunableInfo kPulse = {"PULSE", "Added to a hits/intercepts metric for each classified wakeup",
                                "count", teo::PULSE, 1, 1 << 20};
constexpr TunableInfo kDecayShift = {"DECAY_SHIFT",
                                     "Every update removes metric >> DECAY_SHIFT (3: one eighth)", "shift",
                                     teo::DECAY_SHIFT, 1, 16};
constexpr TunableInfo kNrRecent = {"NR_RECENT",
                                   "Recent wakeups remembered for the recent-intercepts rule (restarts them)",
                                   "count", teo::NR_RECENT, 1, teo::NR_RECENT_MAX};
constexpr TunableInfo kUtilShift = {"UTIL_THRESHOLD_SHIFT",
                                    "The CPU counts as utilized above capacity (1024) >> this shift",
                                    "shift", teo::UTIL_THRESHOLD_SHIFT, 0, 10};
constexpr TunableInfo kResidencyThreshold = {
    "RESIDENCY_THRESHOLD_NS", "Idle durations below this are short; shallower candidates skip the timer query",
    "ns", RESIDENCY_THRESHOLD_NS, 0, NSEC_PER_SEC};
constexpr TunableInfo kLatencyThreshold = {
    "LATENCY_THRESHOLD_NS", "A latency limit below this skips the timer query for shallow candidates", "ns",
    teo::LATENCY_THRESHOLD_NS, 0, NSEC_PER_SEC};

constexpr TunableInfo kTunables514[] = {kPulse, kDecayShift, kNrRecent};
constexpr TunableInfo kTunables610[] = {kPulse, kDecayShift, kNrRecent, kUtilShift, kResidencyThreshold};
constexpr TunableInfo kTunables614[] = {kPulse, kDecayShift, kResidencyThreshold, kLatencyThreshold};

/// The original record fields select() decides on the way (TeoSteps holds the rest).
struct Picked {
    std::uint32_t idxInterceptSum = 0;
    std::uint32_t idxHitSum = 0;
    int candidateIdx = 0;
    int constraintIdx = 0;
    TeoReasoning::Path path = TeoReasoning::Path::Candidate;
    bool sleepLengthQueried = false;
};

/// Where teo_select() goes when it has its state.
enum class Exit : std::uint8_t {
    End,     ///< its "end:" label: the tick decision
    OutTick, ///< its "out_tick:" label: keep the tick, return idx
};

} // namespace

std::span<const VariantInfo> teoVariants() { return kInfos; }

std::unique_ptr<Governor> makeTeoGovernor(const VariantInfo &v)
{
    for (size_t i = 0; i < std::size(kVariants); ++i)
        if (&v == &kInfos[i])
            return std::make_unique<TeoGovernor>(v, kVariants[i].options);
    return nullptr;
}

TeoGovernor::TeoGovernor(const VariantInfo &v, const TeoOptions &options) : m_variant(v), m_opt(options)
{
    m_reasoning.emplace<TeoReasoning>();
    m_recentIdx.fill(-1);
    if (options == kVariants[0].options)
        bind<KernelOptions<0>>();
    else if (options == kVariants[1].options)
        bind<KernelOptions<1>>();
    else if (options == kVariants[2].options)
        bind<KernelOptions<2>>();
    else if (options == kVariants[3].options)
        bind<KernelOptions<3>>();
    else if (options == kVariants[4].options)
        bind<KernelOptions<4>>();
    else
        bind<RuntimeOptions>();
    static_assert(std::size(kVariants) == 5, "bind every kernel option set above");
}

template <class P>
void TeoGovernor::bind()
{
    m_selectFn = &TeoGovernor::selectWith<P>;
    m_reflectFn = &TeoGovernor::reflectWith<P>;
}

Selection TeoGovernor::select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx)
{
    return (this->*m_selectFn)(drv, dev, ctx);
}

void TeoGovernor::reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index)
{
    (this->*m_reflectFn)(drv, dev, index);
}

std::span<const TunableInfo> TeoGovernor::tunables() const
{
    if (m_opt.utilAwareness)
        return kTunables610;
    if (m_opt.recentIntercepts)
        return kTunables514;
    return kTunables614;
}

std::int64_t TeoGovernor::tunable(std::string_view name) const
{
    if (name == kPulse.name)
        return m_pulse;
    if (name == kDecayShift.name)
        return m_decayShift;
    for (const TunableInfo &t : tunables()) {
        if (name != t.name)
            continue;
        if (name == kNrRecent.name)
            return m_nrRecent;
        if (name == kUtilShift.name)
            return m_utilShift;
        if (name == kResidencyThreshold.name)
            return m_residencyThresholdNs;
        if (name == kLatencyThreshold.name)
            return m_latencyThresholdNs;
    }
    return Governor::tunable(name);
}

bool TeoGovernor::setTunable(std::string_view name, std::int64_t value, std::string *error)
{
    const TunableInfo *info = nullptr;
    for (const TunableInfo &t : tunables())
        if (name == t.name)
            info = &t;
    if (!info) {
        if (error) {
            std::string known;
            for (const TunableInfo &t : tunables())
                known += (known.empty() ? "" : ", ") + std::string(t.name);
            *error = "unknown parameter '" + std::string(name) + "' for " + m_variant.id + " (known: " + known
                     + ")";
        }
        return false;
    }
    if (value < info->minValue || value > info->maxValue) {
        if (error)
            *error = std::string(info->name) + " = " + std::to_string(value) + " is out of range "
                     + std::to_string(info->minValue) + ".." + std::to_string(info->maxValue) + " for "
                     + m_variant.id + " (kernel default " + std::to_string(info->kernelDefault) + ")";
        return false;
    }
    if (name == kPulse.name) {
        m_pulse = static_cast<std::uint32_t>(value);
    } else if (name == kDecayShift.name) {
        m_decayShift = static_cast<int>(value);
    } else if (name == kNrRecent.name) {
        // The ring's slots index the old size; start it afresh, as enable() would.
        m_nrRecent = static_cast<int>(value);
        m_nextRecentIdx = 0;
        m_recentIdx.fill(-1);
        m_recent.fill(0);
    } else if (name == kUtilShift.name) {
        m_utilShift = static_cast<int>(value);
    } else if (name == kResidencyThreshold.name) {
        m_residencyThresholdNs = value;
    } else if (name == kLatencyThreshold.name) {
        m_latencyThresholdNs = value;
    }
    return true;
}

void TeoGovernor::enable(const IdleStateTable &drv, CpuidleDevice &)
{
    // teo_enable_device(): memset the per-CPU data; v5.14–v6.10 also empty the ring.
    m_intercepts.fill(0);
    m_hits.fill(0);
    m_recent.fill(0);
    m_total = 0;
    m_tickIntercepts = 0;
    m_shortIdles = 0;
    m_totalTick = 0;
    m_tickHits = 0;
    m_sleepLengthNs = 0;
    m_timeSpanNs = 0;
    m_artificialWakeup = false;
    m_tickWakeup = false;
    m_nextRecentIdx = 0;
    m_recentIdx.fill(-1);
    m_tickNsec = drv.tickNsec();
    m_reasoning.emplace<TeoReasoning>();
}

TeoGovernor::Metrics TeoGovernor::metrics() const
{
    Metrics m;
    m.intercepts = m_intercepts;
    m.hits = m_hits;
    m.recent = m_recent;
    m.total = m_total;
    m.tickIntercepts = m_tickIntercepts;
    m.shortIdles = m_shortIdles;
    m.totalTick = m_totalTick;
    m.tickHits = m_tickHits;
    return m;
}

void TeoGovernor::setMetrics(const Metrics &m)
{
    m_intercepts = m.intercepts;
    m_hits = m.hits;
    m_recent = m.recent;
    m_total = m.total;
    m_tickIntercepts = m.tickIntercepts;
    m_shortIdles = m.shortIdles;
    m_totalTick = m.totalTick;
    m_tickHits = m.tickHits;
}

std::uint32_t TeoGovernor::decayed(std::uint32_t m, bool toZero) const
{
    const std::uint32_t delta = m >> m_decayShift;
    // v6.19 teo_decay(): values whose decay step is 0 drop to 0 instead of sticking.
    if (toZero && delta == 0)
        return 0;
    return m - delta;
}

bool TeoGovernor::stateOk(const IdleStateTable &drv, int i, bool tickStopped) const
{
    // teo_state_ok(): with the tick stopped only states worth a tick period will do.
    return !tickStopped || drv[i].targetResidencyNs >= m_tickNsec;
}

int TeoGovernor::findShallowerState(const IdleStateTable &drv, int stateIdx, Ns durationNs, bool noPoll)
{
    // teo_find_shallower_state(): the deepest enabled state below stateIdx whose
    // target residency fits durationNs, or the shallowest enabled one below it.
    for (int i = stateIdx - 1; i >= 0; --i) {
        const IdleState &s = drv[i];
        if (s.disabled || (noPoll && s.polling))
            continue;
        stateIdx = i;
        if (s.targetResidencyNs <= durationNs)
            break;
    }
    return stateIdx;
}

template <class P>
Ns TeoGovernor::updateWith(const IdleStateTable &drv, CpuidleDevice &dev, int n, TeoSteps &st)
{
    const TeoOptions o = P::get(m_opt);
    const Ns tick = m_tickNsec;
    const int last = dev.lastStateIdx;
    const Ns latNs = last < n ? drv[last].exitLatencyNs : 0;
    const std::uint32_t pulse = m_pulse;
    const Ns sleepLength = m_sleepLengthNs;
    st.updateSleepLengthNs = sleepLength;
    st.tickWakeup = m_tickWakeup;

    if (o.shortIdles)
        m_shortIdles = decayed(m_shortIdles, o.decayToZero);

    bool safetyNet = false;
    switch (o.safetyNet) {
    case TeoOptions::SafetyNet::TimeSpan:
        safetyNet = m_timeSpanNs >= sleepLength;
        break;
    case TeoOptions::SafetyNet::ArtificialWakeup:
        safetyNet = m_artificialWakeup;
        break;
    case TeoOptions::SafetyNet::PollLimitOnly:
        if (dev.pollTimeLimit) {
            dev.pollTimeLimit = false;
            safetyNet = true;
        }
        break;
    }

    Ns measured = KTIME_MAX;
    if (!safetyNet) {
        measured = dev.lastResidencyNs;
        // The exit takes EL in the worst case; half of it is the guess for an average one.
        if (measured >= latNs) {
            measured -= latNs / 2;
            if (o.shortIdles && measured < m_residencyThresholdNs)
                m_shortIdles += pulse;
        } else {
            measured /= 2;
            if (o.shortIdles)
                m_shortIdles += pulse;
        }
    }
    st.measuredSafetyNet = safetyNet;

    std::uint32_t total = 0;
    int idxTimer = 0;
    int idxDuration = 0;
    for (int i = 0; i < n; ++i) {
        const auto k = static_cast<size_t>(i);
        m_hits[k] = decayed(m_hits[k], o.decayToZero);
        m_intercepts[k] = decayed(m_intercepts[k], o.decayToZero);
        total += m_hits[k] + m_intercepts[k];
        const Ns tr = drv[i].targetResidencyNs;
        if (tr <= sleepLength) {
            idxTimer = i;
            if (tr <= measured)
                idxDuration = i;
        }
    }

    int slot = -1;
    if (o.recentIntercepts) {
        slot = m_nextRecentIdx++;
        if (m_nextRecentIdx >= m_nrRecent)
            m_nextRecentIdx = 0;
        const int old = m_recentIdx[static_cast<size_t>(slot)];
        if (old >= 0)
            m_recent[static_cast<size_t>(old)]--;
    }

    bool tickHit = false;
    if (o.tickStats == TeoOptions::TickStats::TickHitsBin && drv[n - 1].targetResidencyNs < tick) {
        // v6.6–v6.10: with no state as deep as a tick, an extra hits-only bin
        // beyond the last state records sleeps that lasted a tick period.
        m_tickHits -= m_tickHits >> m_decayShift;
        total += m_tickHits;
        if (tick <= sleepLength) {
            idxTimer = n;
            if (tick <= measured) {
                m_tickHits += pulse;
                tickHit = true;
            }
        }
    }
    st.timerBin = idxTimer;
    st.durationBin = idxDuration;

    if (o.total == TeoOptions::Total::SumOfBins)
        m_total = total + pulse;

    if (tickHit) {
        // The ring slot keeps its old bin (already decremented): the kernel's underflow.
        st.update = TeoReasoning::Update::TickHit;
        st.updateBin = n;
        return measured;
    }

    if (o.tickStats == TeoOptions::TickStats::InterceptsAtOrAboveTick
        || o.tickStats == TeoOptions::TickStats::InterceptsAtOrBelowTick)
        m_tickIntercepts = decayed(m_tickIntercepts, o.decayToZero);

    if (o.tickWakeups != TeoOptions::TickWakeups::SafetyNet) {
        m_totalTick = decayed(m_totalTick, o.decayToZero);
        if (m_tickWakeup) {
            m_totalTick += pulse;
            // Tick wakeups dominate: favour the deepest state so the tick gets stopped.
            if (3u * m_totalTick > 2u * m_total) {
                m_hits[static_cast<size_t>(n - 1)] += pulse;
                st.update = TeoReasoning::Update::TickDominant;
                st.updateBin = n - 1;
                return measured;
            }
            // v7.0: a tick that came while tick-range intercepts are rare most
            // likely replaced a missing intercept; count it as a timer hit.
            if (o.tickWakeups == TeoOptions::TickWakeups::TotalTickOrHit
                && 3u * m_tickIntercepts < 2u * total) {
                m_hits[static_cast<size_t>(idxTimer)] += pulse;
                st.update = TeoReasoning::Update::TickWakeupHit;
                st.updateBin = idxTimer;
                return measured;
            }
        }
    }

    bool hit = idxTimer == idxDuration;
    if (hit && o.hitNeedsTimerProximity) {
        // s64 subtraction; the kernel build wraps on overflow (-fno-strict-overflow).
        const Ns early = static_cast<Ns>(static_cast<std::uint64_t>(sleepLength)
                                         - static_cast<std::uint64_t>(measured));
        hit = early < latNs / 2;
    }
    if (hit) {
        m_hits[static_cast<size_t>(idxTimer)] += pulse;
        if (o.recentIntercepts)
            m_recentIdx[static_cast<size_t>(slot)] = -1;
        st.update = TeoReasoning::Update::Hit;
        st.updateBin = idxTimer;
    } else {
        const auto k = static_cast<size_t>(idxDuration);
        m_intercepts[k] += pulse;
        if (o.recentIntercepts) {
            m_recent[k]++;
            m_recentIdx[static_cast<size_t>(slot)] = static_cast<std::int8_t>(idxDuration);
        }
        if (o.tickStats == TeoOptions::TickStats::InterceptsAtOrAboveTick && tick <= measured)
            m_tickIntercepts += pulse;
        else if (o.tickStats == TeoOptions::TickStats::InterceptsAtOrBelowTick && measured <= tick)
            m_tickIntercepts += pulse;
        st.update = TeoReasoning::Update::Intercept;
        st.updateBin = idxDuration;
    }

    if (o.total == TeoOptions::Total::Decayed) {
        m_total -= m_total >> m_decayShift;
        m_total += pulse;
    }
    return measured;
}

template <class P>
Selection TeoGovernor::selectWith(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx)
{
    const TeoOptions o = P::get(m_opt);
    const int n = drv.count();
    const Ns tick = ctx.tickNsec;
    const bool tickStopped = ctx.tickStopped;
    const bool upfront = o.query == TeoOptions::SleepLengthQuery::Upfront;
    m_tickNsec = tick;

    const bool coreSingleState = o.singleStateInCore && n < 2;
    TeoSteps st;
    Ns measuredNs = 0;
    if (!coreSingleState && dev.lastStateIdx >= 0) {
        measuredNs = updateWith<P>(drv, dev, n, st);
        dev.lastStateIdx = -1;
    }

    // Decisions run on locals; the record is written once at the end (its
    // 32-bit fields could alias the metrics and force reloads otherwise).
    const std::uint32_t total = m_total;
    const std::uint32_t tickIntercepts = m_tickIntercepts;
    const std::uint32_t shortIdles = m_shortIdles;
    Picked c;
    int idx = -1;
    int idx0 = 0;
    Ns duration = 0;
    bool hasDuration = false;
    Ns deltaTick = tick / 2; // v6.6+: what the tick decision uses when the query is skipped
    Exit exit = Exit::End;

    auto querySleepLength = [&] {
        duration = ctx.sleepLengthNs;
        deltaTick = ctx.deltaNextNs;
        hasDuration = true;
        m_sleepLengthNs = duration;
        c.sleepLengthQueried = true;
    };

    // v5.14 asks first. Later versions start from "unknown" (KTIME_MAX): a
    // wakeup after a skipped query is judged by its measured duration alone.
    // (The v7.0 core does not call the governor at all for one state.)
    if (!coreSingleState) {
        if (upfront)
            querySleepLength();
        else
            m_sleepLengthNs = KTIME_MAX;
    }

    do {
        if (coreSingleState) {
            // v7.0 cpuidle_select(): one state, the governor is not called.
            idx = 0;
            deltaTick = 0;
            c.path = TeoReasoning::Path::CoreSingleState;
            exit = Exit::OutTick;
            break;
        }
        if (n < 2) {
            idx = 0;
            c.path = TeoReasoning::Path::NoChoice;
            exit = upfront ? Exit::End : Exit::OutTick;
            break;
        }

        if (!drv[0].disabled) {
            idx = 0;
            // v5.14: state 1 does not fit the sleep length, so state 0 it is.
            if (upfront && drv[1].targetResidencyNs > duration) {
                exit = Exit::End;
                break;
            }
        }

        if (o.utilAwareness) {
            st.util = ctx.util;
            st.utilThreshold = static_cast<int>(teo::SCHED_CAPACITY_SCALE >> m_utilShift);
            st.utilized = ctx.util > st.utilThreshold;
            if (n < 3 && st.utilized) {
                // Two states and a busy CPU: the metrics need not be consulted.
                c.path = TeoReasoning::Path::Utilized;
                st.utilShallower = true;
                if ((idx == 0 && !drv[0].polling && stateOk(drv, 0, tickStopped)) || drv[1].disabled) {
                    idx = 0;
                    exit = Exit::OutTick;
                    break;
                }
                idx = 1;
                duration = drv[1].targetResidencyNs;
                hasDuration = true;
                exit = Exit::End;
                break;
            }
        }

        std::uint32_t interceptSum = 0, hitSum = 0, recentSum = 0;
        std::uint32_t idxInterceptSum = 0, idxHitSum = 0, idxRecentSum = 0;
        std::uint32_t interceptMax = 0;
        int interceptMaxIdx = -1;
        int constraintIdx = 0;
        const bool trackMax = o.walk == TeoOptions::InterceptWalk::MinIdxMaxIntercepts;
        for (int i = 1; i < n; ++i) {
            const auto prev = static_cast<size_t>(i - 1);
            const std::uint32_t prevIntercepts = m_intercepts[prev];
            interceptSum += prevIntercepts;
            hitSum += m_hits[prev];
            if (o.recentIntercepts)
                recentSum += m_recent[prev];
            if (trackMax && prevIntercepts >= interceptMax) {
                interceptMax = prevIntercepts;
                interceptMaxIdx = i - 1;
            }
            const IdleState &s = drv[i];
            if (s.disabled)
                continue;
            if (idx < 0) {
                idx = i;
                idx0 = i;
            }
            if (upfront && s.targetResidencyNs > duration)
                break;
            idx = i;
            if (s.exitLatencyNs <= ctx.latencyReqNs)
                constraintIdx = i;
            idxInterceptSum = interceptSum;
            idxHitSum = hitSum;
            idxRecentSum = recentSum;
        }
        c.constraintIdx = constraintIdx;
        c.idxInterceptSum = idxInterceptSum;
        c.idxHitSum = idxHitSum;
        st.idxRecentSum = idxRecentSum;
        st.interceptMaxIdx = interceptMaxIdx;

        if (idx < 0) {
            idx = 0; // nothing enabled: state 0 regardless
            c.path = TeoReasoning::Path::NoChoice;
            exit = upfront ? Exit::End : Exit::OutTick;
            break;
        }
        c.candidateIdx = idx;
        if (idx == idx0) {
            // The shallowest enabled state: nothing shallower to look for.
            if (!upfront) {
                duration = drv[idx].targetResidencyNs;
                hasDuration = true;
                c.path = TeoReasoning::Path::NoChoice;
            }
            exit = Exit::End;
            break;
        }

        std::uint32_t tickInterceptSum = 0;
        if (o.tickStats == TeoOptions::TickStats::TickHitsBin) {
            tickInterceptSum = interceptSum + m_intercepts[static_cast<size_t>(n - 1)];
            st.tickInterceptSum = tickInterceptSum;
        }

        // Intercepts below the candidate against everything at or above it.
        const bool altIntercepts = 2u * idxInterceptSum > total - idxHitSum;
        const bool altRecent = o.recentIntercepts && idxRecentSum > static_cast<std::uint32_t>(m_nrRecent / 2);
        st.altIntercepts = altIntercepts;
        st.altRecent = altRecent;
        if (altRecent || altIntercepts) {
            const int before = idx;
            if (o.walk == TeoOptions::InterceptWalk::FirstSuitable) {
                // Deepest state whose bins below the candidate hold the majority of
                // the intercepts (and of the recent ones); if that state is
                // disabled or too shallow for a stopped tick, the first suitable
                // deeper one found on the way.
                int firstSuitableIdx = idx;
                Ns firstSuitableSpan = duration;
                std::uint32_t walkIntercepts = 0, walkRecent = 0;
                for (int i = idx - 1; i >= 0; --i) {
                    walkIntercepts += m_intercepts[static_cast<size_t>(i)];
                    if (o.recentIntercepts)
                        walkRecent += m_recent[static_cast<size_t>(i)];
                    Ns span = 0;
                    bool ok;
                    if (upfront) {
                        // teo_middle_of_bin() and teo_time_ok().
                        span = (drv[i].targetResidencyNs + drv[i + 1].targetResidencyNs) / 2;
                        ok = !tickStopped || static_cast<std::uint64_t>(span) >= static_cast<std::uint64_t>(tick);
                    } else {
                        ok = stateOk(drv, i, tickStopped);
                    }
                    if ((!altRecent || 2u * walkRecent > idxRecentSum)
                        && (!altIntercepts || 2u * walkIntercepts > idxInterceptSum)) {
                        if (ok && !drv[i].disabled) {
                            idx = i;
                            if (upfront)
                                duration = span;
                        } else {
                            idx = firstSuitableIdx;
                            if (upfront)
                                duration = firstSuitableSpan;
                        }
                        break;
                    }
                    if (drv[i].disabled)
                        continue;
                    if (!ok) {
                        if (firstSuitableIdx != idx)
                            continue;
                        break;
                    }
                    firstSuitableIdx = i;
                    firstSuitableSpan = span;
                }
            } else {
                // v6.19+: walk down, never below min_idx (with the tick stopped,
                // the shallowest state worth a tick period).
                int minIdx = idx0;
                bool done = false;
                if (tickStopped) {
                    while (minIdx < idx && drv[minIdx].targetResidencyNs < tick)
                        minIdx++;
                    // v7.0: min_idx shares the candidate's residency, its bin is empty.
                    if (trackMax && drv[minIdx].targetResidencyNs == drv[idx].targetResidencyNs)
                        done = true;
                }
                st.minIdx = minIdx;
                if (!done && trackMax && minIdx >= interceptMaxIdx && !drv[minIdx].disabled) {
                    // v7.0: the busiest intercepts bin is at or below min_idx.
                    idx = minIdx;
                    done = true;
                }
                if (!done) {
                    std::uint32_t walkIntercepts = 0;
                    for (int i = idx - 1; i >= minIdx; --i) {
                        walkIntercepts += m_intercepts[static_cast<size_t>(i)];
                        if (drv[i].disabled)
                            continue;
                        idx = i;
                        if (2u * walkIntercepts > idxInterceptSum && (!trackMax || i <= interceptMaxIdx))
                            break;
                    }
                }
            }
            st.walkIdx = idx;
            if (idx != before)
                c.path = TeoReasoning::Path::Intercepts;
        }

        if (idx > constraintIdx) {
            idx = constraintIdx;
            st.latencyCapped = true;
            c.path = TeoReasoning::Path::LatencyLimit;
        }

        if (o.utilAwareness && st.utilized) {
            // teo-6.10: a busy CPU takes a shallower non-polling state.
            const int i = findShallowerState(drv, idx, KTIME_MAX, true);
            if (stateOk(drv, i, tickStopped) && i != idx) {
                idx = i;
                st.utilShallower = true;
                c.path = TeoReasoning::Path::Utilized;
            }
        }

        if (upfront) {
            exit = Exit::End;
            break;
        }

        // v6.6+: a shallow candidate does not need the timer query.
        bool skip = false;
        if (o.skip == TeoOptions::QuerySkip::ShallowCandidate) {
            skip = idx == 0 || (drv[0].polling && drv[idx].targetResidencyNs < m_residencyThresholdNs);
        } else if (o.skip == TeoOptions::QuerySkip::ShortIdles) {
            skip = (idx == 0 || drv[idx].targetResidencyNs < m_residencyThresholdNs)
                   && (2u * shortIdles >= total || ctx.latencyReqNs < m_latencyThresholdNs);
        }
        if (skip) {
            st.skippedQuery = true;
            c.path = TeoReasoning::Path::SkipSleepLength;
            exit = Exit::OutTick;
            break;
        }

        querySleepLength();
        if (idx == 0) {
            exit = Exit::OutTick;
            break;
        }

        if (drv[idx].targetResidencyNs > duration) {
            const int i = findShallowerState(drv, idx, duration, false);
            if ((!o.stateOkAfterShallower || stateOk(drv, i, tickStopped)) && i != idx) {
                idx = i;
                st.sleepLengthRefined = true;
                c.path = TeoReasoning::Path::SleepLength;
            }
        }

        // Tick-range intercepts are frequent: keep the tick for a shallow state.
        if (drv[idx].targetResidencyNs < tick) {
            bool keepTick = false;
            if (o.tickRule == TeoOptions::TickRule::FiveEighths) {
                const std::uint32_t sum =
                    o.tickStats == TeoOptions::TickStats::TickHitsBin ? tickInterceptSum : tickIntercepts;
                keepTick = sum > total / 2 + total / 8;
            } else if (o.tickRule == TeoOptions::TickRule::TwoThirds) {
                keepTick = 3u * tickIntercepts >= 2u * total;
            }
            if (keepTick) {
                duration = tick / 2;
                st.tickInterceptsRule = true;
                c.path = TeoReasoning::Path::TickIntercepts;
            }
        }
        exit = Exit::End;
    } while (false);

    bool stopTick = true;
    if (exit == Exit::End) {
        // Stop the tick for a hardware state expected to outlast it (or keep it
        // stopped); otherwise keep it and make sure the state fits before it.
        if ((drv[idx].polling || duration < tick) && !tickStopped) {
            stopTick = false;
            if (idx > idx0 && drv[idx].targetResidencyNs > deltaTick) {
                idx = findShallowerState(drv, idx, deltaTick, false);
                st.tickKeptDemotion = true;
                c.path = TeoReasoning::Path::TickKeptDemotion;
            }
        }
    } else {
        stopTick = false;
    }
    const Ns predicted = hasDuration ? duration : -1;

    // The reasoning record: TeoGovernor's block in one copy, then the fields
    // of the original record.
    st.totalTick = m_totalTick;
    st.tickHits = m_tickHits;
    st.stateCount = n;
    st.tickStopped = tickStopped;
    st.hasDuration = hasDuration;
    st.candidateBySleepLength = upfront;
    st.latencyReqNs = ctx.latencyReqNs;
    st.deltaTickNs = deltaTick;
    st.tickNsec = tick;
    TeoReasoning &r = *std::get_if<TeoReasoning>(&m_reasoning);
    static_cast<TeoSteps &>(r) = st;
    // Whole arrays (bins past the last state stay 0): fixed-size block copies.
    r.hits = m_hits;
    r.intercepts = m_intercepts;
    if (o.recentIntercepts)
        r.extra = m_recent;
    r.total = total;
    r.tickIntercepts = tickIntercepts;
    r.shortIdles = shortIdles;
    r.idxInterceptSum = c.idxInterceptSum;
    r.idxHitSum = c.idxHitSum;
    r.binCount = n;
    r.candidateIdx = c.candidateIdx;
    r.constraintIdx = c.constraintIdx;
    r.chosenIdx = idx;
    r.sleepLengthQueried = c.sleepLengthQueried;
    r.sleepLengthNs = c.sleepLengthQueried ? ctx.sleepLengthNs : 0;
    r.durationNs = predicted;
    r.path = c.path;
    r.updated = st.update != TeoReasoning::Update::None;
    r.measuredNs = measuredNs;
    r.lastWasHit = r.updated && st.update != TeoReasoning::Update::Intercept;
    r.idx0 = idx0;
    r.stopTick = stopTick;
    return Selection{idx, stopTick, predicted};
}

template <class P>
void TeoGovernor::reflectWith(const IdleStateTable &, CpuidleDevice &dev, int index)
{
    const TeoOptions o = P::get(m_opt);
    dev.lastStateIdx = index;
    if (o.tickWakeups != TeoOptions::TickWakeups::SafetyNet) {
        // v6.19+: every wakeup asks whether it was the tick.
        m_tickWakeup = dev.tickNohzIdleGotTick();
        return;
    }
    // Up to v6.18 a poll time limit answers first, and then the tick flag is
    // not read (C's ||): a tick during that entry stays pending for later.
    const bool safetyNet = dev.pollTimeLimit || (dev.tickNohzIdleGotTick() && m_sleepLengthNs > m_tickNsec);
    if (safetyNet)
        dev.pollTimeLimit = false;
    if (o.safetyNet == TeoOptions::SafetyNet::TimeSpan)
        // local_clock() - time_span_ns: in the replay, exactly the residency.
        m_timeSpanNs = safetyNet ? m_sleepLengthNs : dev.lastResidencyNs;
    else
        m_artificialWakeup = safetyNet;
}

} // namespace idlescope
