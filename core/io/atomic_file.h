// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file atomic_file.h
 * Saving that never loses the user's data: write to a temporary file in the
 * same folder, then rename over the target. On any error the old file is
 * untouched and no partial file is left behind. The target's folder is found
 * by openOutputTarget() (output_target.h): a link another user planted in a
 * shared folder such as /tmp is refused, never followed to a file of ours.
 */
#pragma once

#include "core/common/error.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace idlescope {

/**
 * Whether @p path may be replaced by a save: refuses folders, device nodes,
 * FIFOs and sockets (they would be replaced by a regular file), read-only
 * files, a missing parent folder, and a link that another user put in a
 * sticky, world-writable folder (openOutputTarget()). A path that does not
 * exist yet is fine.
 */
Status checkOutputPath(const std::string &path);

/// Refuses an output path that is one of @p inputs or another output: the same
/// device and inode (symlinks followed), or for files not yet made the same
/// resolved path. Inputs that are not files (built-in ids) are ignored. O(N).
Status checkDistinctPaths(const std::vector<std::string> &inputs, const std::vector<std::string> &outputs);

/// Writes @p content to @p path atomically (after checkOutputPath()).
Status writeFileAtomically(const std::string &path, std::string_view content);

/// Several files, all or nothing as far as the file system allows: every
/// path is checked and every temporary file written before the first rename.
Status writeFilesAtomically(const std::vector<std::pair<std::string, std::string_view>> &files);

/// write(2) as the writers call it.
using WriteSyscall = ssize_t (*)(int fd, const void *buf, size_t count);

/**
 * Writes all of @p bytes to @p fd: a short write (the disk filled up part-way)
 * is continued, EINTR retried, and any other outcome, a write that stores
 * nothing included, is an error naming @p path and errno ("No space left on
 * device"). Only a complete write returns Ok.
 */
Status writeAllBytes(int fd, std::string_view bytes, const std::string &path);

/// Tests only: replace write(2) for every writer (nullptr restores it), to give
/// the writers the short writes and ENOSPC of a full disk.
void setWriteSyscallForTesting(WriteSyscall write);

/**
 * @p count files into the folder @p dir, all or nothing and one in memory at
 * a time: @p make(i) returns the i-th file's name (no folder) and content.
 * The files are written into a hidden staging folder inside @p dir and
 * renamed into place once all of them are written. On any error the staging
 * folder is removed, and @p dir too if this call created it.
 */
Status writeFilesIntoFolder(const std::string &dir, std::size_t count,
                            const std::function<std::pair<std::string, std::string>(std::size_t)> &make);

/// Streaming form for large outputs: append(), then commit(); destroying an
/// uncommitted writer discards the temporary file. Every write's count is
/// checked and the data is fsync()ed before the rename: a full disk, a failed
/// flush or close makes commit() fail with the old file untouched and the
/// temporary removed.
class AtomicWriter {
public:
    explicit AtomicWriter(const std::string &path);
    ~AtomicWriter();
    AtomicWriter(const AtomicWriter &) = delete;
    AtomicWriter &operator=(const AtomicWriter &) = delete;

    bool ok() const;
    const Error &error() const { return m_error; }
    void append(std::string_view bytes);
    /// Writes what append() buffered to the temporary file (errors show in ok()/error()).
    void flush();
    Status commit();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    std::string m_path;
    std::string m_pending;
    Error m_error;
};

} // namespace idlescope
