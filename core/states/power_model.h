// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file power_model.h
 * Optional power data for one idle-state table: per state the power drawn
 * while in it (mW) and the energy of one entry plus exit (uJ), and the power
 * of the CPU while it runs (active, mW). Values the user or a public source
 * did not give stay NaN ("no power data"): energy is only ever computed from
 * numbers somebody stated, never from guesses.
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"

#include <limits>
#include <string>
#include <vector>

namespace idlescope {

inline constexpr double NO_POWER_DATA = std::numeric_limits<double>::quiet_NaN();

/// Power data of one idle state.
struct StatePower {
    double powerMw = NO_POWER_DATA; ///< power while in the state
    double entryExitUj = 0.0;       ///< energy of one entry plus its exit (0 when not given)
};

struct PowerModel {
    std::vector<StatePower> states;  ///< index = table state
    double activeMw = NO_POWER_DATA; ///< power while not idle
    std::string source;              ///< where the numbers come from

    /// True when every state has a power: energy can be computed.
    bool hasIdlePower() const;
    bool hasActivePower() const;
    /// Sized for @p table with no data.
    static PowerModel empty(const IdleStateTable &table);
};

/**
 * Applies one power item (idlescope-cli's --power) to @p model of @p table: "STATE=VALUEmW" (power
 * while in STATE), "STATE=VALUEuJ" (entry+exit energy) or "active=VALUEmW".
 * Errors (named "power", the item's state as the field): no '=', an unknown state, a missing or unknown
 * unit, a negative, NaN or non-numeric value.
 */
Status applyPowerOption(PowerModel &model, const IdleStateTable &table, const std::string &item);

/// Checks one power number: finite and >= 0 (Error names @p file, @p line and @p field).
Status checkPowerValue(double value, const std::string &file, std::int64_t line, const std::string &field);

} // namespace idlescope
