// SPDX-License-Identifier: GPL-3.0-or-later
// Words for the teo reasoning record (placeholder until the teo family lands).
#include "core/governors/explain.h"

namespace idlescope {

std::string describeTeo(const TeoReasoning &r) { return "chosen=" + std::to_string(r.chosenIdx); }

std::vector<std::string> explainTeo(const TeoReasoning &r, const IdleStateTable &drv)
{
    return {"teo chose " + drv[r.chosenIdx].name + "."};
}

} // namespace idlescope
