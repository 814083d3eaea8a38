// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/atomic_file.h"

#include <QSaveFile>

namespace idlescope {

struct AtomicWriter::Impl {
    QSaveFile file;
};

AtomicWriter::AtomicWriter(const std::string &path) : m_impl(std::make_unique<Impl>()), m_path(path)
{
    m_impl->file.setFileName(QString::fromStdString(path));
    if (!m_impl->file.open(QIODevice::WriteOnly))
        m_error = Error{path, 0, "", "cannot write: " + m_impl->file.errorString().toStdString()};
}

AtomicWriter::~AtomicWriter()
{
    if (m_impl && m_impl->file.isOpen())
        m_impl->file.cancelWriting();
}

bool AtomicWriter::ok() const
{
    return m_error.message.empty();
}

void AtomicWriter::append(std::string_view bytes)
{
    if (!ok())
        return;
    m_pending.append(bytes);
    if (m_pending.size() >= (1u << 20)) {
        if (m_impl->file.write(m_pending.data(), static_cast<qint64>(m_pending.size())) < 0)
            m_error = Error{m_path, 0, "", "write failed: " + m_impl->file.errorString().toStdString()};
        m_pending.clear();
    }
}

Status AtomicWriter::commit()
{
    if (ok() && !m_pending.empty()
        && m_impl->file.write(m_pending.data(), static_cast<qint64>(m_pending.size())) < 0)
        m_error = Error{m_path, 0, "", "write failed: " + m_impl->file.errorString().toStdString()};
    m_pending.clear();
    if (!ok()) {
        m_impl->file.cancelWriting();
        return m_error;
    }
    if (!m_impl->file.commit())
        return Error{m_path, 0, "", "cannot save: " + m_impl->file.errorString().toStdString()};
    return Ok{};
}

Status writeFileAtomically(const std::string &path, std::string_view content)
{
    AtomicWriter w(path);
    w.append(content);
    return w.commit();
}

} // namespace idlescope
