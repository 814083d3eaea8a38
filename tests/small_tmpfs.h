// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file small_tmpfs.h
 * A full disk for tests: a tmpfs of a few KiB mounted on a temporary folder.
 * Mounting needs root (CAP_SYS_ADMIN); where it is not permitted, mounted()
 * is false and reason() says why, for QSKIP.
 */
#pragma once

#include <QString>
#include <QTemporaryDir>

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/mount.h>

namespace idlescope::test {

class SmallTmpfs {
public:
    explicit SmallTmpfs(int kib)
    {
        const std::string dir = m_dir.path().toStdString();
        const std::string opts = "size=" + std::to_string(kib) + "k";
        if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, opts.c_str()) == 0)
            m_mounted = true;
        else
            m_reason = "cannot mount a tmpfs here (" + std::string(std::strerror(errno)) + "; needs root)";
    }
    ~SmallTmpfs()
    {
        if (m_mounted)
            ::umount2(m_dir.path().toStdString().c_str(), MNT_DETACH);
    }
    SmallTmpfs(const SmallTmpfs &) = delete;
    SmallTmpfs &operator=(const SmallTmpfs &) = delete;

    bool mounted() const { return m_mounted; }
    const char *reason() const { return m_reason.c_str(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }
    QString path() const { return m_dir.path(); }

private:
    QTemporaryDir m_dir;
    bool m_mounted = false;
    std::string m_reason;
};

} // namespace idlescope::test
