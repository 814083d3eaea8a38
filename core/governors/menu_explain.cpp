// SPDX-License-Identifier: GPL-3.0-or-later
// Words for the menu reasoning record (placeholder until the menu family lands).
#include "core/governors/explain.h"

namespace idlescope {

std::string describeMenu(const MenuReasoning &r) { return "chosen=" + std::to_string(r.chosenIdx); }

std::vector<std::string> explainMenu(const MenuReasoning &r, const IdleStateTable &drv)
{
    return {"menu chose " + drv[r.chosenIdx].name + "."};
}

} // namespace idlescope
