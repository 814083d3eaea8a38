// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file line_reader.h
 * Reads a text file line by line, plain or gzip-compressed (told from the
 * content, not the name; core/io/decompressed_file.h: several gzip members are
 * read on, junk after the gzip data is an error). Lines are returned without the
 * trailing "\n" or "\r\n"; a final line without a newline is returned too.
 * Only regular files are opened (a FIFO would block, a device never end), and
 * a line longer than MAX_LINE_BYTES is an error naming it: a gzip file that
 * inflates to gigabytes without a newline must not be held in memory.
 */
#pragma once

#include "core/common/error.h"

#include "core/formats/decompressed_file.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace idlescope {

/// Longest line read (1 MiB): far beyond any trace or CSV line.
inline constexpr std::size_t MAX_LINE_BYTES = 1u << 20;

class LineReader {
public:
    /// Opens @p path; check ok() / error() before reading.
    explicit LineReader(const std::string &path);
    LineReader(const LineReader &) = delete;
    LineReader &operator=(const LineReader &) = delete;

    bool ok() const { return m_error.message.empty(); }
    const Error &error() const { return m_error; }

    /// Next line into @p line (valid until the next call); false at end or on error.
    bool next(std::string_view &line);

    /// 1-based number of the line last returned.
    std::int64_t lineNumber() const { return m_lineNo; }
    /// Compressed bytes consumed so far (for progress), and the file's size.
    std::int64_t bytesRead() const;
    std::int64_t fileSize() const { return m_file.fileSize(); }
    const std::string &path() const { return m_path; }

private:
    bool fill();

    std::string m_path;
    DecompressedFile m_file;
    std::string m_buf;
    size_t m_pos = 0;
    size_t m_len = 0;
    bool m_eof = false;
    std::string m_carry;
    std::int64_t m_lineNo = 0;
    Error m_error;
};

} // namespace idlescope
