// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file sha256.h
 * SHA-256 (FIPS 180-4) of a byte string, as lowercase hex: the content hash a
 * user is shown before idlescope builds and runs a source file, the same
 * `sha256sum` prints, so that it can be checked by hand.
 */
#pragma once

#include <string>
#include <string_view>

namespace idlescope {

/// The SHA-256 digest of @p data, 64 lowercase hex digits.
std::string sha256Hex(std::string_view data);

} // namespace idlescope
