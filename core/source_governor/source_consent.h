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
 */
#pragma once

#include "core/common/error.h"

#include <string>

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

/// Whether the file at @p path with content @p text may be built now.
bool sourceConsented(const std::string &path, const std::string &text);

/// The SHA-256 of a source file's content, read as the build reads it (a regular file only:
/// never blocks on a FIFO, never reads a device), or the Error naming why it cannot be read.
Result<std::string> sourceFileSha256(const std::string &path);

} // namespace idlescope::source_governor
