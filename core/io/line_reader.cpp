// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/line_reader.h"

#include "core/common/input_file.h"

#include <cstring>
#include <filesystem>
#include <zlib.h>

namespace idlescope {

namespace {
constexpr size_t kChunk = 1 << 18;
}

LineReader::LineReader(const std::string &path) : m_path(path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        m_error = std::filesystem::exists(path, ec) ? checkRegularInput(path, "the input").error()
                                                    : Error{path, 0, "", "no such file"};
        return;
    }
    m_fileSize = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
    gzFile gz = gzopen(path.c_str(), "rb");
    if (!gz) {
        m_error = Error{path, 0, "", std::string("cannot open: ") + std::strerror(errno)};
        return;
    }
    gzbuffer(gz, kChunk);
    m_gz = gz;
    m_buf.resize(kChunk);
}

LineReader::~LineReader()
{
    if (m_gz)
        gzclose(static_cast<gzFile>(m_gz));
}

std::int64_t LineReader::bytesRead() const
{
    return m_gz ? static_cast<std::int64_t>(gzoffset(static_cast<gzFile>(m_gz))) : 0;
}

bool LineReader::fill()
{
    if (m_eof || !m_gz)
        return false;
    const int n = gzread(static_cast<gzFile>(m_gz), m_buf.data(), static_cast<unsigned>(m_buf.size()));
    if (n < 0) {
        int code = 0;
        const char *msg = gzerror(static_cast<gzFile>(m_gz), &code);
        m_error = Error{m_path, m_lineNo + 1, "", std::string("read error: ") + (msg ? msg : "?")};
        m_eof = true;
        return false;
    }
    if (n == 0) {
        // zlib reports a gzip stream cut short only here, as Z_BUF_ERROR.
        int code = 0;
        gzerror(static_cast<gzFile>(m_gz), &code);
        if (code == Z_BUF_ERROR)
            m_error = Error{m_path, m_lineNo + 1, "", "the gzip stream is truncated (file cut short?)"};
        m_eof = true;
        return false;
    }
    m_pos = 0;
    m_len = static_cast<size_t>(n);
    return true;
}

bool LineReader::next(std::string_view &line)
{
    if (!ok())
        return false;
    m_carry.clear();
    bool carrying = false;
    for (;;) {
        if (m_pos >= m_len && !fill()) {
            if (!ok() || !carrying)
                return false;
            break; // last line without newline
        }
        const char *start = m_buf.data() + m_pos;
        const void *nl = std::memchr(start, '\n', m_len - m_pos);
        if (nl) {
            const size_t n = static_cast<const char *>(nl) - start;
            m_pos += n + 1;
            if (carrying) {
                m_carry.append(start, n);
                break;
            }
            line = std::string_view(start, n);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            ++m_lineNo;
            return true;
        }
        m_carry.append(start, m_len - m_pos);
        carrying = true;
        m_pos = m_len;
        if (m_carry.size() > MAX_LINE_BYTES) {
            m_error = Error{m_path, m_lineNo + 1, "", "line is longer than " + std::to_string(MAX_LINE_BYTES >> 20)
                                                          + " MiB (not a text file of lines?)"};
            m_eof = true;
            return false;
        }
    }
    line = m_carry;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    ++m_lineNo;
    return true;
}

} // namespace idlescope
