// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Mirrors drivers/cpuidle/governors/teo.c of Linux v5.13 (blob ac4bb27d69b0),
 * the last version before Rafael Wysocki's June 2021 rework. It is the
 * v5.12 file plus the three v5.13-rc1 changes: "Use s64 as exit_latency_ns
 * and target_residency_ns data type", "teo: Take negative 'sleep length'
 * values into account" and "teo: Adjust handling of very short idle times".
 * cpuidle.c helpers as in v5.11-v5.19.
 *
 * Vocabulary. The "sleep length" is the time till the closest timer
 * (tick_nohz_get_sleep_length()). A state "matches" an idle duration when
 * the duration lies between its target residency and the next state's. After
 * each wakeup the governor compares the state matching the sleep length
 * (idx_timer) with the state matching the measured idle duration (idx_hit):
 * equal is a "hit" of idx_timer, different is a "miss" of idx_timer and an
 * "early hit" of idx_hit. Metrics are unsigned ints that gain PULSE and decay
 * by 1/2^DECAY_SHIFT. The INTERVALS most recent measured durations are kept
 * (U64_MAX for wakeups at or after the sleep length).
 *
 * Update (teo_update(), at the next select):
 *  U1. measured := U64_MAX if the time span between select and reflect
 *      reached the sleep length (a timer or a safety net woke the CPU), else
 *      last_residency_ns less half the exit latency (halved if shorter).
 *  U2. Decay every early-hits metric; idx_timer := deepest state with
 *      TR <= sleep length, idx_hit := deepest of those with TR <= measured
 *      (both start at 0, v5.13: so very short sleeps are hits of state 0).
 *  U3. Decay idx_timer's hits and misses; add PULSE to its hits if
 *      idx_hit == idx_timer, else to its misses and to idx_hit's early hits.
 *  U4. Store measured in the ring of recent intervals.
 *
 * Selection (teo_select()):
 *  1. Scan the states in order with duration := sleep length. Enabled states
 *     with TR <= duration become the candidate (idx), carrying their hits and
 *     misses; the first enabled state is idx0; constraint_idx is the first of
 *     them whose exit latency exceeds the latency limit. Track the state with
 *     the largest early hits (max_early_idx, and the previous maximum), only
 *     among states that are not too shallow for a stopped tick. A disabled
 *     state with TR <= duration lends its hits and misses to the candidate
 *     and may raise the early-hits maximum on the candidate's behalf.
 *  2. If hits <= misses, the candidate is unlikely to fit: take the
 *     max-early-hits state (its previous maximum if that is the candidate
 *     itself) and set duration := its TR.
 *  3. If constraint_idx < idx, idx := constraint_idx. This is the v5.13
 *     quirk: constraint_idx is the first state that *violates* the limit, so
 *     teo-5.13 can pick a state slower to exit than the limit allows (with a
 *     zero limit and a 10 us sleep length on skx, C1 rather than POLL). The
 *     2021 rework made it the deepest state that meets the limit.
 *  4. If idx > idx0: average the recent intervals shorter than duration; if
 *     more than INTERVALS/2 qualify and the average is not too short for a
 *     stopped tick, duration := average, and if idx's TR exceeds it, move to
 *     the deepest enabled shallower state whose TR fits.
 *  5. Tick: unless it is already stopped, keep it when idx polls or duration
 *     < TICK_NSEC; then if idx > idx0 and idx's TR exceeds the time to the
 *     next tick or timer (delta_tick), move to a shallower state that fits.
 * Reflect (teo_reflect()): remember the entered state; if polling hit its
 * time limit, or the tick fired (tick_nohz_idle_got_tick()) and the sleep
 * length exceeds TICK_NSEC, clear poll_time_limit and take the sleep length
 * as the time span; otherwise the span is the time since select. The ||
 * short-circuits: with poll_time_limit set, the sticky got_tick flag is not
 * read (nor cleared).
 *
 * Integer types follow v5.13: time_span/sleep_length/duration are s64 (a
 * negative sleep length makes every TR exceed it), measured and the ring are
 * u64, so "val >= duration" and "TR > avg" compare as u64; teo_time_ok()
 * takes a u64; metrics are 32-bit unsigned.
 *
 * Deviations from the kernel: none in decisions. local_clock() at reflect
 * is the select time plus last_residency_ns in the reference replay (no time
 * passes outside the state), so the time span is last_residency_ns.
 */
#include "core/governors/teo_legacy_governor.h"

#include "core/governors/registry.h"
#include "core/governors/tunable_check.h"

namespace idlescope {

namespace {

constexpr VariantInfo kTeoLegacy[] = {
    {"teo-5.13",
     "teo",
     "v5.13",
     {5, 13},
     "Pre-2021 teo: per-state hits, misses and early hits, plus the 8 most recent idle durations",
     PollTimeRule::V5_11,
     false},
};

constexpr TunableInfo kTeoLegacyTunables[] = {
    {"PULSE", "Added to a metric each time it is incremented", "count", teo513::PULSE, 1, 65536},
    {"DECAY_SHIFT", "Metrics lose metric >> DECAY_SHIFT at every update", "shift", teo513::DECAY_SHIFT, 0, 31},
    {"INTERVALS", "Recent measured idle durations kept for pattern detection", "samples", teo513::INTERVALS, 1,
     teo513::INTERVALS_MAX},
};

} // namespace

std::span<const VariantInfo> teoLegacyVariants()
{
    return kTeoLegacy;
}

std::unique_ptr<Governor> makeTeoLegacyGovernor(const VariantInfo &v)
{
    return std::make_unique<TeoLegacyGovernor>(v);
}

TeoLegacyGovernor::TeoLegacyGovernor(const VariantInfo &v) : m_variant(v)
{
    m_intervals.fill(U64_MAX);
    m_reasoning.emplace<TeoReasoning>();
}

std::span<const TunableInfo> TeoLegacyGovernor::tunables() const
{
    return kTeoLegacyTunables;
}

std::span<const TunableRow<TeoLegacyGovernor>> TeoLegacyGovernor::tunableRows()
{
    using G = TeoLegacyGovernor;
    static constexpr TunableRow<G> rows[] = {
        {kTeoLegacyTunables[0], [](const G &g) -> std::int64_t { return g.m_pulse; },
         [](G &g, std::int64_t v) { g.m_pulse = static_cast<std::uint32_t>(v); }},
        {kTeoLegacyTunables[1], [](const G &g) -> std::int64_t { return g.m_decayShift; },
         [](G &g, std::int64_t v) { g.m_decayShift = static_cast<int>(v); }},
        {kTeoLegacyTunables[2], [](const G &g) -> std::int64_t { return g.m_intervalCount; },
         [](G &g, std::int64_t v) { g.m_intervalCount = static_cast<int>(v); }},
    };
    static_assert(std::size(rows) == std::size(kTeoLegacyTunables));
    return rows;
}

// teo_enable_device(): zeroed per-CPU data, every recent interval "infinite".
void TeoLegacyGovernor::enable(const IdleStateTable &, CpuidleDevice &)
{
    m_timeSpanNs = 0;
    m_sleepLengthNs = 0;
    m_states = {};
    m_intervalIdx = 0;
    m_intervals.fill(U64_MAX);
    m_reasoning.emplace<TeoReasoning>();
}

bool TeoLegacyGovernor::timeOk(const SelectContext &ctx, std::uint64_t intervalNs)
{
    // teo_time_ok(): with the tick stopped, states shorter than a tick are not worth it.
    return !ctx.tickStopped || intervalNs >= static_cast<std::uint64_t>(ctx.tickNsec);
}

// teo_find_shallower_state(): the deepest enabled state below stateIdx whose
// TR fits, or the shallowest enabled one if none fits.
int TeoLegacyGovernor::findShallowerState(const IdleStateTable &drv, int stateIdx, Ns durationNs)
{
    for (int i = stateIdx - 1; i >= 0; --i) {
        if (drv[i].disabled)
            continue;
        stateIdx = i;
        if (drv[i].targetResidencyNs <= durationNs)
            break;
    }
    return stateIdx;
}

// teo_update(): steps U1-U4 for the previous entry.
void TeoLegacyGovernor::update(const IdleStateTable &drv, CpuidleDevice &dev)
{
    TeoReasoning &r = std::get<TeoReasoning>(m_reasoning);

    // U1.
    std::uint64_t measured;
    if (m_timeSpanNs >= m_sleepLengthNs) {
        measured = U64_MAX;
    } else {
        const auto latNs = static_cast<std::uint64_t>(drv[dev.lastStateIdx].exitLatencyNs);
        measured = static_cast<std::uint64_t>(dev.lastResidencyNs);
        // The exit latency is rarely worst-case: count half of it.
        if (measured >= latNs)
            measured -= latNs / 2;
        else
            measured /= 2;
    }

    // U2.
    int idxTimer = 0;
    int idxHit = 0;
    for (int i = 0; i < drv.count(); ++i) {
        StateMetrics &m = m_states[static_cast<size_t>(i)];
        m.earlyHits = decayed(m.earlyHits);
        const Ns tr = drv[i].targetResidencyNs;
        if (tr <= m_sleepLengthNs) {
            idxTimer = i;
            if (static_cast<std::uint64_t>(tr) <= measured)
                idxHit = i;
        }
    }

    // U3.
    StateMetrics &timer = m_states[static_cast<size_t>(idxTimer)];
    timer.hits = decayed(timer.hits);
    timer.misses = decayed(timer.misses);
    if (idxTimer == idxHit) {
        timer.hits += m_pulse;
    } else {
        timer.misses += m_pulse;
        m_states[static_cast<size_t>(idxHit)].earlyHits += m_pulse;
    }

    // U4.
    m_intervals[static_cast<size_t>(m_intervalIdx++)] = measured;
    if (m_intervalIdx >= m_intervalCount)
        m_intervalIdx = 0;

    r.updated = true;
    r.measuredNs = measured > static_cast<std::uint64_t>(KTIME_MAX) ? KTIME_MAX : static_cast<Ns>(measured);
    r.lastWasHit = idxTimer == idxHit;
}

// Step 1, a disabled state within the duration: its range is covered by the
// candidate, but its hits and misses still decide whether that candidate is
// good enough, and it may raise the early-hits maximum on its behalf.
TeoLegacyGovernor::Scan TeoLegacyGovernor::scanDisabledState(Scan s, const StateMetrics &m, const IdleStateTable &drv,
                                                             const SelectContext &ctx) const
{
    s.hits = m.hits;
    s.misses = m.misses;
    if (s.earlyHits >= m.earlyHits || s.idx < 0)
        return s;
    // The candidate already holds the maximum: raise the maximum only,
    // so that no deeper state with fewer early hits is chosen.
    if (s.maxEarlyIdx == s.idx) {
        s.earlyHits = m.earlyHits;
        return s;
    }
    // The candidate is closer to this state than the current maximum:
    // it takes the maximum on this state's behalf, if not too shallow.
    if (timeOk(ctx, static_cast<std::uint64_t>(drv[s.idx].targetResidencyNs))) {
        s.prevMaxEarlyIdx = s.maxEarlyIdx;
        s.earlyHits = m.earlyHits;
        s.maxEarlyIdx = s.idx;
    }
    return s;
}

// Step 1: the candidate, idx0, constraint_idx and the early-hits maximum.
TeoLegacyGovernor::Scan TeoLegacyGovernor::scanStates(const IdleStateTable &drv, const CpuidleDevice &,
                                                      const SelectContext &ctx, Ns durationNs) const
{
    Scan s;
    s.constraintIdx = drv.count();
    for (int i = 0; i < drv.count(); ++i) {
        const IdleState &st = drv[i];
        const StateMetrics &m = m_states[static_cast<size_t>(i)];

        if (st.disabled) {
            // Beyond the expected idle duration it does not matter.
            if (st.targetResidencyNs <= durationNs)
                s = scanDisabledState(s, m, drv, ctx);
            continue;
        }

        if (s.idx < 0) {
            s.idx = i; // first enabled state
            s.hits = m.hits;
            s.misses = m.misses;
            s.idx0 = i;
        }

        if (st.targetResidencyNs > durationNs)
            break;

        if (st.exitLatencyNs > ctx.latencyReqNs && s.constraintIdx > i)
            s.constraintIdx = i;

        s.idx = i;
        s.hits = m.hits;
        s.misses = m.misses;

        if (s.earlyHits < m.earlyHits && timeOk(ctx, static_cast<std::uint64_t>(st.targetResidencyNs))) {
            s.prevMaxEarlyIdx = s.maxEarlyIdx;
            s.earlyHits = m.earlyHits;
            s.maxEarlyIdx = i;
        }
    }
    return s;
}

// Step 4: the recent intervals may point at a shallower state.
int TeoLegacyGovernor::refineWithRecentIntervals(const IdleStateTable &drv, const CpuidleDevice &,
                                                 const SelectContext &ctx, int idx, Ns &durationNs)
{
    TeoReasoning &r = std::get<TeoReasoning>(m_reasoning);
    unsigned count = 0;
    std::uint64_t sum = 0;
    // u64 against s64: C compares as u64.
    const auto durationU = static_cast<std::uint64_t>(durationNs);
    for (int i = 0; i < m_intervalCount; ++i) {
        const std::uint64_t val = m_intervals[static_cast<size_t>(i)];
        if (val >= durationU)
            continue;
        count++;
        sum += val;
    }
    r.recentCount = static_cast<int>(count);

    // Only a majority of the recent intervals says anything.
    if (count <= static_cast<unsigned>(m_intervalCount / 2))
        return idx;
    const std::uint64_t avgNs = sum / count;
    r.recentAvgNs = static_cast<Ns>(avgNs);
    // Not a state too shallow to sit in with the tick stopped.
    if (!timeOk(ctx, avgNs))
        return idx;
    durationNs = static_cast<Ns>(avgNs);
    if (static_cast<std::uint64_t>(drv[idx].targetResidencyNs) > avgNs)
        idx = findShallowerState(drv, idx, static_cast<Ns>(avgNs));
    return idx;
}

// Step 2: too many misses for the candidate: the early-hits alternative.
TeoLegacyGovernor::Pick TeoLegacyGovernor::earlyHitsStep(const IdleStateTable &drv, const Scan &s, Pick p) const
{
    p.maxEarlyIdx = s.maxEarlyIdx;
    if (s.hits > s.misses)
        return p;
    if (p.idx == p.maxEarlyIdx)
        p.maxEarlyIdx = s.prevMaxEarlyIdx;
    if (p.maxEarlyIdx >= 0) {
        p.idx = p.maxEarlyIdx;
        p.durationNs = drv[p.idx].targetResidencyNs;
        p.path = TeoReasoning::Path::EarlyHits;
    }
    return p;
}

// Step 5: the tick. Kept when idx polls or the duration is short (unless
// already stopped); the tick will then end the idle period: fit the state
// before it.
TeoLegacyGovernor::Pick TeoLegacyGovernor::tickStep(const IdleStateTable &drv, const SelectContext &ctx, const Scan &s,
                                                    Pick p) const
{
    p.stopTick = true;
    if ((!drv[p.idx].polling && p.durationNs >= ctx.tickNsec) || ctx.tickStopped)
        return p;
    p.stopTick = false;
    if (p.idx > s.idx0 && drv[p.idx].targetResidencyNs > ctx.deltaNextNs) {
        const int shallower = findShallowerState(drv, p.idx, ctx.deltaNextNs);
        if (shallower != p.idx)
            p.path = TeoReasoning::Path::TickKeptDemotion;
        p.idx = shallower;
    }
    return p;
}

// The record's metrics as this select saw them (after the update).
void TeoLegacyGovernor::recordMetrics(const IdleStateTable &drv, TeoReasoning &r) const
{
    r.binCount = drv.count();
    for (int i = 0; i < drv.count(); ++i) {
        const StateMetrics &m = m_states[static_cast<size_t>(i)];
        r.hits[static_cast<size_t>(i)] = m.hits;
        r.intercepts[static_cast<size_t>(i)] = m.misses;
        r.extra[static_cast<size_t>(i)] = m.earlyHits;
    }
}

Selection TeoLegacyGovernor::select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx)
{
    using Path = TeoReasoning::Path;
    TeoReasoning &r = std::get<TeoReasoning>(m_reasoning);
    r = TeoReasoning{};
    r.legacy = true;

    if (dev.lastStateIdx >= 0) {
        update(drv, dev);
        dev.lastStateIdx = -1;
    }

    m_timeSpanNs = ctx.nowNs;
    m_sleepLengthNs = ctx.sleepLengthNs;

    // Step 1.
    const Scan s = scanStates(drv, dev, ctx, ctx.sleepLengthNs);
    // Step 2.
    Pick p = earlyHitsStep(drv, s, Pick{s.idx, ctx.sleepLengthNs, Path::Candidate, -1, true});

    // Step 3: the latency limit (the first state over it, see the prose).
    if (s.constraintIdx < p.idx) {
        p.idx = s.constraintIdx;
        p.path = Path::LatencyLimit;
    }

    // Step 4.
    if (p.idx < 0) {
        p.idx = 0; // no state enabled: 0 it must be
        p.path = Path::NoChoice;
    } else if (p.idx > s.idx0) {
        const int refined = refineWithRecentIntervals(drv, dev, ctx, p.idx, p.durationNs);
        if (refined != p.idx)
            p.path = Path::RecentIntervals;
        p.idx = refined;
    }

    // Step 5.
    p = tickStep(drv, ctx, s, p);

    recordMetrics(drv, r);
    r.candidateIdx = s.idx;
    r.constraintIdx = s.constraintIdx;
    r.idx0 = s.idx0;
    r.maxEarlyIdx = p.maxEarlyIdx;
    r.chosenIdx = p.idx;
    r.sleepLengthQueried = true;
    r.sleepLengthNs = ctx.sleepLengthNs;
    r.durationNs = p.durationNs;
    r.path = p.path;
    r.stopTick = p.stopTick;
    return Selection{p.idx, p.stopTick, p.durationNs};
}

// teo_reflect().
void TeoLegacyGovernor::reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index)
{
    dev.lastStateIdx = index;
    // A wakeup by a safety net (poll time limit, or the tick when a timer was
    // further away) says nothing about the idle duration: assume the CPU would
    // have slept for the whole sleep length.
    if (dev.pollTimeLimit || (dev.tickNohzIdleGotTick() && m_sleepLengthNs > drv.tickNsec())) {
        dev.pollTimeLimit = false;
        m_timeSpanNs = m_sleepLengthNs;
    } else {
        m_timeSpanNs = dev.lastResidencyNs; // local_clock() - time of select
    }
}

} // namespace idlescope
