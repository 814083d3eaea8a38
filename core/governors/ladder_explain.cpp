// SPDX-License-Identifier: GPL-3.0-or-later
// Words for the ladder reasoning record (placeholder until the ladder family lands).
#include "core/governors/explain.h"

namespace idlescope {

std::string describeLadder(const LadderReasoning &r) { return "chosen=" + std::to_string(r.chosenIdx); }

std::vector<std::string> explainLadder(const LadderReasoning &r, const IdleStateTable &drv)
{
    return {"ladder chose " + drv[r.chosenIdx].name + "."};
}

} // namespace idlescope
