// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/source_consent.h"

#include "core/common/input_file.h"
#include "core/common/sha256.h"

#include <filesystem>
#include <mutex>
#include <set>

namespace idlescope::source_governor {

namespace {

/// The grants, for every thread that builds (the window's workers).
struct Consents {
    std::mutex mutex;
    bool required = false;
    std::set<std::string> paths;
    std::set<std::string> hashes;
};

Consents &consents()
{
    static Consents c;
    return c;
}

std::string absolutePath(const std::string &path)
{
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(path, ec).lexically_normal();
    return ec ? path : p.string();
}

} // namespace

void requireSourceConsent(bool on)
{
    std::lock_guard lock(consents().mutex);
    consents().required = on;
}

bool sourceConsentRequired()
{
    std::lock_guard lock(consents().mutex);
    return consents().required;
}

void grantSourcePath(const std::string &path)
{
    const std::string p = absolutePath(path);
    std::lock_guard lock(consents().mutex);
    consents().paths.insert(p);
}

void grantSourceHash(const std::string &sha256Hex)
{
    std::lock_guard lock(consents().mutex);
    consents().hashes.insert(sha256Hex);
}

void forgetSourceConsents()
{
    std::lock_guard lock(consents().mutex);
    consents().paths.clear();
    consents().hashes.clear();
}

bool sourceConsented(const std::string &path, const std::string &text)
{
    const std::string p = absolutePath(path);
    {
        std::lock_guard lock(consents().mutex);
        if (!consents().required || consents().paths.contains(p))
            return true;
    }
    const std::string hash = sha256Hex(text);
    std::lock_guard lock(consents().mutex);
    return consents().hashes.contains(hash);
}

Result<std::string> sourceFileSha256(const std::string &path)
{
    // The build's own cap (source_build.cpp): a larger file is no governor.
    Result<std::string> text = readInputFile(path, std::size_t{64} << 20, "a governor source");
    if (!text)
        return text.error();
    return sha256Hex(*text);
}

} // namespace idlescope::source_governor
