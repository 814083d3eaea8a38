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

#include <string>
#include <vector>

namespace idlescope {

/// One line, "key=value ..." of the record's fields.
std::string describeReasoning(const Reasoning &r);

/// Sentences that explain the decision, naming states from @p drv.
std::vector<std::string> explainReasoning(const Reasoning &r, const IdleStateTable &drv);

// Per-family halves, each defined beside its governor.
std::string describeMenu(const MenuReasoning &r);
std::vector<std::string> explainMenu(const MenuReasoning &r, const IdleStateTable &drv);
std::string describeTeo(const TeoReasoning &r);
std::vector<std::string> explainTeo(const TeoReasoning &r, const IdleStateTable &drv);
/// teo-5.13 records (TeoReasoning::legacy); describeReasoning/explainReasoning route them here.
std::string describeTeoLegacy(const TeoReasoning &r);
std::vector<std::string> explainTeoLegacy(const TeoReasoning &r, const IdleStateTable &drv);
std::string describeLadder(const LadderReasoning &r);
std::vector<std::string> explainLadder(const LadderReasoning &r, const IdleStateTable &drv);
std::string describeHaltpoll(const HaltpollReasoning &r);
std::vector<std::string> explainHaltpoll(const HaltpollReasoning &r, const IdleStateTable &drv);
std::string describeOracle(const OracleReasoning &r);
std::vector<std::string> explainOracle(const OracleReasoning &r, const IdleStateTable &drv);

/// "12.5 us", "3 ms", "120 ns": a duration for people.
std::string formatDuration(Ns ns);

} // namespace idlescope
