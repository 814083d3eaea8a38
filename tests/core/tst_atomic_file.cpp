// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Saving on a full disk (issue 15, item 1): a write that stores part of the
 * data, or none, or a disk that fills up, fails the save; the old file keeps
 * its bytes and no temporary file is left in its folder. The disk is made
 * full three ways: /dev/full, a replaced write(2) that takes less than asked
 * and then reports ENOSPC, and (as root) a 64 KiB tmpfs.
 */
#include "core/io/atomic_file.h"

#include "tests/small_tmpfs.h"
#include "tests/test_files.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

using namespace idlescope;

namespace {

// A disk with room for g_room more bytes that takes at most 100 bytes a call:
// short writes first, then ENOSPC (what write(2) does when a disk fills up).
std::size_t g_room = 0;
std::size_t g_calls = 0;

ssize_t fullDiskWrite(int fd, const void *buf, size_t count)
{
    ++g_calls;
    if (g_room == 0) {
        errno = ENOSPC;
        return -1;
    }
    const size_t n = std::min({count, g_room, size_t{100}});
    g_room -= n;
    return ::write(fd, buf, n);
}

QByteArray readAll(const QString &path)
{
    return test::readAll(path, "<missing>");
}

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

private slots:
    void cleanup() { setWriteSyscallForTesting(nullptr); }

    void writeAllBytesToDevFullFails()
    {
        const int fd = ::open("/dev/full", O_WRONLY);
        if (fd < 0)
            QSKIP("no /dev/full on this machine");
        const Status s = writeAllBytes(fd, "some bytes", "/dev/full");
        ::close(fd);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().file, std::string("/dev/full"));
        QVERIFY2(s.error().message.find("No space left on device") != std::string::npos, s.error().message.c_str());
    }

    void shortWritesAreContinued()
    {
        // 250 bytes with room for 1000 at 100 a call: 3 calls (100 + 100 + 50), all stored.
        g_room = 1000;
        g_calls = 0;
        setWriteSyscallForTesting(fullDiskWrite);
        const QString p = m_tmp.filePath(QStringLiteral("short.txt"));
        const std::string content(250, 'x');
        QVERIFY(writeFileAtomically(p.toStdString(), content).ok());
        QCOMPARE(g_calls, size_t{3});
        QCOMPARE(readAll(p), QByteArray(content.data(), 250));
    }

    void diskFullKeepsOldFileAndRemovesTemporary()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(writeFileAtomically(p.toStdString(), "old content\n").ok());
        // Room for 1000 of 5000 bytes: the writer used to rename the cut file into place.
        g_room = 1000;
        setWriteSyscallForTesting(fullDiskWrite);
        const Status s = writeFileAtomically(p.toStdString(), std::string(5000, 'y'));
        QVERIFY(!s.ok());
        QCOMPARE(s.error().file, p.toStdString());
        QVERIFY2(s.error().message.find("No space left on device") != std::string::npos, s.error().message.c_str());
        QCOMPARE(readAll(p), QByteArray("old content\n"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("out.csv")});
    }

    void streamingWriterFailsOnFullDisk()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("entries.csv"));
        g_room = 3u << 20; // 3 MiB of room for 4 MiB appended in 1 MiB flushes
        setWriteSyscallForTesting(fullDiskWrite);
        {
            AtomicWriter w(p.toStdString());
            QVERIFY(w.ok());
            const std::string mib(1u << 20, 'z');
            for (int i = 0; i < 4; ++i)
                w.append(mib);
            QVERIFY(!w.ok()); // the fourth flush found the disk full
            QVERIFY(!w.commit().ok());
        }
        QVERIFY(!QFile::exists(p));
        QVERIFY(entries(dir.path()).isEmpty());
    }

    void severalFilesAllOrNothing()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.csv"));
        const QString b = dir.filePath(QStringLiteral("b.csv"));
        QVERIFY(writeFileAtomically(a.toStdString(), "A").ok());
        QVERIFY(writeFileAtomically(b.toStdString(), "B").ok());
        // Room for the first file's 600 bytes, not for the second's.
        g_room = 700;
        setWriteSyscallForTesting(fullDiskWrite);
        const std::string big(600, 'n');
        const Status s = writeFilesAtomically({{a.toStdString(), big}, {b.toStdString(), big}});
        QVERIFY(!s.ok());
        QCOMPARE(s.error().file, b.toStdString());
        QCOMPARE(readAll(a), QByteArray("A"));
        QCOMPARE(readAll(b), QByteArray("B"));
        QCOMPARE(entries(dir.path()), (QStringList{QStringLiteral("a.csv"), QStringLiteral("b.csv")}));
    }

    void realFullTmpfs()
    {
        test::SmallTmpfs fs(64);
        if (!fs.mounted())
            QSKIP(fs.reason());
        const QString p = fs.filePath(QStringLiteral("session.json"));
        QVERIFY(writeFileAtomically(p.toStdString(), std::string(20000, 'o')).ok());
        // 20,000 bytes in place + 100,000 more do not fit in 64 KiB.
        const Status s = writeFileAtomically(p.toStdString(), std::string(100000, 'n'));
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.find("No space left on device") != std::string::npos, s.error().message.c_str());
        QCOMPARE(readAll(p), QByteArray(20000, 'o'));
        QCOMPARE(entries(fs.path()), QStringList{QStringLiteral("session.json")});
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
