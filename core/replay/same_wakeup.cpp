// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/replay/same_wakeup.h"

#include <algorithm>
#include <cstddef>

namespace idlescope {

std::int64_t sameWakeupEntry(const GovernorRun &before, std::int64_t entry, const GovernorRun &now)
{
    if (entry < 0 || entry >= static_cast<std::int64_t>(before.size()))
        return -1;
    const auto i = static_cast<std::size_t>(entry);
    const std::int32_t span = before.span[i];
    std::size_t first = i;
    while (first > 0 && before.span[first - 1] == span)
        --first;
    // A run's span column ascends: the span's entries in now are one range of it.
    const auto [lo, hi] = std::equal_range(now.span.begin(), now.span.end(), span);
    if (lo == hi)
        return -1;
    const auto offset = std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(i - first), hi - lo - 1);
    return static_cast<std::int64_t>((lo - now.span.begin()) + offset);
}

} // namespace idlescope
