// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/atomic_file.h"

#include <QSaveFile>

#include <filesystem>
#include <unistd.h>

namespace idlescope {

struct AtomicWriter::Impl {
    QSaveFile file;
};

Status checkOutputPath(const std::string &path)
{
    namespace fs = std::filesystem;
    if (path.empty())
        return Error{path, 0, "", "empty output path"};
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (fs::exists(st)) {
        if (fs::is_directory(st))
            return Error{path, 0, "", "is a folder, not a file"};
        if (!fs::is_regular_file(st))
            return Error{path, 0, "", "is a device, FIFO or socket; refusing to replace it with a file"};
        if (::access(path.c_str(), W_OK) != 0 || (st.permissions() & fs::perms::owner_write) == fs::perms::none)
            return Error{path, 0, "", "is read-only; refusing to replace it"};
    }
    fs::path parent = fs::path(path).parent_path();
    if (parent.empty())
        parent = ".";
    if (!fs::is_directory(parent, ec))
        return Error{path, 0, "", "folder " + parent.string() + " does not exist"};
    if (::access(parent.c_str(), W_OK) != 0)
        return Error{path, 0, "", "folder " + parent.string() + " is not writable"};
    return Ok{};
}

Status checkDistinctPaths(const std::vector<std::string> &inputs, const std::vector<std::string> &outputs)
{
    namespace fs = std::filesystem;
    auto same = [](const std::string &a, const std::string &b) {
        std::error_code ec;
        if (fs::exists(a, ec) && fs::exists(b, ec))
            return fs::equivalent(a, b, ec);
        return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
    };
    for (size_t i = 0; i < outputs.size(); ++i) {
        for (const std::string &in : inputs)
            if (!in.empty() && same(outputs[i], in))
                return Error{outputs[i], 0, "", "output would overwrite the input " + in};
        for (size_t j = i + 1; j < outputs.size(); ++j)
            if (same(outputs[i], outputs[j]))
                return Error{outputs[i], 0, "", "the same file is named for two outputs"};
    }
    return Ok{};
}

AtomicWriter::AtomicWriter(const std::string &path) : m_impl(std::make_unique<Impl>()), m_path(path)
{
    if (Status s = checkOutputPath(path); !s) {
        m_error = s.error();
        return;
    }
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

void AtomicWriter::flush()
{
    if (ok() && !m_pending.empty()
        && (m_impl->file.write(m_pending.data(), static_cast<qint64>(m_pending.size())) < 0
            || !m_impl->file.flush()))
        m_error = Error{m_path, 0, "", "write failed: " + m_impl->file.errorString().toStdString()};
    m_pending.clear();
}

Status AtomicWriter::commit()
{
    flush();
    if (!ok()) {
        m_impl->file.cancelWriting();
        return m_error;
    }
    if (!m_impl->file.commit())
        return Error{m_path, 0, "", "cannot save: " + m_impl->file.errorString().toStdString()};
    return Ok{};
}

Status writeFilesAtomically(const std::vector<std::pair<std::string, std::string_view>> &files)
{
    std::vector<std::unique_ptr<AtomicWriter>> writers;
    for (const auto &[path, content] : files) {
        auto w = std::make_unique<AtomicWriter>(path);
        if (!w->ok())
            return w->error();
        w->append(content);
        w->flush();
        if (!w->ok())
            return w->error();
        writers.push_back(std::move(w));
    }
    for (auto &w : writers)
        if (Status s = w->commit(); !s)
            return s;
    return Ok{};
}

Status writeFileAtomically(const std::string &path, std::string_view content)
{
    AtomicWriter w(path);
    w.append(content);
    return w.commit();
}

} // namespace idlescope
