// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Saving on a full disk (issue 15, item 1): a write that stores part of the
 * data, or none, or a disk that fills up, fails the save; the old file keeps
 * its bytes and no temporary file is left in its folder. The disk is made
 * full three ways: /dev/full, a replaced write(2) that takes less than asked
 * and then reports ENOSPC, and (as root) a 64 KiB tmpfs.
 *
 * Links planted in a shared folder (issue 30, hostile report finding 12): in
 * a folder of mode 1777 a link that another user owns is refused, as the
 * kernel's fs.protected_symlinks=1 would refuse it, whatever the machine's
 * setting. The other user is emulated with lchown() to uid 65534 (nobody),
 * which needs root; the tests skip without it. Before the fix the save
 * followed the link and replaced the file it pointed at.
 */
#include "core/io/atomic_file.h"

#include "tests/small_tmpfs.h"
#include "tests/test_files.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
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

constexpr uid_t kOtherUser = 65534; // nobody

// root/shared (mode 1777, like /tmp) and root/victim.txt holding "precious".
struct SharedFolder {
    QTemporaryDir root;
    QString shared = root.filePath(QStringLiteral("shared"));
    QString victim = root.filePath(QStringLiteral("victim.txt"));

    SharedFolder()
    {
        QDir(root.path()).mkdir(QStringLiteral("shared"));
        ::chmod(shared.toLocal8Bit().constData(), 01777);
        QFile f(victim);
        if (f.open(QIODevice::WriteOnly))
            f.write("precious");
    }

    // A link named @p name in the shared folder to @p target, owned by @p uid.
    // False when the owner cannot be set (not root).
    bool plantLink(const QString &name, const QString &target, uid_t uid) const
    {
        const QByteArray link = (shared + QLatin1Char('/') + name).toLocal8Bit();
        return ::symlink(target.toLocal8Bit().constData(), link.constData()) == 0
               && ::lchown(link.constData(), uid, uid) == 0;
    }
};

bool contains(const Status &s, const char *words)
{
    return !s.ok() && s.error().message.find(words) != std::string::npos;
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

    void plantedLinkInSharedFolderIsRefused()
    {
        SharedFolder f;
        const QString link = f.shared + QStringLiteral("/entries.csv");
        if (!f.plantLink(QStringLiteral("entries.csv"), f.victim, kOtherUser))
            QSKIP("lchown to another user needs root");
        const std::string path = link.toStdString();
        const std::string why = "is a link that user 65534 put in the shared folder " + f.shared.toStdString();
        for (const Status &s : {writeFileAtomically(path, "replaced"), checkOutputPath(path)}) {
            QVERIFY(!s.ok());
            QCOMPARE(s.error().file, path);
            QVERIFY2(contains(s, why.c_str()), s.error().message.c_str());
        }
        AtomicWriter w(path);
        QVERIFY(!w.ok());
        QVERIFY(!w.commit().ok());
        // The victim keeps its bytes, the link stays, no temporary is left.
        QCOMPARE(readAll(f.victim), QByteArray("precious"));
        QCOMPARE(QFileInfo(link).symLinkTarget(), f.victim);
        QCOMPARE(entries(f.shared), QStringList{QStringLiteral("entries.csv")});
    }

    void plantedLinkToAFolderIsRefused()
    {
        // shared/out -> root/mine, a folder of the user's: shared/out/new.csv
        // would create a file there.
        SharedFolder f;
        QVERIFY(QDir(f.root.path()).mkdir(QStringLiteral("mine")));
        const QString mine = f.root.filePath(QStringLiteral("mine"));
        if (!f.plantLink(QStringLiteral("out"), mine, kOtherUser))
            QSKIP("lchown to another user needs root");
        const Status s = writeFileAtomically((f.shared + QStringLiteral("/out/new.csv")).toStdString(), "x");
        const std::string why = f.shared.toStdString() + "/out is a link that user 65534 put in the shared folder";
        QVERIFY2(contains(s, why.c_str()), s.ok() ? "saved" : s.error().message.c_str());
        QVERIFY(entries(mine).isEmpty());
    }

    void ownAndFolderOwnersLinksAreFollowed()
    {
        // The kernel's rule follows the user's own link (root's, here), and
        // one that belongs to the folder's owner: the save replaces the file
        // the link names, and the link stays a link.
        SharedFolder f;
        if (!f.plantLink(QStringLiteral("own.csv"), f.victim, ::geteuid()))
            QSKIP("cannot make a link");
        const QString own = f.shared + QStringLiteral("/own.csv");
        QVERIFY(writeFileAtomically(own.toStdString(), "mine").ok());
        QCOMPARE(readAll(f.victim), QByteArray("mine"));
        QCOMPARE(QFileInfo(own).symLinkTarget(), f.victim);

        if (::lchown(f.shared.toLocal8Bit().constData(), kOtherUser, kOtherUser) != 0
            || !f.plantLink(QStringLiteral("owners.csv"), f.victim, kOtherUser))
            QSKIP("lchown to another user needs root");
        QVERIFY(writeFileAtomically((f.shared + QStringLiteral("/owners.csv")).toStdString(), "owner's").ok());
        QCOMPARE(readAll(f.victim), QByteArray("owner's"));
    }

    void replacedFileKeepsItsPermissions()
    {
        // A private file (0600) stays private after a save; a new one gets
        // 0666 less the umask (0644 under the usual 022, computed below).
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("private.json"));
        QVERIFY(writeFileAtomically(p.toStdString(), "old").ok());
        ::chmod(p.toLocal8Bit().constData(), 0600);
        QVERIFY(writeFileAtomically(p.toStdString(), "new").ok());
        struct stat st {};
        QCOMPARE(::stat(p.toLocal8Bit().constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0600u);

        const QString fresh = dir.filePath(QStringLiteral("fresh.json"));
        QVERIFY(writeFileAtomically(fresh.toStdString(), "new").ok());
        const mode_t mask = ::umask(0);
        ::umask(mask);
        QCOMPARE(::stat(fresh.toLocal8Bit().constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0666u & ~mask);
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
