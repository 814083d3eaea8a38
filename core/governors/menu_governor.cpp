// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The menu governor: drivers/cpuidle/governors/menu.c from v5.10 to v7.0,
 * plus the posted patches the conformance kit names (Rafael Wysocki's Feb-2025
 * RFT series menu-1 … menu-5, Aboorva Devarajan's polling-override patches,
 * and the post-v7.0 "Refine stopped tick handling"). One class; each version
 * is a MenuOptions value (menu_governor.h), one row of kVariants in
 * menu_variants.cpp.
 *
 * Vocabulary (the kernel's):
 *  - next_timer_ns: time till the closest timer if the tick were stopped
 *    (tick_nohz_get_sleep_length()); delta_tick: time till the closest event
 *    including the tick.
 *  - correction factor: per-bucket running ratio measured/next_timer_ns,
 *    RESOLUTION * DECAY = 8192 meaning 1.0; buckets by next_timer_ns magnitude.
 *  - typical interval: get_typical_interval()'s verdict on the last
 *    INTERVALS measured idle durations (menu_typical_interval.h).
 *  - predicted_ns: the idle duration menu plans for.
 *  - polling override: the "first non-polling state" rule (see step 7).
 *
 * menu_select(), as numbered here and in the code:
 *  1. menu_update() for the previous entry, if reflect asked for it; v6.17+
 *     records UINT_MAX when no entry happened since the last select.
 *  2. v6.6+: predicted := typical interval; if it exceeds
 *     RESIDENCY_THRESHOLD_NS (or, v7.0+, the tick is stopped) query the
 *     timer and take the smaller of it and the corrected timer prediction
 *     timer_us (a 32-bit unsigned int); otherwise assume no timer
 *     (KTIME_MAX) and delta_tick = TICK_NSEC/2.
 *     v5.x: query the timer first; predicted := min(timer prediction,
 *     typical interval given that prediction).
 *  3. Early state-0 exit: single state (before v7.0), latency_req == 0, or
 *     the next timer / latency limit below state 1 with state 0 enabled:
 *     return 0, keeping the tick iff state 0 polls.
 *  4. Tick already stopped and predicted < TICK_NSEC: predicted := the time
 *     till the next timer (v7.1: unless that timer is within 2 ticks).
 *     Otherwise (before v6.17-rc3) latency_req := min(latency_req, predicted).
 *  5. State loop: the deepest enabled state whose target residency fits
 *     predicted and whose exit latency fits latency_req (v6.17-rc3+ tests
 *     the latency first). At the first state that does not fit:
 *  6.   tick stopped and predicted >= TICK_NSEC: take that state if the
 *       current one is shallow and it fits delta_tick, and return at once;
 *       tick running and predicted >= TICK_NSEC: predicted := TR(current),
 *       so that the tick is kept below.
 *  7.   polling override: if the current state polls and the next physical
 *       state fits before the next timer (plus the version's guards), take
 *       the physical state and predicted := its TR.
 *  8. Tick decision: a polling state or predicted < TICK_NSEC keeps the tick
 *     (if still running); then a state deeper than delta_tick is demoted to
 *     the deepest enabled one that fits (or the shallowest enabled one).
 * menu_reflect() records the state, the pending update and
 * tick_nohz_idle_got_tick(); menu_update() (step 1) turns the last residency
 * into a "measured" idle time, folds measured/next_timer_ns into the bucket's
 * correction factor and appends measured (us, truncated to 32 bits) to the ring.
 *
 * Where each version lives. The kernel keeps one menu.c per version; here
 * the versions share this file, which is the menu_select() of v6.6–v6.19
 * (the typical interval first, the timer only when it is long), and diverge
 * where menu_select() changed shape, in one header per family that opens
 * with why its family differs:
 *
 *   menu_v5_10.h  v5.5–v5.12  the timer first, the typical interval after step 3
 *   menu_v7_0.h   v7.0–v7.1   the stopped tick rule in step 2, a safe timer range
 *
 * Smaller changes are MenuOptions read in the step they touch: the bucket
 * count (v6.13), the v6.17 invalid-interval and latency-first fixes, the
 * polling override's guards (v6.17–v6.19 and the posted patches). The 2025
 * RFT series ("Avoid discarding useful information" and the four before
 * it) changed get_typical_interval() alone: its forms, one MenuTypicalAlgo
 * each, are menu_typical_interval.cpp's. The option set of every version
 * is in menu_variants.cpp.
 *
 * Integer fidelity: next_timer_ns and predicted_ns are u64 as in the kernel,
 * the product next_timer_ns * correction_factor wraps in u64 and its quotient
 * is truncated into the 32-bit timer_us, measured us are truncated into
 * 32-bit ring slots (KTIME_MAX/1000 becomes 2,783,138,807 us).
 *
 * Deviations: nr_iowait_cpu() is 0 (so the pre-v6.13 performance multiplier is
 * 1 and only the lower 6 buckets are used); v7.0's core short-circuit for a
 * single-state driver (cpuidle_select() returns 0 and keeps the tick) is done
 * here since the replay always calls select(); INTERVALS, the 6x ratio, the
 * 20 us bound and RESIDENCY_THRESHOLD_NS are tunables whose defaults are the
 * kernel's.
 */
#include "core/governors/menu_governor.h"

#include "core/governors/menu_steps.h"
#include "core/governors/menu_v5_10.h"
#include "core/governors/menu_v7_0.h"
#include "core/governors/tunable_check.h"

#include <algorithm>
#include <cstring>

namespace idlescope {

namespace {

// menu.c constants.
constexpr std::uint32_t RESOLUTION = 1024;
constexpr std::uint32_t DECAY = 8;
constexpr std::uint64_t MAX_INTERESTING_NS = 50000 * NSEC_PER_USEC;
constexpr std::uint64_t TIMER_US_DIVISOR = std::uint64_t(RESOLUTION) * DECAY * NSEC_PER_USEC;

using Path = MenuReasoning::Path;
using LoopEnd = MenuReasoning::LoopEnd;
using OverrideBlock = MenuReasoning::OverrideBlock;
using Measured = MenuReasoning::Measured;

// which_bucket() with nr_iowait_cpu() == 0: the order of magnitude of the
// expected duration (strict "<" on 10 us, 100 us, 1 ms, 10 ms, 100 ms).
inline int whichBucket(std::uint64_t durationNs)
{
    if (durationNs < 10 * NSEC_PER_USEC)
        return 0;
    if (durationNs < 100 * NSEC_PER_USEC)
        return 1;
    if (durationNs < 1000 * NSEC_PER_USEC)
        return 2;
    if (durationNs < 10000 * NSEC_PER_USEC)
        return 3;
    if (durationNs < 100000 * NSEC_PER_USEC)
        return 4;
    return 5;
}

} // namespace

// ---- MenuGovernor --------------------------------------------------------------

MenuGovernor::MenuGovernor(const VariantInfo &v, const MenuOptions &o)
    : m_variant(v), m_opt(o), m_rec(&m_reasoning.emplace<MenuReasoning>())
{
    m_typicalParams.algo = m_opt.typical;
    m_typicalParams.maxOfRemaining = m_opt.maxOfRemaining;
    m_typicalParams.setRatio(6);
    m_typicalParams.stddevMaxSq = 400;
    m_correction.fill(RESOLUTION * DECAY);
    recordConfig();
}

void MenuGovernor::enable(const IdleStateTable &, CpuidleDevice &)
{
    // menu_enable_device(): memset, then unity correction factors.
    m_needsUpdate = false;
    m_tickWakeup = false;
    m_nextTimerNs = 0;
    m_bucket = 0;
    m_correction.fill(RESOLUTION * DECAY);
    m_intervals.fill(0);
    m_intervalPtr = 0;
    m_lastTypicalValid = false;
    *m_rec = MenuReasoning{};
    recordConfig();
}

void MenuGovernor::recordConfig()
{
    // The record's copy of the variant's constants and the tunables, kept
    // current here rather than on every select.
    MenuReasoning &r = *m_rec;
    r.intervalCount = m_intervalCount;
    r.bucketCount = m_opt.buckets;
    r.residencyThresholdNs = m_opt.typicalFirst ? m_residencyThresholdNs : 0;
    r.stddevRatio = static_cast<std::uint32_t>(m_stddevRatio);
    r.stddevMaxUs = static_cast<std::uint32_t>(m_stddevMaxUs);
}

MENU_STEP void MenuGovernor::appendInterval(std::uint32_t us)
{
    // menu_update_intervals(): the ring of recent idle durations.
    m_intervals[size_t(m_intervalPtr++)] = us;
    if (m_intervalPtr >= m_intervalCount)
        m_intervalPtr = 0;
    // The reasoning record keeps the same samples oldest first, shifted as
    // they arrive; the detector reads them there. (Reading the ring back right
    // after this store with wide loads would stall store forwarding.)
    std::uint32_t *window = m_rec->intervalsUs.data();
    // The sample that leaves is the oldest; when it equals the new one the
    // window holds the same values as before and the detector's verdict,
    // which depends on the values and not their order, still stands.
    if (window[0] != us)
        m_lastTypicalValid = false;
    if (m_intervalCount == 8) {
        // The kernel's size: slots 1..4 and 4..7 to 0..3 and 3..6, two
        // 16-byte moves through registers (no memmove call, no stack).
        std::uint32_t low[4], high[4];
        std::memcpy(low, window + 1, sizeof low);
        std::memcpy(high, window + 4, sizeof high);
        std::memcpy(window, low, sizeof low);
        std::memcpy(window + 3, high, sizeof high);
        window[7] = us;
    } else {
        shiftWindow(window, m_intervalCount, us);
    }
}

void MenuGovernor::shiftWindow(std::uint32_t *window, int n, std::uint32_t us)
{
    // Out of line: its 64-byte buffer would give every select() a stack
    // frame and a stack-protector check, for a size the kernel never has.
    if (n <= 16) {
        // Small sizes: one fixed 64-byte move (no memmove call, which cost
        // as much as the detector with INTERVALS = 9). Slots from INTERVALS
        // on are zero and receive zeros.
        std::uint32_t moved[16];
        std::memcpy(moved, window + 1, sizeof moved);
        std::memcpy(window, moved, sizeof moved);
    } else {
        std::memmove(window, window + 1, size_t(n - 1) * sizeof(std::uint32_t));
    }
    window[n - 1] = us;
}

MENU_STEP std::uint64_t MenuGovernor::measuredNs(const IdleState &target, const CpuidleDevice &dev, Ns tickNsec) const
{
    // What happened since entry: the tick woke a CPU that expected no event
    // within a tick (assume it could have slept long), or polling hit its
    // time limit (assume the next timer would have ended it), or the
    // measured residency less the exit latency (halved if it is that short).
    MenuReasoning &r = *m_rec;
    if (m_tickWakeup && m_nextTimerNs > std::uint64_t(tickNsec)) {
        r.measuredKind = Measured::TickWakeup;
        return 9 * MAX_INTERESTING_NS / 10;
    }
    if (target.polling && dev.pollTimeLimit) {
        r.measuredKind = Measured::PollTimeLimit;
        return m_nextTimerNs;
    }
    const std::uint64_t residency = std::uint64_t(dev.lastResidencyNs);
    const std::uint64_t exitLatency = std::uint64_t(target.exitLatencyNs);
    if (residency > 2 * exitLatency) {
        r.measuredKind = Measured::Residency;
        return residency - exitLatency;
    }
    r.measuredKind = Measured::ResidencyHalved;
    return residency / 2;
}

MENU_STEP void MenuGovernor::update(const IdleStateTable &drv, const CpuidleDevice &dev, Ns tickNsec)
{
    MenuReasoning &r = *m_rec;
    int last = dev.lastStateIdx;
    if (last < 0 || last >= drv.count())
        last = 0; // a table edited since the entry: never index outside it
    std::uint64_t measured = measuredNs(drv[last], dev, tickNsec);
    // The correction factor must not exceed unity.
    r.measuredClamped = measured > m_nextTimerNs;
    if (r.measuredClamped)
        measured = m_nextTimerNs;

    // Running average of measured/next_timer_ns for the bucket chosen at the
    // previous select; a long sleep counts as a perfect prediction.
    // measured == next_timer_ns (a poll cut by its time limit, or clamped
    // above) is a ratio of exactly RESOLUTION: no division needed. It is the
    // common case in runs of polls, where the division was a quarter of the
    // update's time.
    std::uint32_t factor = m_correction[size_t(m_bucket)];
    factor -= factor / DECAY;
    if (m_nextTimerNs > 0 && measured < MAX_INTERESTING_NS && measured != m_nextTimerNs)
        factor += static_cast<std::uint32_t>((RESOLUTION * measured) / m_nextTimerNs);
    else
        factor += RESOLUTION;
    m_correction[size_t(m_bucket)] = factor;

    // ktime_to_us() divides the s64 value; the ring slot is an unsigned int.
    const std::uint32_t us = static_cast<std::uint32_t>(static_cast<std::int64_t>(measured) / NSEC_PER_USEC);
    appendInterval(us);

    r.updated = true;
    r.updatedStateIdx = last;
    r.lastResidencyNs = dev.lastResidencyNs;
    r.measuredNs = static_cast<Ns>(measured);
    r.storedUs = us;
    r.updatedBucket = m_bucket;
    r.updatedFactor = factor;
}

std::uint32_t MenuGovernor::typicalInterval(std::uint32_t predictedUs)
{
    m_typicalParams.predictedUs = predictedUs;
    MenuReasoning &r = *m_rec;
    const std::uint32_t *window = r.intervalsUs.data(); // the ring, oldest first
    const int n = m_intervalCount;
    // A steady workload feeds the ring the same measured interval again and
    // again: the window then holds the same samples, shifted, and the
    // detector would repeat its last verdict (it reads the samples as a set).
    // Only the positional masks below are recomputed.
    if (!m_lastTypicalValid || m_lastTypicalPredictedUs != predictedUs) {
        m_lastTypical = menuTypicalIntervalUnsorted(std::span<const std::uint32_t>(window, size_t(n)), m_typicalParams);
        m_lastTypicalPredictedUs = predictedUs;
        m_lastTypicalValid = true;
    }
    const MenuTypicalResult &t = m_lastTypical;
    if (!m_keepReasoning) // what follows is for the record only (keepReasoning())
        return t.us;

    // Samples never considered (at or above the first threshold) are rare:
    // only then is that mask computed.
    std::uint64_t invalid = 0;
    if (t.neverConsidered) {
        for (int k = 0; k < n; ++k)
            invalid |= std::uint64_t(std::int64_t(window[k]) >= t.firstHi) << k;
    }
    // Which samples later rounds left out. A decision in round 1 (the common
    // case) used every sample it considered: nothing was discarded.
    std::uint64_t discarded = 0;
    if (t.rounds > 1) {
        // The range test lo < v < hi as one unsigned comparison
        // (v - (lo + 1) < hi - (lo + 1)), branch-free, since it is data-dependent.
        const std::uint64_t all = n == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << n) - 1;
        const std::int64_t first = t.lo + 1;
        const std::uint64_t width = t.hi > first ? std::uint64_t(t.hi - first) : 0;
        auto inRange = [&](int k) {
            return std::uint64_t(std::uint64_t(std::int64_t(window[k]) - first) < width) << k;
        };
        std::uint64_t used = 0;
        if (n == 8) {
            for (int k = 0; k < 8; ++k) // the kernel's size: a fixed count the compiler unrolls
                used |= inRange(k);
        } else {
            for (int k = 0; k < n; ++k)
                used |= inRange(k);
        }
        discarded = all & ~used & ~invalid;
    }
    r.discardedMask = discarded;
    r.invalidMask = invalid;
    r.rounds = t.rounds;
    r.typical = t.kind;
    r.typicalUs = t.us;
    r.avgUs = t.avg;
    r.varianceUs2 = t.variance;
    r.minUs = t.min;
    r.maxUs = t.max;
    r.divisor = t.divisor;
    return t.us;
}

bool MenuGovernor::trWithin(Ns targetResidency, Ns delta) const
{
    // "TR <= delta_tick": s64 on both sides since v5.13; before that the
    // target residency was u64, so a negative ktime compared as huge.
    if (m_opt.clampNegativeSleep)
        return targetResidency <= delta;
    return std::uint64_t(targetResidency) <= std::uint64_t(delta);
}

bool MenuGovernor::overrideAllowed(const IdleState &s, Ns predictedNs, Ns latencyReq, Ns residencyThreshold)
{
    // The guards of the "first non-polling state" rule by version; the
    // first one that fails is recorded for the explanation.
    MenuReasoning &r = *m_rec;
    if (!m_opt.pollingOverride) {
        r.overrideBlock = OverrideBlock::Disabled;
        return false;
    }
    if (m_opt.overrideNeedsLatency && s.exitLatencyNs > latencyReq) {
        r.overrideBlock = OverrideBlock::LatencyLimit;
        return false;
    }
    if (m_opt.overrideNeedsResidencyThreshold && s.targetResidencyNs >= residencyThreshold) {
        r.overrideBlock = OverrideBlock::ResidencyThreshold;
        return false;
    }
    if (std::uint64_t(s.targetResidencyNs) > m_nextTimerNs) {
        r.overrideBlock = OverrideBlock::NextTimer;
        return false;
    }
    if (m_opt.overrideNeedsExitLatencyWithinPrediction && std::uint64_t(s.exitLatencyNs) > std::uint64_t(predictedNs)) {
        r.overrideBlock = OverrideBlock::ExitLatency;
        return false;
    }
    r.overrideBlock = OverrideBlock::None;
    return true;
}

MENU_STEP MenuGovernor::LoopResult MenuGovernor::stateLoop(const IdleStateTable &drv, const SelectContext &ctx,
                                                           const Plan &plan, Ns deltaTick)
{
    // Steps 5–7. predicted_ns is u64 in the kernel; every value it can take
    // here is below 2^63, so the comparisons below are done on u64 copies.
    MenuReasoning &r = *m_rec;
    const Ns latencyReq = plan.latencyReqNs;
    LoopResult l{-1, static_cast<Ns>(plan.predictedNs), false};
    r.loopEnd = LoopEnd::AllFit;
    for (int i = 0; i < drv.count(); ++i) {
        const IdleState &s = drv[i];
        if (s.disabled)
            continue;
        if (l.idx == -1)
            l.idx = i; // first enabled state

        // v6.17-rc3+: the exit latency limit is checked before anything else.
        if (m_opt.latencyFirst && s.exitLatencyNs > latencyReq)
            return loopStop(l, LoopEnd::Latency, i);
        if (std::uint64_t(s.targetResidencyNs) > std::uint64_t(l.predictedNs))
            return residencyStop(drv, ctx, l, i, latencyReq, deltaTick);
        if (!m_opt.latencyFirst && s.exitLatencyNs > latencyReq)
            return loopStop(l, LoopEnd::Latency, i);
        l.idx = i;
    }
    if (l.idx < 0)
        l.idx = 0; // no states enabled: must use 0
    return l;
}

MenuGovernor::LoopResult MenuGovernor::loopStop(LoopResult l, LoopEnd end, int stopIdx)
{
    m_rec->loopEnd = end;
    m_rec->loopStopIdx = stopIdx;
    return l;
}

MENU_STEP MenuGovernor::LoopResult MenuGovernor::residencyStop(const IdleStateTable &drv, const SelectContext &ctx,
                                                               LoopResult l, int i, Ns latencyReq, Ns deltaTick)
{
    // The first state whose target residency exceeds predicted_ns.
    MenuReasoning &r = *m_rec;
    const IdleState &s = drv[i];
    const Ns tick = ctx.tickNsec;
    r.loopStopIdx = i;
    // Step 7: a physical state instead of busy polling when it fits before
    // the next timer.
    if (drv[l.idx].polling) {
        if (overrideAllowed(s, l.predictedNs, latencyReq, m_residencyThresholdNs)) {
            r.path = Path::PollingOverride;
            r.loopEnd = LoopEnd::Residency;
            return LoopResult{i, s.targetResidencyNs, false};
        }
        if (r.overrideBlock == OverrideBlock::ResidencyThreshold)
            r.path = Path::ResidencyThreshold;
    }
    if (std::uint64_t(l.predictedNs) < std::uint64_t(tick)) {
        r.loopEnd = LoopEnd::Residency;
        return l;
    }
    if (!ctx.tickStopped) {
        // Step 6, tick running: a shallow state is fine, the tick will let
        // the governor run again; make the tick be kept.
        r.loopEnd = LoopEnd::ShallowKeepTick;
        return LoopResult{l.idx, drv[l.idx].targetResidencyNs, false};
    }
    // Step 6, tick stopped: do not get stuck in a shallow state.
    r.loopEnd = LoopEnd::TickStopped;
    if (drv[l.idx].targetResidencyNs < tick && trWithin(s.targetResidencyNs, deltaTick)) {
        l.idx = i;
        r.path = Path::TickStoppedDeeper;
    }
    l.returned = true;
    return l;
}

int MenuGovernor::tickKeptDemotion(const IdleStateTable &drv, int idx, Ns deltaTick) const
{
    // The tick stays, so the state must fit before it: walk down to the
    // first enabled state that does (the shallowest enabled one otherwise).
    for (int i = idx - 1; i >= 0; --i) {
        if (drv[i].disabled)
            continue;
        idx = i;
        if (trWithin(drv[i].targetResidencyNs, deltaTick))
            break;
    }
    return idx;
}

MENU_STEP void MenuGovernor::startRecord(const SelectContext &ctx)
{
    MenuReasoning &r = *m_rec;
    r.updated = false;
    r.timerQueried = false;
    r.stoppedTickReplaced = false;
    r.safeTimerKept = false;
    r.safeTimerRangeRule = m_opt.safeTimerRange;
    r.path = Path::MainLoop;
    r.loopEnd = LoopEnd::NotRun;
    r.loopStopIdx = -1;
    r.overrideBlock = OverrideBlock::None;
    r.tickStopped = ctx.tickStopped;
    r.latencyReqInputNs = ctx.latencyReqNs;
}

Selection MenuGovernor::coreSingleState()
{
    // v7.0: cpuidle_select() does not consult the governor for one state.
    MenuReasoning &r = *m_rec;
    r.path = Path::CoreSingleState;
    r.rounds = 0;
    r.candidateIdx = r.chosenIdx = 0;
    r.stopTick = false;
    r.predictedNs = r.predictedInitialNs = -1;
    return Selection{0, false, -1};
}

MENU_STEP void MenuGovernor::learn(const IdleStateTable &drv, const CpuidleDevice &dev, Ns tickNsec)
{
    // Step 1: menu_update() when reflect asked for it.
    if (m_needsUpdate) {
        update(drv, dev, tickNsec);
        m_needsUpdate = false;
    } else if (m_opt.invalidIntervalsFix && dev.lastResidencyNs == 0) {
        // The previous selection was not entered: make the detector see it.
        appendInterval(UINT_MAX_U32);
        MenuReasoning &r = *m_rec;
        r.updated = true;
        r.measuredKind = Measured::Invalid;
        r.lastResidencyNs = 0;
        r.measuredNs = 0;
        r.measuredClamped = false;
        r.storedUs = UINT_MAX_U32;
    }
}

MENU_STEP MenuGovernor::TimerQuery MenuGovernor::queryTimer(const SelectContext &ctx)
{
    // tick_nohz_get_sleep_length(), its bucket and the corrected prediction.
    Ns delta = ctx.sleepLengthNs;
    TimerQuery q{0, ctx.deltaNextNs};
    if (m_opt.clampNegativeSleep && delta < 0) {
        delta = 0;
        q.deltaTickNs = 0;
    }
    m_nextTimerNs = std::uint64_t(delta);
    m_bucket = whichBucket(m_nextTimerNs);
    // Rounded to the closest us; the u64 product wraps for sleep lengths
    // beyond ~26 days and the quotient is cut to an unsigned int.
    const std::uint32_t factor = m_correction[size_t(m_bucket)];
    q.timerUs = static_cast<std::uint32_t>((TIMER_US_DIVISOR / 2 + m_nextTimerNs * factor) / TIMER_US_DIVISOR);
    MenuReasoning &r = *m_rec;
    r.timerQueried = true;
    r.correctionFactor = factor;
    r.timerUs = q.timerUs;
    return q;
}

MENU_STEP MenuGovernor::Prediction MenuGovernor::predictTypicalFirst(const SelectContext &ctx)
{
    // Step 2, v6.6+: the typical interval, and the timer only when it is long.
    const Ns tick = ctx.tickNsec;
    const bool stopped = ctx.tickStopped;
    std::uint64_t predicted = std::uint64_t(typicalInterval(UINT_MAX_U32)) * NSEC_PER_USEC;
    if (predicted <= std::uint64_t(m_residencyThresholdNs) && !(m_opt.alwaysQueryWhenTickStopped && stopped)) {
        // A short typical interval: assume no timer (KTIME_MAX) and the tick
        // half a period away.
        m_nextTimerNs = std::uint64_t(KTIME_MAX);
        m_bucket = whichBucket(m_nextTimerNs);
        m_rec->correctionFactor = m_correction[size_t(m_bucket)];
        m_rec->timerUs = 0;
        return Prediction{predicted, tick / 2, true};
    }
    const TimerQuery q = queryTimer(ctx);
    predicted = std::min(std::uint64_t(q.timerUs) * NSEC_PER_USEC, predicted);
    // v7.0+: step 4's stopped tick rule, here.
    if (m_opt.alwaysQueryWhenTickStopped && stopped && predicted < std::uint64_t(tick))
        predicted = stoppedTickPrediction(predicted, tick);
    return Prediction{predicted, q.deltaTickNs, true};
}

MENU_STEP bool MenuGovernor::state0Anyway(const IdleStateTable &drv, Ns latencyReq) const
{
    // Step 3: a single state, no latency allowed, or state 1 too long for
    // the next timer or too slow for the limit (with state 0 enabled).
    const bool single = !m_opt.coreHandlesSingleState && drv.count() <= 1;
    return single || latencyReq == 0
           || ((m_nextTimerNs < std::uint64_t(drv[1].targetResidencyNs) || latencyReq < drv[1].exitLatencyNs)
               && !drv[0].disabled);
}

MENU_STEP Selection MenuGovernor::earlyState0(const IdleStateTable &drv, const Prediction &p, Ns latencyReq)
{
    MenuReasoning &r = *m_rec;
    if (!p.known) {
        // v5.x: the typical interval was never computed.
        r.rounds = 0;
        r.typical = MenuReasoning::Typical::NoSamples;
        r.typicalUs = UINT_MAX_U32;
        r.discardedMask = r.invalidMask = 0;
    }
    const Ns shown = p.known ? static_cast<Ns>(p.predictedNs) : -1;
    r.path = Path::EarlyState0;
    r.predictedInitialNs = r.predictedNs = shown;
    r.latencyReqNs = latencyReq;
    r.candidateIdx = r.chosenIdx = 0;
    r.stopTick = !drv[0].polling;
    return Selection{0, r.stopTick, shown};
}

MENU_STEP MenuGovernor::Plan MenuGovernor::stoppedTickRule(std::uint64_t predicted, const SelectContext &ctx,
                                                           Ns deltaTick)
{
    // Step 4 (before v7.0, which does it in step 2).
    Plan plan{predicted, ctx.latencyReqNs};
    if (m_opt.alwaysQueryWhenTickStopped)
        return plan;
    if (ctx.tickStopped) {
        if (predicted < std::uint64_t(ctx.tickNsec)) {
            plan.predictedNs = m_opt.clampNegativeSleep ? m_nextTimerNs : std::uint64_t(deltaTick);
            m_rec->stoppedTickReplaced = true;
        }
    } else if (!m_opt.latencyFirst && std::uint64_t(plan.latencyReqNs) > predicted) {
        // The performance multiplier (1 with no iowaiters) bounds the exit
        // latency by the predicted idle duration.
        plan.latencyReqNs = static_cast<Ns>(predicted);
    }
    return plan;
}

MENU_STEP MenuGovernor::TickChoice MenuGovernor::tickDecision(const IdleStateTable &drv, const SelectContext &ctx,
                                                              const LoopResult &l, Ns deltaTick)
{
    // Step 8: keep the tick for polling or a short prediction, and then fit
    // the state before the tick.
    if (l.returned || ctx.tickStopped
        || !(drv[l.idx].polling || std::uint64_t(l.predictedNs) < std::uint64_t(ctx.tickNsec)))
        return TickChoice{l.idx, true};
    TickChoice t{l.idx, false};
    if (t.idx > 0 && !trWithin(drv[t.idx].targetResidencyNs, deltaTick)) {
        t.idx = tickKeptDemotion(drv, t.idx, deltaTick);
        if (t.idx != l.idx)
            m_rec->path = Path::TickKeptDemotion;
    }
    return t;
}

Selection MenuGovernor::select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx)
{
    MenuReasoning &r = *m_rec;
    startRecord(ctx);
    if (m_opt.coreHandlesSingleState && drv.count() <= 1)
        return coreSingleState();

    // Step 1: learn from the previous entry.
    learn(drv, dev, ctx.tickNsec);

    // Step 2: v6.6+ predict and maybe query; v5.x query only (the typical
    // interval needs the timer prediction and comes after step 3).
    const Prediction p = m_opt.typicalFirst ? predictTypicalFirst(ctx) : predictTimerFirst(ctx);
    r.nextTimerNs = static_cast<Ns>(m_nextTimerNs);
    r.deltaTickNs = p.deltaTickNs;
    r.bucket = m_bucket;

    // Step 3: state 0 will be used no matter what.
    if (state0Anyway(drv, ctx.latencyReqNs))
        return earlyState0(drv, p, ctx.latencyReqNs);
    return selectDeeper(drv, ctx, p);
}

Selection MenuGovernor::selectDeeper(const IdleStateTable &drv, const SelectContext &ctx, Prediction p)
{
    MenuReasoning &r = *m_rec;
    if (!p.known)
        p.predictedNs = typicalAfterTimer(); // v5.x: step 2's prediction, after step 3

    // Step 4.
    const Plan plan = stoppedTickRule(p.predictedNs, ctx, p.deltaTickNs);
    r.predictedInitialNs = static_cast<Ns>(plan.predictedNs);
    r.latencyReqNs = plan.latencyReqNs;

    // Steps 5–7, then step 8.
    const LoopResult l = stateLoop(drv, ctx, plan, p.deltaTickNs);
    r.candidateIdx = l.idx;
    const TickChoice t = tickDecision(drv, ctx, l, p.deltaTickNs);

    r.predictedNs = l.predictedNs;
    r.chosenIdx = t.idx;
    r.stopTick = t.stopTick;
    // The caller sees menu's own prediction: the loop's re-assignments of
    // predicted_ns (a target residency, to steer the tick decision) are not
    // a prediction; the record keeps both.
    return Selection{t.idx, t.stopTick, r.predictedInitialNs};
}

void MenuGovernor::reflect(const IdleStateTable &, CpuidleDevice &dev, int index)
{
    // menu_reflect(): record only; the learning happens at the next select.
    dev.lastStateIdx = index;
    m_needsUpdate = true;
    m_tickWakeup = dev.tickNohzIdleGotTick();
}

// ---- Tunables ------------------------------------------------------------------

std::span<const TunableRow<MenuGovernor>> MenuGovernor::tunableRows()
{
    using G = MenuGovernor;
    static constexpr TunableRow<G> rows[] = {
        {{"INTERVALS", "Recent idle durations the repeating-pattern detector looks at", "samples", 8, 1,
          MENU_MAX_INTERVALS},
         [](const G &g) -> std::int64_t { return g.m_intervalCount; },
         [](G &g, std::int64_t v) {
             if (v == g.m_intervalCount)
                 return;
             // A different ring size is a different kernel build: start empty.
             g.m_intervalCount = static_cast<int>(v);
             g.m_intervals.fill(0);
             g.m_rec->intervalsUs.fill(0);
             g.m_intervalPtr = 0;
         }},
        {{"STDDEV_RATIO", "A pattern is accepted when the average exceeds this many standard deviations", "ratio", 6, 1,
          1000},
         [](const G &g) -> std::int64_t { return g.m_stddevRatio; },
         [](G &g, std::int64_t v) {
             g.m_stddevRatio = v;
             g.m_typicalParams.setRatio(std::uint64_t(v));
         }},
        {{"STDDEV_MAX_US", "A pattern is always accepted when the standard deviation is at most this", "us", 20, 0,
          1000000},
         [](const G &g) -> std::int64_t { return g.m_stddevMaxUs; },
         [](G &g, std::int64_t v) {
             g.m_stddevMaxUs = v;
             g.m_typicalParams.stddevMaxSq = std::uint64_t(v) * std::uint64_t(v);
         }},
        {{"RESIDENCY_THRESHOLD_NS", "Typical intervals up to this skip the timer query; v6.19+ override only below it",
          "ns", RESIDENCY_THRESHOLD_NS, 0, 100000000},
         [](const G &g) -> std::int64_t { return g.m_residencyThresholdNs; },
         [](G &g, std::int64_t v) { g.m_residencyThresholdNs = v; }},
    };
    return rows;
}

std::span<const TunableInfo> MenuGovernor::tunables() const
{
    // RESIDENCY_THRESHOLD_NS exists from v6.6 (gov.h); v5.x menu has no use for it.
    static const auto infos = tunableInfos<4>(tunableRows());
    return std::span<const TunableInfo>(infos.data(), m_opt.typicalFirst ? 4 : 3);
}

bool MenuGovernor::setTunable(std::string_view name, std::int64_t value, std::string *error)
{
    if (!TableTunableGovernor::setTunable(name, value, error))
        return false;
    m_lastTypicalValid = false; // the window or the detector's thresholds changed
    recordConfig();
    return true;
}

} // namespace idlescope
