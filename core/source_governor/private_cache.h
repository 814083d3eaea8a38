// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file private_cache.h
 * The checks that keep the governor cache private. The cache holds objects
 * the governor host loads and runs as you: a folder, a link or a file in it
 * that another user made or can write would let them run code as you (a
 * /tmp/idlescope-cache-UID made first by someone else, a link planted there,
 * a subfolder of theirs left from before the cache was private). Every level
 * is looked at without following links (lstat, O_NOFOLLOW), and whatever is
 * not yours, or is writable by your group or others, is refused with a
 * message naming it.
 */
#pragma once

#include "core/common/error.h"

#include <string>

namespace idlescope::source_governor {

/// @p dir, the cache's root, made (0700) if it is not there yet, its parent created if
/// need be. Refused: a root that is not a folder, one that belongs to another user, a link
/// made by another user (a link of yours to a folder of yours is followed), or a parent
/// that others can write to without the sticky bit (they could swap the root). A root of
/// yours with group or other bits set is made 0700.
Result<std::string> openPrivateCacheRoot(const std::string &dir);

/// Makes the folder @p path inside the cache (0700) if it is not there, and checks it as
/// it is: a folder, not a link, yours, writable by you only.
Status makePrivateFolder(const std::string &path);

/// Checks @p path and, for a folder, everything under it: no links, everything yours and
/// writable by you only (the kernel shim's tree before it is compiled against and linked).
Status checkPrivateTree(const std::string &path);

/// Checks one file of the cache (a built object before it is loaded): a regular file, not
/// a link, yours, writable by you only.
Status checkPrivateFile(const std::string &path);

} // namespace idlescope::source_governor
