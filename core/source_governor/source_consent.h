// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_consent.h
 * The user's yes before idlescope builds and runs a governor source file.
 * Building a file runs the compiler on it and running it runs its code (in
 * the governor host's sandbox, but code all the same): a session or any
 * other file that merely names a source file must not do that unasked.
 *
 * On the command line the user names the file (idlescope-cli
 * --governor-source, --governor src:FILE): that is the yes, and nothing is
 * required. The window requires it (requireSourceConsent()): a file the user
 * added there is theirs for the window's life (grantSourcePath()), a file a
 * session names needs a yes for its content (grantSourceHash(), SHA-256,
 * remembered by the window), so that a changed file asks again. The build
 * refuses a file with neither (buildSourceGovernor()), whatever path led to
 * it.
 *
 * The content is the file and the headers beside it (sourceHeaders()): the
 * build reads private copies of exactly those bytes, nothing of the user's
 * folder, so a yes covers all that is compiled (sourceConsentHash()).
 */
#pragma once

#include "core/common/error.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope::source_governor {

/// On: buildSourceGovernor() builds only files granted below. Off by default (the CLI).
void requireSourceConsent(bool on);
bool sourceConsentRequired();

/// The file at @p path (made absolute) may be built and run, whatever its content.
void grantSourcePath(const std::string &path);
/// A file whose content has SHA-256 @p sha256Hex may be built and run, wherever it is.
void grantSourceHash(const std::string &sha256Hex);
/// Forgets every grant (tests).
void forgetSourceConsents();

/// Whether the file at @p path, whose sourceConsentHash() is @p sha256Hex, may be built now.
bool sourceConsented(const std::string &path, const std::string &sha256Hex);

/// A header beside a source file, as the build reads it.
struct SourceHeader {
    std::string name; ///< its file name in the source's folder
    std::string text;
};

/// The most headers beside a source file a build takes, and their total size: each is read
/// and hashed before the user is asked (on the window's thread), so both are bounded.
inline constexpr std::size_t MAX_SOURCE_HEADERS = 32;
inline constexpr std::size_t MAX_SOURCE_HEADER_BYTES = std::size_t{8} << 20;

/// The headers the build gives the compiler with @p sourcePath: every regular file named
/// *.h in its folder (symlinks followed) but the source itself, read once, by name in
/// byte order. A FIFO or a device named x.h is no header (never stat'ed past its type,
/// never read), nor is a name holding a control character (it could not be listed
/// unambiguously). More than MAX_SOURCE_HEADERS of them, or more than
/// MAX_SOURCE_HEADER_BYTES in all (sizes taken before anything is read), is an Error
/// naming the cap.
Result<std::vector<SourceHeader>> readSourceHeaders(const std::string &sourcePath);

/// readSourceHeaders(), none when it fails (the build and the hash report its Error).
std::vector<SourceHeader> sourceHeaders(const std::string &sourcePath);

/// What a yes is given to: with no header beside the file, its content's SHA-256 (what
/// `sha256sum FILE` prints); with headers, the SHA-256 of what `sha256sum FILE HEADER...`
/// prints in the file's folder, the headers in byte order of their names.
std::string sourceConsentHash(const std::string &sourceName, const std::string &text,
                              const std::vector<SourceHeader> &headers);

/// sourceConsentHash() of a source file and its headers, read as the build reads them (a
/// regular file only: never blocks on a FIFO, never reads a device), or the Error naming
/// why the file cannot be read.
/// A path holding a control character is refused (sourcePathProblem()).
Result<std::string> sourceFileSha256(const std::string &path);

/// The Error for a source path holding a control character or a bidirectional control
/// (printableFileName() would change it): it would fake lines of the question about it and of
/// the messages naming it. Ok for any other path.
Status sourcePathProblem(const std::string &path);

} // namespace idlescope::source_governor
