// SPDX-License-Identifier: GPL-3.0-or-later
// Words for the haltpoll reasoning record (placeholder until the haltpoll family lands).
#include "core/governors/explain.h"

namespace idlescope {

std::string describeHaltpoll(const HaltpollReasoning &r) { return "chosen=" + std::to_string(r.chosenIdx); }

std::vector<std::string> explainHaltpoll(const HaltpollReasoning &r, const IdleStateTable &drv)
{
    return {"haltpoll chose " + drv[r.chosenIdx].name + "."};
}

} // namespace idlescope
