// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/replay/governor_factory.h"

#include "core/governors/registry.h"
#include "core/source_governor/source_governor.h"

namespace idlescope {

std::unique_ptr<Governor> createGovernor(std::string_view id)
{
    if (isSourceGovernorId(id)) // "src:FILE.c": a governor built from source
        return makeSourceGovernor(id);
    return createBuiltinGovernor(id);
}

} // namespace idlescope
