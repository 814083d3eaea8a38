// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file atomic_file.h
 * Saving that never loses the user's data: write to a temporary file in the
 * same folder, then rename over the target (QSaveFile). On any error the old
 * file is untouched and no partial file is left behind.
 */
#pragma once

#include "core/common/error.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idlescope {

/**
 * Whether @p path may be replaced by a save: refuses folders, device nodes,
 * FIFOs and sockets (they would be replaced by a regular file), read-only
 * files, and a missing parent folder. A path that does not exist yet is fine.
 */
Status checkOutputPath(const std::string &path);

/// Refuses an output path that is one of @p inputs or another output (same file).
Status checkDistinctPaths(const std::vector<std::string> &inputs, const std::vector<std::string> &outputs);

/// Writes @p content to @p path atomically (after checkOutputPath()).
Status writeFileAtomically(const std::string &path, std::string_view content);

/// Several files, all or nothing as far as the file system allows: every
/// path is checked and every temporary file written before the first rename.
Status writeFilesAtomically(const std::vector<std::pair<std::string, std::string_view>> &files);

/// Streaming form for large outputs: append(), then commit(); destroying an
/// uncommitted writer discards the temporary file.
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
