// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/source_consent.h"

#include "core/common/input_file.h"
#include "core/common/sha256.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>

namespace idlescope::source_governor {

namespace {

/// The build's own cap (source_build.cpp): a larger file is no governor.
constexpr std::size_t MAX_SOURCE_BYTES = std::size_t{64} << 20;

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

bool sourceConsented(const std::string &path, const std::string &sha256Hex)
{
    const std::string p = absolutePath(path);
    std::lock_guard lock(consents().mutex);
    return !consents().required || consents().paths.contains(p) || consents().hashes.contains(sha256Hex);
}

std::vector<SourceHeader> sourceHeaders(const std::string &sourcePath)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path source = fs::absolute(fs::path(sourcePath), ec);
    std::vector<SourceHeader> headers;
    for (const auto &e : fs::directory_iterator(source.parent_path(), ec)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".h" || name == source.filename().string()
            || name.find_first_of("\n\\") != std::string::npos)
            continue;
        // Read as any input: a FIFO named x.h is refused, never waited on.
        if (Result<std::string> text = readInputFile(e.path().string(), MAX_SOURCE_BYTES, "a governor header"))
            headers.push_back({name, std::move(*text)});
    }
    std::sort(headers.begin(), headers.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
    return headers;
}

std::string sourceConsentHash(const std::string &sourceName, const std::string &text,
                              const std::vector<SourceHeader> &headers)
{
    if (headers.empty())
        return sha256Hex(text);
    // sha256sum's own lines: "HASH  NAME", two spaces (text mode).
    std::string listing = sha256Hex(text) + "  " + sourceName + "\n";
    for (const SourceHeader &h : headers)
        listing += sha256Hex(h.text) + "  " + h.name + "\n";
    return sha256Hex(listing);
}

Result<std::string> sourceFileSha256(const std::string &path)
{
    Result<std::string> text = readInputFile(path, MAX_SOURCE_BYTES, "a governor source");
    if (!text)
        return text.error();
    return sourceConsentHash(std::filesystem::path(path).filename().string(), *text, sourceHeaders(path));
}

} // namespace idlescope::source_governor
