// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/states/power_model.h"

#include <cmath>
#include <cstdlib>

namespace idlescope {

bool PowerModel::hasIdlePower() const
{
    if (states.empty())
        return false;
    for (const StatePower &s : states)
        if (!std::isfinite(s.powerMw))
            return false;
    return true;
}

bool PowerModel::hasActivePower() const
{
    return std::isfinite(activeMw);
}

PowerModel PowerModel::empty(const IdleStateTable &table)
{
    PowerModel m;
    m.states.resize(static_cast<size_t>(table.count()));
    return m;
}

Status checkPowerValue(double value, const std::string &file, std::int64_t line, const std::string &field)
{
    if (!std::isfinite(value))
        return Error{file, line, field, "must be a finite number (got NaN or infinity)"};
    if (value < 0)
        return Error{file, line, field, "must not be negative"};
    if (value > 1.0e9)
        return Error{file, line, field, "out of range (above 1e9)"};
    return Ok{};
}

Status applyPowerOption(PowerModel &model, const IdleStateTable &table, const std::string &item)
{
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
        return Error{"power", 0, item, "expected STATE=VALUEmW, STATE=VALUEuJ or active=VALUEmW"};
    const std::string name = item.substr(0, eq);
    const std::string value = item.substr(eq + 1);
    // The unit is part of the value so that a power is never read as an energy.
    std::string unit;
    if (value.size() > 2 && (value.ends_with("mW") || value.ends_with("uJ")))
        unit = value.substr(value.size() - 2);
    if (unit.empty())
        return Error{"power", 0, name,
                     "'" + value
                         + "' has no unit: write it as NUMBERmW (power) or NUMBERuJ "
                           "(entry+exit energy)"};
    const std::string number = value.substr(0, value.size() - 2);
    char *end = nullptr;
    const double v = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size())
        return Error{"power", 0, name, "'" + number + "' is not a number"};
    if (Status s = checkPowerValue(v, "power", 0, name); !s)
        return s;
    if (model.states.size() != static_cast<size_t>(table.count()))
        model.states.resize(static_cast<size_t>(table.count()));
    if (name == "active") {
        if (unit != "mW")
            return Error{"power", 0, name, "the active power is in mW"};
        model.activeMw = v;
        return Ok{};
    }
    for (int i = 0; i < table.count(); ++i)
        if (table[i].name == name) {
            StatePower &sp = model.states[static_cast<size_t>(i)];
            (unit == "mW" ? sp.powerMw : sp.entryExitUj) = v;
            return Ok{};
        }
    std::string names;
    for (const IdleState &s : table.states)
        names += (names.empty() ? "" : ", ") + s.name;
    return Error{"power", 0, name, "no such state in table " + table.id + " (states: " + names + ", or active)"};
}

} // namespace idlescope
