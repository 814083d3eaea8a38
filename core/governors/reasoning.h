// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file reasoning.h
 * The reasoning record a governor leaves for its last select(): what it
 * computed on the way to the decision. One fixed-size struct per family,
 * held in a std::variant so that no decision allocates. The GUI's episode
 * inspector turns it into sentences (explain.h).
 */
#pragma once

#include "core/governors/haltpoll_reasoning.h"
#include "core/governors/ladder_reasoning.h"
#include "core/governors/menu_reasoning.h"
#include "core/governors/oracle_reasoning.h"
#include "core/governors/teo_reasoning.h"

#include <variant>

namespace idlescope {

using Reasoning =
    std::variant<std::monostate, MenuReasoning, TeoReasoning, LadderReasoning, HaltpollReasoning, OracleReasoning>;

} // namespace idlescope
