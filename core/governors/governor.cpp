// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/governors/governor.h"

#include "core/governors/tunable_check.h"

namespace idlescope {

std::int64_t Governor::tunable(std::string_view name) const
{
    for (const TunableInfo &t : tunables())
        if (name == t.name)
            return t.kernelDefault;
    return 0;
}

bool Governor::setTunable(std::string_view name, std::int64_t value, std::string *error)
{
    // A family without a table: every name is unknown (or, with tunables()
    // but no override, known and still not settable).
    if (checkTunable(tunables(), name, value, variant().id, error) && error)
        *error = "parameter '" + std::string(name) + "' of " + variant().id + " cannot be set";
    return false;
}

bool Governor::atKernelDefaults() const
{
    for (const TunableInfo &t : tunables())
        if (tunable(t.name) != t.kernelDefault)
            return false;
    return true;
}

} // namespace idlescope
