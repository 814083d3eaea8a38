// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * The build names its files (no file(GLOB) in any CMakeLists.txt), so a new
 * file that no list names would be left out without a word: a test that is
 * never built, a .cpp whose functions are missing only where they are
 * called, a shim header the compiler of source governors never gets. The
 * configure step writes what the lists name (cmake/IdlescopeSourceLists.cmake:
 * <build>/listed_sources.txt, with the folders of the configured parts); this
 * test walks those folders and fails for every such file the lists do not
 * name.
 */
#include "tests/test_paths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

/// Would a file at @p rel (relative to the source tree) have to be in a list?
/// Tests are the tst_*.cpp of tests/<part>; the kernel shim's headers and
/// runtime and the built-in target tables are embedded; elsewhere every .cpp.
bool mustBeListed(const QString &rel)
{
    const QString name = rel.section(u'/', -1);
    if (rel.startsWith(u"tests/"_s))
        return name.startsWith(u"tst_"_s) && name.endsWith(u".cpp"_s);
    if (rel.startsWith(u"core/source_governor/shim/"_s))
        return name.endsWith(u".h"_s) || name.endsWith(u".c"_s);
    if (rel.startsWith(u"resources/targets/"_s))
        return name.endsWith(u".json"_s) && name != u"index.json"_s;
    return name.endsWith(u".cpp"_s);
}

/// The files under @p root's @p folders that must be listed and are not in @p listed.
QStringList unlisted(const QString &root, const QStringList &folders, const QSet<QString> &listed)
{
    QStringList out;
    for (const QString &folder : folders) {
        QDirIterator it(root + u'/' + folder, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString rel = QDir(root).relativeFilePath(it.next());
            if (mustBeListed(rel) && !listed.contains(rel))
                out << rel;
        }
    }
    out.sort();
    return out;
}

struct Lists {
    QStringList folders;
    QSet<QString> files;
    QString error;
};

/// listed_sources.txt: "folder <path>" lines, then one listed file a line.
Lists readLists(const QString &path)
{
    Lists l;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        l.error = u"cannot read "_s + path + u" (written by the configure step)"_s;
        return l;
    }
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.startsWith(u"folder "_s))
            l.folders << line.mid(7);
        else if (!line.isEmpty())
            l.files.insert(line);
    }
    return l;
}

} // namespace

class TestSourceLists : public QObject {
    Q_OBJECT

private slots:
    void everyFileIsListed()
    {
        const Lists lists = readLists(QStringLiteral(IDLESCOPE_LISTED_SOURCES));
        QVERIFY2(lists.error.isEmpty(), qPrintable(lists.error));
        const QStringList missing = unlisted(idlescope::test::sourceDir(), lists.folders, lists.files);
        QVERIFY2(missing.isEmpty(), qPrintable(u"named in no CMakeLists.txt list (add each to its directory's list): "_s
                                               + missing.join(u", "_s)));
    }

    void theListsAreReadFromTheBuild()
    {
        // The configure step wrote what this build compiles and embeds: the engine's
        // first governor, this test, the shim's runtime and a target table.
        const Lists lists = readLists(QStringLiteral(IDLESCOPE_LISTED_SOURCES));
        QVERIFY2(lists.error.isEmpty(), qPrintable(lists.error));
        QVERIFY(lists.folders.contains(u"core"_s));
        QVERIFY(lists.folders.contains(u"tests/core"_s));
        QVERIFY(lists.files.contains(u"core/governors/menu_governor.cpp"_s));
        QVERIFY(lists.files.contains(u"tests/core/tst_source_lists.cpp"_s));
        QVERIFY(lists.files.contains(u"core/source_governor/shim/runtime.c"_s));
        QVERIFY(lists.files.contains(u"resources/targets/intel-skx.json"_s));
        // index.json describes the tables and is not one.
        QVERIFY(!lists.files.contains(u"resources/targets/index.json"_s));
    }

    void anUnlistedFileIsFound()
    {
        // A tree of its own: one listed file of each kind, and beside each one that
        // is not; helpers (headers, scripts) need no list.
        QTemporaryDir tree;
        QVERIFY(tree.isValid());
        const QStringList files = {u"core/a/listed.cpp"_s,
                                   u"core/a/new.cpp"_s,
                                   u"core/a/helper.h"_s,
                                   u"core/source_governor/shim/include/linux/new.h"_s,
                                   u"resources/targets/new.json"_s,
                                   u"resources/targets/index.json"_s,
                                   u"tests/core/tst_listed.cpp"_s,
                                   u"tests/core/tst_new.cpp"_s,
                                   u"tests/core/fixture.h"_s,
                                   u"tests/cli/tool.py"_s};
        for (const QString &rel : files) {
            QVERIFY(QDir(tree.path()).mkpath(QFileInfo(rel).path()));
            QFile f(tree.filePath(rel));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const QSet<QString> listed = {u"core/a/listed.cpp"_s, u"tests/core/tst_listed.cpp"_s};
        const QStringList folders = {u"core"_s, u"resources/targets"_s, u"tests/core"_s, u"tests/cli"_s};
        QCOMPARE(unlisted(tree.path(), folders, listed),
                 QStringList({u"core/a/new.cpp"_s, u"core/source_governor/shim/include/linux/new.h"_s,
                              u"resources/targets/new.json"_s, u"tests/core/tst_new.cpp"_s}));
        // A folder the build did not configure (no GUI: no widgets/) is not walked.
        QCOMPARE(unlisted(tree.path(), {u"tests/cli"_s}, listed), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestSourceLists)
#include "tst_source_lists.moc"
