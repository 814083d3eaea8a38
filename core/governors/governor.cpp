// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/governors/governor.h"

namespace idlescope {

std::int64_t Governor::tunable(std::string_view name) const
{
    for (const TunableInfo &t : tunables())
        if (name == t.name)
            return t.kernelDefault;
    return 0;
}

bool Governor::setTunable(std::string_view name, std::int64_t, std::string *error)
{
    if (error)
        *error = "unknown parameter '" + std::string(name) + "' for " + variant().id;
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
