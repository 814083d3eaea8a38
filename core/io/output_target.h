// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file output_target.h
 * Where a save lands, found without trusting links that another user planted.
 *
 * A save replaces the file a path names. When a part of that path is a
 * symbolic link, the save follows it, as the user expects of their own links
 * (a dot file linked into a repository). In a shared folder such as /tmp,
 * though, a link another user put there would make the save replace any file
 * the user may write. The kernel guards against that only when
 * fs.protected_symlinks is 1, so the rule is kept here too: a link in a
 * sticky, world-writable folder is followed only when it belongs to the user
 * or to the folder's owner.
 */
#pragma once

#include "core/common/error.h"

#include <string>

namespace idlescope {

/// The folder that holds a save's file, open (O_PATH), and the file's name in it.
/// The name is never a link that was followed: renameat() on it replaces the
/// entry itself, so a link put there after the walk is replaced, not followed.
class OutputTarget {
public:
    OutputTarget() = default;
    ~OutputTarget();
    OutputTarget(OutputTarget &&other) noexcept;
    OutputTarget &operator=(OutputTarget &&other) noexcept;
    OutputTarget(const OutputTarget &) = delete;
    OutputTarget &operator=(const OutputTarget &) = delete;

    int folderFd() const { return m_folderFd; }
    const std::string &name() const { return m_name; }

private:
    friend Result<OutputTarget> openOutputTarget(const std::string &path);
    int m_folderFd = -1;
    std::string m_name;
};

/**
 * Walks @p path one name at a time from "/" or the working folder, following
 * links by the kernel's protected_symlinks rule (see the file comment). Errors
 * name @p path: a refused link ("a link that user 65534 put in the shared
 * folder /tmp"), a missing folder ("folder D does not exist"), a part that is
 * not a folder, a path that names a folder, or more than 40 links.
 */
Result<OutputTarget> openOutputTarget(const std::string &path);

} // namespace idlescope
