// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Mirrors drivers/cpuidle/governors/teo.c from Rafael Wysocki's June 2021
 * rework to Linux v7.0, one variant per kernel file (the conformance kit's
 * VARIANTS.md, in tests/data/conformance/, lists them with their sources):
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
 *   teo-7.1    v7.1        (blob ac43b9b013b3)  "Rearrange stopped tick
 *              handling": no min_idx; a stopped tick always reads the sleep
 *              length, and a timer beyond SAFE_TIMER_RANGE_NS = 2 ticks moves
 *              a shallow choice to the deepest state that fits it.
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
 *     majority of those intercepts (walkFirstSuitableWith(), walkMinIdx()).
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
 * Where each version lives. The kernel keeps one teo.c per version; here
 * the versions share this file and diverge in one header per family, each
 * opening with why its family differs:
 *
 *   teo_v5_14.h  v5.14–v6.5   the sleep length up front (selectUpfrontWith())
 *   teo_v6_6.h   v6.6–v6.18   the sleep length after the candidate
 *                             (selectDeferredWith(), kept by v6.19+), its
 *                             skip rules, util-awareness and the tick bin
 *   teo_v6_19.h  v6.19–v7.1   the min_idx walk, total_tick, v7.1's stopped
 *                             tick timer rule
 *
 * This file holds the steps more than one family runs: teo_update()'s, the
 * candidate walk, the first-suitable intercepts walk (v5.14–v6.18), the
 * recent-intercepts ring (v5.14–v6.10), the latency cap, the tick decision
 * and the record.
 *
 * Implementation. select(), teo_update() and reflect() are written once, as
 * templates over an options provider, one function per step above (v5.14's
 * up-front flow is selectUpfrontWith(), v6.6+'s selectDeferredWith(), over
 * the same step functions): for the six kernel option sets the
 * options are compile-time constants, so each variant runs the same source
 * without the branches of the other versions (about twice as fast); any
 * other TeoOptions value runs it with run-time checks. The families are
 * headers of this one translation unit so that their steps inline into
 * select() (teo_steps.h says why). The reasoning record is written once at
 * the end of select() from locals.
 *
 * Deviations: none in decisions. measured's "U64_MAX" (v5.14–v6.18) is held
 * as S64_MAX: it is only compared with non-negative values, where the two
 * agree. The replay gives last_residency_ns >= 0, so the u64 reading of a
 * negative residency is not modelled. For a one-state driver teo-latest
 * answers as the v7.0 core does (state 0, tick kept) and skips the update.
 */
#include "core/governors/teo_governor.h"

#include "core/governors/registry.h"
#include "core/governors/teo_steps.h"
#include "core/governors/teo_v5_14.h"
#include "core/governors/teo_v6_19.h"
#include "core/governors/teo_v6_6.h"
#include "core/governors/tunable_check.h"

#include <iterator>
#include <memory>
#include <string>
#include <variant>

namespace idlescope {

namespace {

/// One row per kernel file.
constexpr VariantRow<TeoOptions> kVariants[] = {
    {{"teo-5.14",
      "teo",
      "v5.14–v6.2",
      {5, 14},
      "Timer events oriented: hit/intercept bins plus 9 recent intercepts, sleep length queried first",
      PollTimeRule::V5_11,
      false},
     teo::v5_14()},
    {{"teo-6.10",
      "teo",
      "v6.6–v6.10",
      {6, 6},
      "teo with util-awareness, the sleep length queried only for deep candidates, tick statistics",
      PollTimeRule::V5_11,
      false},
     teo::v6_10()},
    {{"teo-6.14",
      "teo",
      "v6.14–v6.18",
      {6, 14},
      "teo with short-idle and tick-intercept statistics; tick wakeups count as long sleeps",
      PollTimeRule::V5_11,
      false},
     teo::v6_14()},
    {{"teo-6.19",
      "teo",
      "v6.19",
      {6, 19},
      "teo with small metrics decaying to zero, tick-wakeup statistics, simpler intercepts walk",
      PollTimeRule::V5_11,
      false},
     teo::v6_19()},
    {{"teo-latest",
      "teo",
      "v7.0",
      {7, 0},
      "teo of v7.0: hits need the wakeup near the timer, walk bounded by the busiest intercepts bin",
      PollTimeRule::V5_11,
      true},
     teo::v7_0()},
    {{"teo-7.1",
      "teo",
      "v7.1",
      {7, 1},
      "teo of v7.1: with the tick stopped, a shallow state stands only if a timer fires within 2 ticks",
      PollTimeRule::V5_11,
      true},
     teo::v7_1()},
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
                                "count", teo::PULSE,
                                1,       1 << 20};
constexpr TunableInfo kDecayShift = {
    "DECAY_SHIFT", "Every update removes metric >> DECAY_SHIFT (3: one eighth)", "shift", teo::DECAY_SHIFT, 1, 16};
constexpr TunableInfo kNrRecent = {"NR_RECENT",
                                   "Recent wakeups remembered for the recent-intercepts rule (restarts them)",
                                   "count",
                                   teo::NR_RECENT,
                                   1,
                                   teo::NR_RECENT_MAX};
constexpr TunableInfo kUtilShift = {"UTIL_THRESHOLD_SHIFT",
                                    "The CPU counts as utilized above capacity (1024) >> this shift",
                                    "shift",
                                    teo::UTIL_THRESHOLD_SHIFT,
                                    0,
                                    10};
constexpr TunableInfo kResidencyThreshold = {
    "RESIDENCY_THRESHOLD_NS",
    "Idle durations below this are short; shallower candidates skip the timer query",
    "ns",
    RESIDENCY_THRESHOLD_NS,
    0,
    NSEC_PER_SEC};
constexpr TunableInfo kLatencyThreshold = {"LATENCY_THRESHOLD_NS",
                                           "A latency limit below this skips the timer query for shallow candidates",
                                           "ns",
                                           teo::LATENCY_THRESHOLD_NS,
                                           0,
                                           NSEC_PER_SEC};

constexpr TunableInfo kTunables514[] = {kPulse, kDecayShift, kNrRecent};
constexpr TunableInfo kTunables610[] = {kPulse, kDecayShift, kNrRecent, kUtilShift, kResidencyThreshold};
constexpr TunableInfo kTunables614[] = {kPulse, kDecayShift, kResidencyThreshold, kLatencyThreshold};

} // namespace

std::span<const VariantInfo> teoVariants()
{
    return kInfos;
}

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
    else if (options == kVariants[5].options)
        bind<KernelOptions<5>>();
    else
        bind<RuntimeOptions>();
    static_assert(std::size(kVariants) == 6, "bind every kernel option set above");
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

std::span<const TunableRow<TeoGovernor>> TeoGovernor::tunableRows()
{
    using G = TeoGovernor;
    static constexpr TunableRow<G> rows[] = {
        {kPulse, [](const G &g) -> std::int64_t { return g.m_pulse; },
         [](G &g, std::int64_t v) { g.m_pulse = static_cast<std::uint32_t>(v); }},
        {kDecayShift, [](const G &g) -> std::int64_t { return g.m_decayShift; },
         [](G &g, std::int64_t v) { g.m_decayShift = static_cast<int>(v); }},
        {kNrRecent, [](const G &g) -> std::int64_t { return g.m_nrRecent; },
         [](G &g, std::int64_t v) {
             // The ring's slots index the old size; start it afresh, as enable() would.
             g.m_nrRecent = static_cast<int>(v);
             g.m_nextRecentIdx = 0;
             g.m_recentIdx.fill(-1);
             g.m_recent.fill(0);
         }},
        {kUtilShift, [](const G &g) -> std::int64_t { return g.m_utilShift; },
         [](G &g, std::int64_t v) { g.m_utilShift = static_cast<int>(v); }},
        {kResidencyThreshold, [](const G &g) -> std::int64_t { return g.m_residencyThresholdNs; },
         [](G &g, std::int64_t v) { g.m_residencyThresholdNs = v; }},
        {kLatencyThreshold, [](const G &g) -> std::int64_t { return g.m_latencyThresholdNs; },
         [](G &g, std::int64_t v) { g.m_latencyThresholdNs = v; }},
    };
    return rows;
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

// ---- teo_update() ----------------------------------------------------------------

template <class P>
TEO_STEP TeoGovernor::Measured TeoGovernor::measuredWith(const IdleStateTable &drv, CpuidleDevice &dev, int n)
{
    const TeoOptions o = P::get(m_opt);
    const int last = dev.lastStateIdx;
    const Ns latNs = last < n ? drv[last].exitLatencyNs : 0;
    if (o.shortIdles)
        m_shortIdles = decayed(m_shortIdles, o.decayToZero);

    bool safetyNet = false;
    switch (o.safetyNet) {
    case TeoOptions::SafetyNet::TimeSpan: safetyNet = m_timeSpanNs >= m_sleepLengthNs; break;
    case TeoOptions::SafetyNet::ArtificialWakeup: safetyNet = m_artificialWakeup; break;
    case TeoOptions::SafetyNet::PollLimitOnly:
        if (dev.pollTimeLimit) {
            dev.pollTimeLimit = false;
            safetyNet = true;
        }
        break;
    }
    if (safetyNet)
        return Measured{KTIME_MAX, latNs, true};

    Ns measured = dev.lastResidencyNs;
    // The exit takes EL in the worst case; half of it is the guess for an average one.
    if (measured >= latNs) {
        measured -= latNs / 2;
        if (o.shortIdles && measured < m_residencyThresholdNs)
            m_shortIdles += m_pulse;
    } else {
        measured /= 2;
        if (o.shortIdles)
            m_shortIdles += m_pulse;
    }
    return Measured{measured, latNs, false};
}

template <class P>
TEO_STEP TeoGovernor::Bins TeoGovernor::decayBinsWith(const IdleStateTable &drv, int n, Ns measuredNs)
{
    const TeoOptions o = P::get(m_opt);
    const Ns sleepLength = m_sleepLengthNs;
    Bins b{0, 0, 0, false};
    for (int i = 0; i < n; ++i) {
        const auto k = static_cast<size_t>(i);
        m_hits[k] = decayed(m_hits[k], o.decayToZero);
        m_intercepts[k] = decayed(m_intercepts[k], o.decayToZero);
        b.total += m_hits[k] + m_intercepts[k];
        const Ns tr = drv[i].targetResidencyNs;
        if (tr <= sleepLength) {
            b.timer = i;
            if (tr <= measuredNs)
                b.duration = i;
        }
    }
    return b;
}

TEO_STEP int TeoGovernor::advanceRecentRing()
{
    // v5.14–v6.10: the ring's next slot; its oldest intercept is forgotten.
    const int slot = m_nextRecentIdx++;
    if (m_nextRecentIdx >= m_nrRecent)
        m_nextRecentIdx = 0;
    const int old = m_recentIdx[static_cast<size_t>(slot)];
    if (old >= 0)
        m_recent[static_cast<size_t>(old)]--;
    return slot;
}

template <class P>
TEO_STEP void TeoGovernor::countWakeupWith(const Measured &m, const Bins &b, int slot, TeoSteps &st)
{
    // Step 4: a hit of idx_timer's bin or an intercept of idx_duration's.
    const TeoOptions o = P::get(m_opt);
    const std::uint32_t pulse = m_pulse;
    bool hit = b.timer == b.duration;
    if (hit && o.hitNeedsTimerProximity) {
        // s64 subtraction; the kernel build wraps on overflow (-fno-strict-overflow).
        const Ns early =
            static_cast<Ns>(static_cast<std::uint64_t>(m_sleepLengthNs) - static_cast<std::uint64_t>(m.ns));
        hit = early < m.exitLatencyNs / 2;
    }
    if (hit) {
        m_hits[static_cast<size_t>(b.timer)] += pulse;
        if (o.recentIntercepts)
            m_recentIdx[static_cast<size_t>(slot)] = -1;
        st.update = TeoReasoning::Update::Hit;
        st.updateBin = b.timer;
        return;
    }
    const auto k = static_cast<size_t>(b.duration);
    m_intercepts[k] += pulse;
    if (o.recentIntercepts) {
        m_recent[k]++;
        m_recentIdx[static_cast<size_t>(slot)] = static_cast<std::int8_t>(b.duration);
    }
    if (o.tickStats == TeoOptions::TickStats::InterceptsAtOrAboveTick && m_tickNsec <= m.ns)
        m_tickIntercepts += pulse;
    else if (o.tickStats == TeoOptions::TickStats::InterceptsAtOrBelowTick && m.ns <= m_tickNsec)
        m_tickIntercepts += pulse;
    st.update = TeoReasoning::Update::Intercept;
    st.updateBin = b.duration;
}

template <class P>
TEO_STEP Ns TeoGovernor::updateWith(const IdleStateTable &drv, CpuidleDevice &dev, int n, TeoSteps &st)
{
    const TeoOptions o = P::get(m_opt);
    st.updateSleepLengthNs = m_sleepLengthNs;
    st.tickWakeup = m_tickWakeup;

    // Step 1.
    const Measured m = measuredWith<P>(drv, dev, n);
    st.measuredSafetyNet = m.safetyNet;

    // Step 2.
    Bins b = decayBinsWith<P>(drv, n, m.ns);

    // Step 3.
    const int slot = o.recentIntercepts ? advanceRecentRing() : -1;
    if (o.tickStats == TeoOptions::TickStats::TickHitsBin)
        b = tickBin(drv, n, m.ns, b);
    st.timerBin = b.timer;
    st.durationBin = b.duration;
    // Step 5, sum of the bins (before the early returns, as in the kernel).
    if (o.total == TeoOptions::Total::SumOfBins)
        m_total = b.total + m_pulse;
    if (b.tickHit) {
        // The ring slot keeps its old bin (already decremented): the kernel's underflow.
        st.update = TeoReasoning::Update::TickHit;
        st.updateBin = n;
        return m.ns;
    }
    if (o.tickStats == TeoOptions::TickStats::InterceptsAtOrAboveTick
        || o.tickStats == TeoOptions::TickStats::InterceptsAtOrBelowTick)
        m_tickIntercepts = decayed(m_tickIntercepts, o.decayToZero);
    if (o.tickWakeups != TeoOptions::TickWakeups::SafetyNet && tickWakeupWith<P>(n, b, st))
        return m.ns;

    // Step 4.
    countWakeupWith<P>(m, b, slot, st);

    // Step 5, v6.14–v6.18: the total decayed on its own.
    if (o.total == TeoOptions::Total::Decayed) {
        m_total -= m_total >> m_decayShift;
        m_total += m_pulse;
    }
    return m.ns;
}

// ---- teo_select() ----------------------------------------------------------------

TEO_STEP TeoGovernor::Choice TeoGovernor::querySleepLength(const SelectContext &ctx, Choice ch, Notes &notes)
{
    // tick_nohz_get_sleep_length(); saved for the next teo_update().
    ch.durationNs = ctx.sleepLengthNs;
    ch.deltaTickNs = ctx.deltaNextNs;
    ch.hasDuration = true;
    m_sleepLengthNs = ch.durationNs;
    notes.sleepLengthQueried = true;
    return ch;
}

template <class P>
TEO_STEP TeoGovernor::Candidate TeoGovernor::candidateWith(const IdleStateTable &drv, const SelectContext &ctx,
                                                           int first, Ns durationNs, Notes &notes)
{
    // Step 2: walk the enabled states summing the bins below each.
    const TeoOptions o = P::get(m_opt);
    const bool upfront = o.query == TeoOptions::SleepLengthQuery::Upfront;
    const bool trackMax = o.walk == TeoOptions::InterceptWalk::MinIdxMaxIntercepts;
    Candidate c;
    c.idx = first;
    std::uint32_t hitSum = 0, recentSum = 0, interceptMax = 0;
    for (int i = 1; i < drv.count(); ++i) {
        const auto prev = static_cast<size_t>(i - 1);
        const std::uint32_t prevIntercepts = m_intercepts[prev];
        c.interceptSum += prevIntercepts;
        hitSum += m_hits[prev];
        if (o.recentIntercepts)
            recentSum += m_recent[prev];
        if (trackMax && prevIntercepts >= interceptMax) {
            interceptMax = prevIntercepts;
            c.interceptMaxIdx = i - 1;
        }
        const IdleState &s = drv[i];
        if (s.disabled)
            continue;
        if (c.idx < 0) {
            c.idx = i;
            c.idx0 = i;
        }
        // v5.14: only states within the sleep length.
        if (upfront && s.targetResidencyNs > durationNs)
            break;
        c.idx = i;
        if (s.exitLatencyNs <= ctx.latencyReqNs)
            c.constraintIdx = i;
        c.idxInterceptSum = c.interceptSum;
        c.idxHitSum = hitSum;
        c.idxRecentSum = recentSum;
    }
    notes.constraintIdx = c.constraintIdx;
    notes.idxInterceptSum = c.idxInterceptSum;
    notes.idxHitSum = c.idxHitSum;
    notes.idx0 = c.idx0;
    notes.st.idxRecentSum = c.idxRecentSum;
    notes.st.interceptMaxIdx = c.interceptMaxIdx;
    if (c.idx >= 0)
        notes.candidateIdx = c.idx;
    return c;
}

template <class P>
TEO_STEP TeoGovernor::Choice TeoGovernor::walkFirstSuitableWith(const IdleStateTable &drv, const SelectContext &ctx,
                                                                const Candidate &cand, Choice ch, bool altRecent,
                                                                bool altIntercepts)
{
    // v5.14–v6.18: the deepest state whose bins below the candidate hold the
    // majority of the intercepts (and of the recent ones); if that state is
    // disabled or too shallow for a stopped tick, the first suitable deeper
    // one found on the way. v5.14 expects the middle of the chosen bin.
    const TeoOptions o = P::get(m_opt);
    const bool upfront = o.query == TeoOptions::SleepLengthQuery::Upfront;
    const Choice candidate = ch;
    Choice firstSuitable = ch;
    std::uint32_t walkIntercepts = 0, walkRecent = 0;
    for (int i = cand.idx - 1; i >= 0; --i) {
        walkIntercepts += m_intercepts[static_cast<size_t>(i)];
        if (o.recentIntercepts)
            walkRecent += m_recent[static_cast<size_t>(i)];
        Ns span = 0;
        bool ok;
        if (upfront) {
            // teo_middle_of_bin() and teo_time_ok().
            span = (drv[i].targetResidencyNs + drv[i + 1].targetResidencyNs) / 2;
            ok = !ctx.tickStopped || static_cast<std::uint64_t>(span) >= static_cast<std::uint64_t>(ctx.tickNsec);
        } else {
            ok = stateOk(drv, i, ctx.tickStopped);
        }
        if ((!altRecent || 2u * walkRecent > cand.idxRecentSum)
            && (!altIntercepts || 2u * walkIntercepts > cand.idxInterceptSum)) {
            if (!ok || drv[i].disabled)
                return firstSuitable;
            ch.idx = i;
            if (upfront)
                ch.durationNs = span;
            return ch;
        }
        if (drv[i].disabled)
            continue;
        if (!ok) {
            if (firstSuitable.idx != candidate.idx)
                continue;
            break;
        }
        firstSuitable.idx = i;
        if (upfront)
            firstSuitable.durationNs = span;
    }
    return candidate;
}

template <class P>
TEO_STEP TeoGovernor::Choice TeoGovernor::interceptsRuleWith(const IdleStateTable &drv, const SelectContext &ctx,
                                                             const Candidate &cand, Choice ch, Notes &notes)
{
    // Step 3: intercepts below the candidate against everything at or above it.
    const TeoOptions o = P::get(m_opt);
    TeoSteps &st = notes.st;
    const bool altIntercepts = 2u * cand.idxInterceptSum > m_total - cand.idxHitSum;
    const bool altRecent = o.recentIntercepts && cand.idxRecentSum > static_cast<std::uint32_t>(m_nrRecent / 2);
    st.altIntercepts = altIntercepts;
    st.altRecent = altRecent;
    if (!altRecent && !altIntercepts)
        return ch;
    if (o.walk == TeoOptions::InterceptWalk::FirstSuitable)
        ch = walkFirstSuitableWith<P>(drv, ctx, cand, ch, altRecent, altIntercepts);
    else
        ch.idx = walkMinIdx(drv, ctx, cand, o.walk == TeoOptions::InterceptWalk::MinIdxMaxIntercepts, notes);
    st.walkIdx = ch.idx;
    if (ch.idx != cand.idx)
        notes.path = TeoReasoning::Path::Intercepts;
    return ch;
}

template <class P>
TEO_STEP TeoGovernor::Choice TeoGovernor::shallowerWith(const IdleStateTable &drv, const SelectContext &ctx,
                                                        const Candidate &cand, Choice ch, Notes &notes)
{
    // Steps 3 and 4, from a candidate with something shallower below it.
    const TeoOptions o = P::get(m_opt);
    TeoSteps &st = notes.st;
    if (o.tickStats == TeoOptions::TickStats::TickHitsBin)
        st.tickInterceptSum = cand.interceptSum + m_intercepts[static_cast<size_t>(drv.count() - 1)];
    ch.idx = cand.idx;
    ch = interceptsRuleWith<P>(drv, ctx, cand, ch, notes);

    if (ch.idx > cand.constraintIdx) {
        ch.idx = cand.constraintIdx;
        st.latencyCapped = true;
        notes.path = TeoReasoning::Path::LatencyLimit;
    }
    if (o.utilAwareness && st.utilized) {
        // teo-6.10: a busy CPU takes a shallower non-polling state.
        const int i = findShallowerState(drv, ch.idx, KTIME_MAX, true);
        if (stateOk(drv, i, ctx.tickStopped) && i != ch.idx) {
            ch.idx = i;
            st.utilShallower = true;
            notes.path = TeoReasoning::Path::Utilized;
        }
    }
    return ch;
}

TEO_STEP TeoGovernor::TickChoice TeoGovernor::tickDecision(const IdleStateTable &drv, const SelectContext &ctx,
                                                           const Choice &ch, Notes &notes)
{
    // Step 6 ("end:"): stop the tick for a hardware state expected to outlast
    // it (or keep it stopped); otherwise keep it and make sure the state fits
    // before it. "out_tick:" keeps the tick as it is.
    if (ch.exit == Choice::Exit::OutTick)
        return TickChoice{ch.idx, false};
    if ((!drv[ch.idx].polling && ch.durationNs >= ctx.tickNsec) || ctx.tickStopped)
        return TickChoice{ch.idx, true};
    TickChoice t{ch.idx, false};
    if (t.idx > notes.idx0 && drv[t.idx].targetResidencyNs > ch.deltaTickNs) {
        t.idx = findShallowerState(drv, t.idx, ch.deltaTickNs, false);
        notes.st.tickKeptDemotion = true;
        notes.path = TeoReasoning::Path::TickKeptDemotion;
    }
    return t;
}

template <class P>
TEO_STEP void TeoGovernor::recordWith(const SelectContext &ctx, int n, const Choice &ch, const TickChoice &t,
                                      Notes &notes)
{
    // The reasoning record: TeoGovernor's block in one copy, then the fields
    // of the original record.
    const TeoOptions o = P::get(m_opt);
    TeoSteps &st = notes.st;
    st.totalTick = m_totalTick;
    st.tickHits = m_tickHits;
    st.stateCount = n;
    st.tickStopped = ctx.tickStopped;
    st.hasDuration = ch.hasDuration;
    st.candidateBySleepLength = o.query == TeoOptions::SleepLengthQuery::Upfront;
    st.latencyReqNs = ctx.latencyReqNs;
    st.deltaTickNs = ch.deltaTickNs;
    st.tickNsec = ctx.tickNsec;
    TeoReasoning &r = *std::get_if<TeoReasoning>(&m_reasoning);
    static_cast<TeoSteps &>(r) = st;
    // Whole arrays (bins past the last state stay 0): fixed-size block copies.
    r.hits = m_hits;
    r.intercepts = m_intercepts;
    if (o.recentIntercepts)
        r.extra = m_recent;
    r.total = m_total;
    r.tickIntercepts = m_tickIntercepts;
    r.shortIdles = m_shortIdles;
    r.idxInterceptSum = notes.idxInterceptSum;
    r.idxHitSum = notes.idxHitSum;
    r.binCount = n;
    r.candidateIdx = notes.candidateIdx;
    r.constraintIdx = notes.constraintIdx;
    r.chosenIdx = t.idx;
    r.sleepLengthQueried = notes.sleepLengthQueried;
    r.sleepLengthNs = notes.sleepLengthQueried ? ctx.sleepLengthNs : 0;
    r.durationNs = ch.hasDuration ? ch.durationNs : -1;
    r.path = notes.path;
    r.updated = st.update != TeoReasoning::Update::None;
    r.measuredNs = notes.measuredNs;
    r.lastWasHit = r.updated && st.update != TeoReasoning::Update::Intercept;
    r.idx0 = notes.idx0;
    r.stopTick = t.stopTick;
}

template <class P>
Selection TeoGovernor::selectWith(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx)
{
    const TeoOptions o = P::get(m_opt);
    const int n = drv.count();
    m_tickNsec = ctx.tickNsec;

    // The v7.0 core does not call the governor at all for one state.
    const bool coreSingleState = o.singleStateInCore && n < 2;
    TeoSteps st;
    Notes notes{st};
    // Step 1: learn from the previous entry.
    if (!coreSingleState && dev.lastStateIdx >= 0) {
        notes.measuredNs = updateWith<P>(drv, dev, n, notes.st);
        dev.lastStateIdx = -1;
    }

    Choice ch{0, 0, 0, false, Choice::Exit::OutTick};
    if (coreSingleState)
        notes.path = TeoReasoning::Path::CoreSingleState; // state 0, tick kept
    else if (o.query == TeoOptions::SleepLengthQuery::Upfront)
        ch = selectUpfrontWith<P>(drv, ctx, notes);
    else
        ch = selectDeferredWith<P>(drv, ctx, notes);
    const TickChoice t = tickDecision(drv, ctx, ch, notes);

    // The record is a copy of what the steps noted (a quarter of a select): only when it is read.
    if (m_keepReasoning)
        recordWith<P>(ctx, n, ch, t, notes);
    return Selection{t.idx, t.stopTick, ch.hasDuration ? ch.durationNs : -1};
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
