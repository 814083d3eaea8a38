// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/series_lod.h"

#include <algorithm>

namespace idlescope {

StateLod::StateLod(std::span<const std::int8_t> states, std::span<const Ns> durations)
{
    auto chunks = std::make_shared<std::vector<StateSummary>>((states.size() + CHUNK - 1) / CHUNK);
    for (std::size_t i = 0; i < states.size(); ++i) {
        const int s = std::clamp<int>(states[i], 0, CPUIDLE_STATE_MAX - 1);
        (*chunks)[i / CHUNK].add(s, durations.empty() ? 1 : std::max<Ns>(durations[i], 0));
    }
    m_chunks = std::move(chunks);
}

} // namespace idlescope
