// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file tunable_setting.h
 * The text form of a tunable setting, "[GOVERNOR:]NAME=VALUE" (the CLI's
 * --set, compare's per-governor settings), parsed in one place.
 */
#pragma once

#include "core/common/error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope {

/// One parsed "[GOVERNOR:]NAME=VALUE".
struct TunableSettingText {
    std::string governor; ///< the variant id before ':', empty: every governor that has NAME
    std::string name;
    std::int64_t value = 0;
};

/**
 * Parses @p text. VALUE is a decimal integer (spaces around it allowed).
 * Errors name @p source (where the text came from, e.g. "set") as the
 * file, and as the field the text when it has no '=', else NAME.
 */
Result<TunableSettingText> parseTunableSetting(std::string_view text, std::string_view source = {});

/// Every item of @p texts parsed, in order. The same [GOVERNOR:]NAME given twice is refused
/// (one of the two values would be dropped without a word); NAME and GOVERNOR:NAME are two
/// settings, applied in the order given.
Result<std::vector<TunableSettingText>> parseTunableSettings(const std::vector<std::string> &texts,
                                                             std::string_view source);

} // namespace idlescope
