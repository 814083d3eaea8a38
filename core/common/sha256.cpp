// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <cstdio>

namespace idlescope {

std::string sha256Hex(std::string_view data)
{
    // OpenSSL's libcrypto, not a digest of our own: a content hash that
    // gates running code must be the one sha256sum prints.
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1)
        return {};
    std::string hex;
    hex.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        char two[3];
        std::snprintf(two, sizeof two, "%02x", digest[i]);
        hex += two;
    }
    return hex;
}

} // namespace idlescope
