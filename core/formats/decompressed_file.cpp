// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/formats/decompressed_file.h"

#include "core/common/input_file.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <zlib.h>

namespace idlescope {

namespace {
constexpr std::size_t kChunk = 1 << 18;
constexpr unsigned char GZIP_MAGIC0 = 0x1f;
constexpr unsigned char GZIP_MAGIC1 = 0x8b;
} // namespace

struct DecompressedFile::Inflater {
    z_stream z{};
    bool ready = false;
    ~Inflater()
    {
        if (ready)
            inflateEnd(&z);
    }
};

DecompressedFile::DecompressedFile(const std::string &path) : m_path(path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        m_error = std::filesystem::exists(path, ec) ? checkRegularInput(path, "the input").error()
                                                    : Error{path, 0, "", "no such file"};
        return;
    }
    m_fileSize = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file) {
        fail(std::string("cannot open: ") + std::strerror(errno));
        return;
    }
    m_in.resize(kChunk);
    if (!available(2) || m_in[0] != GZIP_MAGIC0 || m_in[1] != GZIP_MAGIC1)
        return; // plain (or empty, or one byte: zlib's gzread reads those as text too)
    m_gzip = true;
    m_inflater = std::make_unique<Inflater>();
    // 16 + 15: a gzip wrapper (not zlib, not raw deflate), the largest window.
    if (inflateInit2(&m_inflater->z, 16 + MAX_WBITS) != Z_OK) {
        fail("cannot start inflating: out of memory");
        return;
    }
    m_inflater->ready = true;
}

DecompressedFile::~DecompressedFile()
{
    if (m_file)
        std::fclose(m_file);
}

std::int64_t DecompressedFile::fileOffset() const
{
    return m_inBase + static_cast<std::int64_t>(m_inPos);
}

void DecompressedFile::fail(std::string message)
{
    if (ok())
        m_error = Error{m_path, 0, "", std::move(message)};
}

bool DecompressedFile::available(std::size_t n)
{
    if (m_inLen - m_inPos >= n)
        return true;
    std::memmove(m_in.data(), m_in.data() + m_inPos, m_inLen - m_inPos);
    m_inBase += static_cast<std::int64_t>(m_inPos);
    m_inLen -= m_inPos;
    m_inPos = 0;
    while (m_inLen < n && !m_fileEnd) {
        const std::size_t got = std::fread(m_in.data() + m_inLen, 1, m_in.size() - m_inLen, m_file);
        if (got == 0) {
            if (std::ferror(m_file))
                fail(std::string("read error: ") + std::strerror(errno));
            m_fileEnd = true;
        }
        m_inLen += got;
    }
    return m_inLen >= n;
}

std::size_t DecompressedFile::read(char *out, std::size_t size)
{
    if (!ok() || m_done || size == 0)
        return 0;
    if (m_gzip)
        return readGzip(out, size);
    // Plain: what the magic check buffered, then straight from the file.
    if (m_inPos < m_inLen) {
        const std::size_t n = std::min(size, m_inLen - m_inPos);
        std::memcpy(out, m_in.data() + m_inPos, n);
        m_inPos += n;
        return n;
    }
    const std::size_t n = m_fileEnd ? 0 : std::fread(out, 1, size, m_file);
    m_inBase += static_cast<std::int64_t>(n);
    if (n == 0) {
        if (!m_fileEnd && std::ferror(m_file))
            fail(std::string("read error: ") + std::strerror(errno));
        m_done = true;
    }
    return n;
}

std::size_t DecompressedFile::readGzip(char *out, std::size_t size)
{
    z_stream &z = m_inflater->z;
    const unsigned room = static_cast<unsigned>(std::min<std::size_t>(size, UINT_MAX));
    for (;;) {
        if (m_inPos == m_inLen && !available(1)) {
            // The file ended inside a member (its data or its 8-byte trailer).
            fail("the gzip stream is truncated at byte " + std::to_string(fileOffset()) + " (file cut short?)");
            return 0;
        }
        z.next_in = m_in.data() + m_inPos;
        z.avail_in = static_cast<unsigned>(m_inLen - m_inPos);
        z.next_out = reinterpret_cast<unsigned char *>(out);
        z.avail_out = room;
        const int ret = inflate(&z, Z_NO_FLUSH);
        m_inPos = m_inLen - z.avail_in;
        const std::size_t produced = room - z.avail_out;
        if (ret == Z_STREAM_END) {
            if (!startNextMember())
                m_done = true;
            if (produced > 0 || m_done)
                return produced;
            continue;
        }
        // Z_BUF_ERROR with input left would be no progress at all: corrupt, not "more input".
        if (ret == Z_OK || (ret == Z_BUF_ERROR && z.avail_in == 0)) {
            if (produced > 0)
                return produced;
            continue;
        }
        fail("corrupt gzip data near byte " + std::to_string(fileOffset()) + ": "
             + (z.msg ? z.msg : "inflate error " + std::to_string(ret)));
        return 0;
    }
}

bool DecompressedFile::startNextMember()
{
    // gzip -dc's rules after a member: another member is read on; zero bytes up to
    // the end are padding; anything else is refused here (gzip warns and ignores it).
    const std::int64_t end = fileOffset();
    bool zeros = false;
    while (available(1) && m_in[m_inPos] == 0) {
        ++m_inPos;
        zeros = true;
    }
    if (!ok() || !available(1))
        return false;
    if (!zeros && m_in[m_inPos] == GZIP_MAGIC0) {
        if (!available(2)) {
            fail("the gzip stream is truncated at byte " + std::to_string(fileOffset())
                 + " (a second member cut short?)");
            return false;
        }
        if (m_in[m_inPos + 1] == GZIP_MAGIC1) {
            inflateReset(&m_inflater->z);
            return true;
        }
    }
    fail("junk after the gzip data at byte " + std::to_string(end) + " (" + std::to_string(m_fileSize - end)
         + " bytes that are neither another gzip member nor zero padding; gzip -dc would ignore them as "
           "\"trailing garbage\"): the file is damaged or something was appended to it");
    return false;
}

} // namespace idlescope
