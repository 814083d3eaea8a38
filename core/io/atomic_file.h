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

namespace idlescope {

/// Writes @p content to @p path atomically.
Status writeFileAtomically(const std::string &path, std::string_view content);

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
    Status commit();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    std::string m_path;
    std::string m_pending;
    Error m_error;
};

} // namespace idlescope
