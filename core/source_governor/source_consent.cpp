// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/source_consent.h"

#include "core/common/input_file.h"
#include "core/common/sha256.h"
#include "core/common/text_cells.h"

#include <algorithm>
#include <cstdio>
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

Result<std::vector<SourceHeader>> readSourceHeaders(const std::string &sourcePath)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path source = fs::absolute(fs::path(sourcePath), ec);
    // The names first, then the sizes (stat, nothing read): a folder of 500 sparse 64 MiB
    // headers was read whole to hash it (32 GB), on the window's thread.
    std::vector<std::pair<std::string, fs::path>> found;
    std::uintmax_t total = 0;
    for (const auto &e : fs::directory_iterator(source.parent_path(), ec)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".h" || name == source.filename().string() || printableFileName(name) != name)
            continue;
        // A regular file only (a link to one followed): a FIFO or a device named x.h is no
        // header, never waited on nor read.
        std::error_code sec;
        if (!e.is_regular_file(sec))
            continue;
        if (found.size() == MAX_SOURCE_HEADERS)
            return Error{sourcePath, 0, "",
                         "its folder holds more than " + std::to_string(MAX_SOURCE_HEADERS)
                             + " headers (*.h), the most a build takes beside a source file (each is hashed for "
                               "your yes and compiled with it): put the file in a folder of its own with the "
                               "headers it includes"};
        total += e.file_size(sec);
        if (total > MAX_SOURCE_HEADER_BYTES)
            return Error{sourcePath, 0, "",
                         "the headers (*.h) beside it hold more than " + std::to_string(MAX_SOURCE_HEADER_BYTES >> 20)
                             + " MiB, the most a build takes beside a source file (each is hashed for your yes "
                               "and compiled with it): put the file in a folder of its own with the headers it "
                               "includes"};
        found.emplace_back(name, e.path());
    }
    std::sort(found.begin(), found.end());
    std::vector<SourceHeader> headers;
    std::size_t budget = MAX_SOURCE_HEADER_BYTES;
    for (const auto &[name, path] : found) {
        // Read as any input (refused when it is no longer a regular file); a header grown since
        // its size was taken is cut at the budget left, and the cap's error names it.
        Result<std::string> text = readInputFile(path.string(), budget, "a governor header");
        if (!text)
            return text.error();
        budget -= text->size();
        headers.push_back({name, std::move(*text)});
    }
    return headers;
}

std::vector<SourceHeader> sourceHeaders(const std::string &sourcePath)
{
    Result<std::vector<SourceHeader>> headers = readSourceHeaders(sourcePath);
    return headers ? std::move(*headers) : std::vector<SourceHeader>{};
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

Status sourcePathProblem(const std::string &path)
{
    if (printableFileName(path) == path)
        return Ok{};
    // The raw path: Error::toString() escapes it (printableFileName()), once.
    return Error{path, 0, "",
                 "refused: the path of this governor source holds control characters (shown escaped), which "
                 "would fake lines of the question about it and of messages naming it; rename it"};
}

Result<std::string> sourceFileSha256(const std::string &path)
{
    if (Status s = sourcePathProblem(path); !s)
        return s.error();
    Result<std::string> text = readInputFile(path, MAX_SOURCE_BYTES, "a governor source");
    if (!text)
        return text.error();
    Result<std::vector<SourceHeader>> headers = readSourceHeaders(path);
    if (!headers)
        return headers.error();
    return sourceConsentHash(std::filesystem::path(path).filename().string(), *text, *headers);
}

} // namespace idlescope::source_governor
