// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The menu variants: which kernel version (or posted patch) each id
 * reproduces, as a MenuOptions value (menu_governor.h names each choice and
 * the change that introduced it). The option sets build on each other in
 * kernel order, so a version reads as the one before it plus what it
 * changed. MenuGovernor (menu_governor.cpp) runs any of them.
 */
#include "core/governors/menu_governor.h"

#include "core/governors/registry.h"

#include <memory>

namespace idlescope {

namespace {

constexpr MenuOptions v5_10()
{
    MenuOptions o;
    o.typical = MenuTypicalAlgo::G1;
    o.typicalFirst = false;
    o.clampNegativeSleep = false;
    o.buckets = 12;
    return o;
}
constexpr MenuOptions v6_6()
{
    MenuOptions o;
    o.typical = MenuTypicalAlgo::G2;
    o.buckets = 12;
    return o;
}
constexpr MenuOptions v6_14()
{
    MenuOptions o;
    o.typical = MenuTypicalAlgo::G2;
    return o;
}
constexpr MenuOptions noOverride()
{
    MenuOptions o = v6_14();
    o.pollingOverride = false;
    return o;
}
constexpr MenuOptions rft(MenuTypicalAlgo algo, bool maxOfRemaining = false)
{
    MenuOptions o = v6_14();
    o.typical = algo;
    o.maxOfRemaining = maxOfRemaining;
    return o;
}
constexpr MenuOptions v6_17()
{
    MenuOptions o = rft(MenuTypicalAlgo::TwoSided, true);
    o.invalidIntervalsFix = true;
    o.latencyFirst = true;
    o.overrideNeedsLatency = false;
    return o;
}
constexpr MenuOptions resThresh()
{
    MenuOptions o = v6_17();
    o.overrideNeedsResidencyThreshold = true;
    return o;
}
constexpr MenuOptions v6_18()
{
    MenuOptions o = v6_17();
    o.maxOfRemaining = false;
    o.overrideNeedsExitLatencyWithinPrediction = true;
    return o;
}
constexpr MenuOptions v6_19()
{
    MenuOptions o = v6_18();
    o.overrideNeedsResidencyThreshold = true;
    return o;
}
constexpr MenuOptions v7_0()
{
    MenuOptions o = v6_19();
    o.alwaysQueryWhenTickStopped = true;
    o.coreHandlesSingleState = true;
    return o;
}
constexpr MenuOptions v7_1()
{
    MenuOptions o = v7_0();
    o.safeTimerRange = true;
    return o;
}

/// One row per variant.
constexpr VariantRow<MenuOptions> kVariants[] = {
    {{"menu-5.10",
      "menu",
      "v5.10",
      {5, 10},
      "v5.5–v5.12 form: timer first, 12 buckets, iowait multiplier (1 here), old poll limit",
      PollTimeRule::V5_5,
      false},
     v5_10()},
    {{"menu-6.6",
      "menu",
      "v6.6–v6.12",
      {6, 6},
      "Typical interval first, timer skipped below 15 us, 12 buckets (iowait 0)",
      PollTimeRule::V5_11,
      false},
     v6_6()},
    {{"menu-6.14",
      "menu",
      "v6.14",
      {6, 14},
      "v6.13–v6.14 after \"Remove iowait influence\": 6 buckets, latency limited to the prediction",
      PollTimeRule::V5_11,
      false},
     v6_14()},
    {{"menu-nooverride",
      "menu",
      "v6.14 + Aboorva Devarajan v2 (Mar 2025, not merged)",
      {6, 14},
      "\"Prefer polling state for short idle durations\": the polling override deleted",
      PollTimeRule::V5_11,
      false},
     noOverride()},
    {{"menu-1",
      "menu",
      "v6.14 + RFT 1/5 (Feb 2025)",
      {6, 14},
      "\"Drop a redundant local variable\": decides as v6.14",
      PollTimeRule::V5_11,
      false},
     rft(MenuTypicalAlgo::G2)},
    {{"menu-2",
      "menu",
      "v6.14 + RFT 1–2/5 (Feb 2025)",
      {6, 14},
      "One pass for average and variance (E[v^2] - avg^2, different rounding)",
      PollTimeRule::V5_11,
      false},
     rft(MenuTypicalAlgo::OnePass)},
    {{"menu-3",
      "menu",
      "v6.14 + RFT 1–3/5 (Feb 2025)",
      {6, 14},
      "Outlier threshold starts at UINT_MAX, \">= thresh\" dropped",
      PollTimeRule::V5_11,
      false},
     rft(MenuTypicalAlgo::OnePassUintMax)},
    {{"menu-4",
      "menu",
      "v6.14 + RFT 1–4/5 (Feb 2025)",
      {6, 14},
      "Outliers eliminated on both ends of the sample set",
      PollTimeRule::V5_11,
      false},
     rft(MenuTypicalAlgo::TwoSided)},
    {{"menu-5",
      "menu",
      "v6.14 + RFT 1–5/5 (Feb 2025)",
      {6, 14},
      "\"Avoid discarding useful information\": max of >= 4 remaining samples",
      PollTimeRule::V5_11,
      false},
     rft(MenuTypicalAlgo::TwoSided, true)},
    {{"menu-6.15",
      "menu",
      "v6.15",
      {6, 15},
      "The RFT series as merged (decides as menu-5)",
      PollTimeRule::V5_11,
      false},
     rft(MenuTypicalAlgo::TwoSided, true)},
    {{"menu-6.16",
      "menu",
      "v6.16",
      {6, 16},
      "Bucket assignment optimisation for KTIME_MAX (decides as v6.15)",
      PollTimeRule::V5_11,
      false},
     rft(MenuTypicalAlgo::TwoSided, true)},
    {{"menu-6.17",
      "menu",
      "v6.17",
      {6, 17},
      "Invalid recent-interval data recorded as UINT_MAX; exit latency checked first",
      PollTimeRule::V5_11,
      false},
     v6_17()},
    {{"menu-resthresh",
      "menu",
      "v6.17 + Aboorva Devarajan v3 (Sep 2025, not merged)",
      {6, 17},
      "Polling override only for states below RESIDENCY_THRESHOLD_NS",
      PollTimeRule::V5_11,
      false},
     resThresh()},
    {{"menu-6.18",
      "menu",
      "v6.18",
      {6, 18},
      "Max-of-remaining reverted; override needs exit latency <= prediction",
      PollTimeRule::V5_11,
      false},
     v6_18()},
    {{"menu-6.19",
      "menu",
      "v6.19",
      {6, 19},
      "Override also needs target residency below 15 us (RESIDENCY_THRESHOLD_NS)",
      PollTimeRule::V5_11,
      false},
     v6_19()},
    {{"menu-latest",
      "menu",
      "v7.0",
      {7, 0},
      "Timers always checked with the tick stopped; single-state handling in the core",
      PollTimeRule::V5_11,
      true},
     v7_0()},
    {{"menu-7.1",
      "menu",
      "v7.1",
      {7, 1},
      "Stopped tick: a short prediction stands if a timer fires within 2 ticks (SAFE_TIMER_RANGE_NS)",
      PollTimeRule::V5_11,
      true},
     v7_1()},
};
constexpr auto kInfos = variantInfos(kVariants);

} // namespace

std::span<const VariantInfo> menuVariants()
{
    return kInfos;
}

const MenuOptions *menuOptionsFor(std::string_view id)
{
    for (const VariantRow<MenuOptions> &v : kVariants)
        if (id == v.info.id)
            return &v.options;
    return nullptr;
}

std::unique_ptr<Governor> makeMenuGovernor(const VariantInfo &v)
{
    const MenuOptions *o = menuOptionsFor(v.id);
    return o ? std::make_unique<MenuGovernor>(v, *o) : nullptr;
}

} // namespace idlescope
