// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file tunable_check.h
 * The one place a governor's setTunable() checks a name and a range, so that
 * every family words its errors the same way: "unknown parameter 'X' for
 * ladder-latest (known: A, B)" or "PROMOTION_COUNT = 0 is out of range 1..1000
 * for ladder-latest". Allocates only on error.
 */
#pragma once

#include "core/governors/governor.h"

#include <span>
#include <string>
#include <string_view>

namespace idlescope {

/// The TunableInfo named @p name, or nullptr (with @p error set) if unknown
/// or if @p value lies outside [minValue, maxValue].
inline const TunableInfo *checkTunable(std::span<const TunableInfo> known, std::string_view name,
                                       std::int64_t value, const char *variantId,
                                       std::string *error)
{
    for (const TunableInfo &t : known) {
        if (name != t.name)
            continue;
        if (value < t.minValue || value > t.maxValue) {
            if (error)
                *error = std::string(t.name) + " = " + std::to_string(value) + " is out of range "
                         + std::to_string(t.minValue) + ".." + std::to_string(t.maxValue) + " for "
                         + variantId + " (kernel default " + std::to_string(t.kernelDefault) + ")";
            return nullptr;
        }
        return &t;
    }
    if (error) {
        *error = "unknown parameter '" + std::string(name) + "' for " + variantId;
        std::string list;
        for (const TunableInfo &t : known)
            list += (list.empty() ? "" : ", ") + std::string(t.name);
        *error += list.empty() ? " (it has no parameters)" : " (known: " + list + ")";
    }
    return nullptr;
}

} // namespace idlescope
