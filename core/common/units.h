// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file units.h
 * Checked unit conversions for input values. A microsecond count read from a
 * file and multiplied into nanoseconds can overflow int64, and the wrapped
 * result looks like an ordinary value (2305843009213694852 us wraps to
 * 900 us): every conversion of read input goes through these.
 */
#pragma once

#include "core/common/kernel_types.h"

#include <optional>

namespace idlescope {

/// @p us microseconds in nanoseconds, or nullopt when that does not fit in Ns.
constexpr std::optional<Ns> usToNs(std::int64_t us)
{
    Ns ns = 0;
    if (__builtin_mul_overflow(us, NSEC_PER_USEC, &ns))
        return std::nullopt;
    return ns;
}

} // namespace idlescope
