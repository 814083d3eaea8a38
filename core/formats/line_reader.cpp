// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/formats/line_reader.h"

#include <cstring>

namespace idlescope {

namespace {
constexpr size_t kChunk = 1 << 18;
}

LineReader::LineReader(const std::string &path) : m_path(path), m_file(path)
{
    m_error = m_file.error();
    m_buf.resize(kChunk);
}

std::int64_t LineReader::bytesRead() const
{
    return m_file.fileOffset();
}

bool LineReader::fill()
{
    if (m_eof)
        return false;
    const std::size_t n = m_file.read(m_buf.data(), m_buf.size());
    if (n == 0) {
        // A read error, a cut or corrupt gzip stream, junk after it: the line it
        // was reading when that showed.
        if (!m_file.ok()) {
            m_error = m_file.error();
            m_error.line = m_lineNo + 1;
        }
        m_eof = true;
        return false;
    }
    m_pos = 0;
    m_len = n;
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
            m_error = Error{m_path, m_lineNo + 1, "",
                            "line is longer than " + std::to_string(MAX_LINE_BYTES >> 20)
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
