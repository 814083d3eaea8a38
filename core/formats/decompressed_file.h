// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file decompressed_file.h
 * The bytes of an input file, inflated when it is gzip (told by its magic
 * bytes 1f 8b, not by its name), read in pieces: the one gzip reader of the
 * project (text traces, stream CSV, gzip'd .dat files).
 *
 * A gzip file may hold several members one after the other (`cat a.gz b.gz`):
 * they are read as one text, as `gzip -dc` does, and so are zero bytes after
 * the last member (tar-style padding, which gzip ignores too). Anything else
 * after the end of a member is refused, naming the byte offset where it starts:
 * `gzip -dc` says "trailing garbage ignored" and zlib's gzread() drops it
 * without a word, but bytes that are neither data nor padding mean a damaged
 * or wrongly joined file, and reading it as complete would hide that.
 * Only regular files are opened (a FIFO would block, a device never end).
 */
#pragma once

#include "core/common/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace idlescope {

class DecompressedFile {
public:
    /// Opens @p path; check ok() / error() before reading.
    explicit DecompressedFile(const std::string &path);
    ~DecompressedFile();
    DecompressedFile(const DecompressedFile &) = delete;
    DecompressedFile &operator=(const DecompressedFile &) = delete;

    bool ok() const { return m_error.message.empty(); }
    const Error &error() const { return m_error; }

    /// Up to @p size bytes of the (inflated) content into @p out; 0 at the end or
    /// on error (then !ok(): a read error, corrupt or cut gzip data, junk after it).
    std::size_t read(char *out, std::size_t size);

    bool isGzip() const { return m_gzip; }
    /// Bytes of the file consumed so far (compressed bytes for gzip), for progress.
    std::int64_t fileOffset() const;
    std::int64_t fileSize() const { return m_fileSize; }
    const std::string &path() const { return m_path; }

private:
    struct Inflater;

    bool available(std::size_t n);
    std::size_t readGzip(char *out, std::size_t size);
    bool startNextMember();
    void fail(std::string message);

    std::string m_path;
    std::FILE *m_file = nullptr;
    std::vector<unsigned char> m_in; ///< file bytes read but not consumed: [m_inPos, m_inLen)
    std::size_t m_inPos = 0;
    std::size_t m_inLen = 0;
    std::int64_t m_inBase = 0; ///< file offset of m_in[0]
    bool m_fileEnd = false;
    bool m_done = false;
    bool m_gzip = false;
    std::unique_ptr<Inflater> m_inflater;
    std::int64_t m_fileSize = 0;
    Error m_error;
};

} // namespace idlescope
