// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file explain.h
 * Turning a reasoning record into words: a compact "key=value" line for test
 * failures and logs, and plain sentences for the GUI's episode inspector.
 * Allocates; never called on the replay hot path.
 */
#pragma once

#include "core/governors/reasoning.h"
#include "core/states/idle_state_table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace idlescope {

/// How durations are written: ASCII "us" (logs, terminals, test failures) or
/// "µs" (the GUI). One formatter serves both (formatDuration).
enum class UnitStyle { Ascii, Micro };

/// What the words need to know beyond the record itself.
struct ExplainContext {
    UnitStyle units = UnitStyle::Ascii;
    /// The record is of the first select() after enable(): no idle period came
    /// before it. The replay starts on a zeroed device, as the kernel's
    /// per-CPU data does (last_state_idx 0, last_residency_ns 0), so some
    /// governors still run their update step on that empty "previous entry".
    bool firstSelect = false;
};

/// One line, "key=value ..." of the record's fields.
std::string describeReasoning(const Reasoning &r);

/// Sentences that explain the decision, naming states from @p drv.
std::vector<std::string> explainReasoning(const Reasoning &r, const IdleStateTable &drv, const ExplainContext &cx = {});

/**
 * One sentence for the inspector's Decision line: what the governor expected
 * of the idle time, in each family's own terms. menu: its prediction, and the
 * value the kernel re-assigned to predicted_ns when the polling override or
 * the tick rule did so; teo (v5.14+): no prediction, what the bins pointed to
 * and the sleep length; teo-5.13: its expected duration; ladder and haltpoll:
 * no prediction; the oracle: the idle time it knew. Empty for no record.
 */
std::string expectationSentence(const Reasoning &r, const IdleStateTable &drv, const ExplainContext &cx = {});

// Per-family halves, each defined beside its governor.
std::string describeMenu(const MenuReasoning &r);
std::vector<std::string> explainMenu(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx = {});
std::string expectMenu(const MenuReasoning &r, const IdleStateTable &drv, const ExplainContext &cx = {});
std::string describeTeo(const TeoReasoning &r);
std::vector<std::string> explainTeo(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx = {});
std::string expectTeo(const TeoReasoning &r, const IdleStateTable &drv, const ExplainContext &cx = {});
/// teo-5.13 records (TeoReasoning::legacy); describeReasoning/explainReasoning route them here.
std::string describeTeoLegacy(const TeoReasoning &r);
std::vector<std::string> explainTeoLegacy(const TeoReasoning &r, const IdleStateTable &drv,
                                          const ExplainContext &cx = {});
std::string describeLadder(const LadderReasoning &r);
std::vector<std::string> explainLadder(const LadderReasoning &r, const IdleStateTable &drv,
                                       const ExplainContext &cx = {});
std::string describeHaltpoll(const HaltpollReasoning &r);
std::vector<std::string> explainHaltpoll(const HaltpollReasoning &r, const IdleStateTable &drv,
                                         const ExplainContext &cx = {});
std::string describeOracle(const OracleReasoning &r);
std::vector<std::string> explainOracle(const OracleReasoning &r, const IdleStateTable &drv,
                                       const ExplainContext &cx = {});

/// "12.5 us" / "12.5 µs", "3 ms", "120 ns", "never (KTIME_MAX)": a duration for people.
std::string formatDuration(Ns ns, UnitStyle units = UnitStyle::Ascii);
/// A whole number of microseconds (menu's 32-bit samples) the same way:
/// "100 us", "8.939 ms"; UINT_MAX reads "UINT_MAX".
std::string formatMicros(std::uint64_t us, UnitStyle units = UnitStyle::Ascii);
/// KTIME_MAX / 1000 stored in a 32-bit microsecond slot: 2,783,138,807 us (~2783 s).
/// menu records it as a recent interval when an idle time ran to "no timer pending";
/// a real kernel artefact, not an idle period anyone measured.
inline constexpr std::uint32_t KTIME_MAX_US_U32 = static_cast<std::uint32_t>(KTIME_MAX / 1000);
/// What formatMicros() adds to KTIME_MAX_US_U32, and what the inspector says of it.
inline constexpr const char *KTIME_MAX_US_NOTE = "KTIME_MAX / 1000 cut to 32 bits: the kernel's record of an "
                                                 "idle time that ran to no pending timer";
/// "1 sample" / "2 samples": @p n with the singular or plural noun.
std::string countOf(std::uint64_t n, const char *singular, const char *plural);

} // namespace idlescope
