// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_governor_names.h
 * Short names for governors built from source: once "my-menu" names a file
 * (and the kernel version it runs with), the id "src:my-menu" is that
 * governor wherever an id goes (createGovernor(), a snapshot's runs, a
 * session's variant), so that the window shows the name the user chose, not
 * the file's whole path. The names live for the process: the window names
 * the files it adds, a session names the files it saved.
 */
#pragma once

#include "core/common/error.h"
#include "core/source_governor/source_run.h"

#include <optional>
#include <string>
#include <string_view>

namespace idlescope {

/// What a name stands for.
struct NamedSourceFile {
    std::string path;
    source_governor::KernelCore core;
};

/// Letters, digits and "._+-", 1 to 64 of them, not starting with '.': a name
/// that a variant list ("a,b"), a kernel suffix ("@6.19") or a path cannot mistake.
bool isSourceGovernorName(std::string_view name);

/// Makes "src:@p name" the governor of @p file. Naming a file again under the
/// same name is fine; an Error for a bad name or one that already names another file.
Status nameSourceGovernor(const std::string &name, const NamedSourceFile &file);

/// The file "src:@p name" stands for, when @p name is one.
std::optional<NamedSourceFile> namedSourceFile(std::string_view name);

/// The name a file is given by default: its base name ("menu-patched" for
/// ".../menu-patched.c"), the characters a name cannot hold as '-'; "governor" when nothing is left.
std::string defaultSourceGovernorName(std::string_view path);

} // namespace idlescope
