// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * The repository carries its own copies of ../shared's conformance kit, real
 * traces and published state tables (tests/data), so that a fresh clone
 * passes with nothing beside it. When ../shared is there, each of its files
 * must be in tests/data byte for byte: a newer kit or trace laid there fails
 * this test (copy it in: `cp -r ../shared/conformance/. tests/data/conformance/`)
 * instead of being silently ignored. The kit is compared both ways (a file
 * the kit dropped must go here too); tests/data/traces may hold traces of its
 * own beside shared's.
 */
#include "tests/test_paths.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTest>

namespace {

using idlescope::test::kitDir;
using idlescope::test::sharedDir;
using idlescope::test::stateTablesJson;
using idlescope::test::tracesDir;

/// Relative paths of every file below @p root, sorted.
QStringList filesBelow(const QString &root)
{
    QStringList out;
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    const QDir base(root);
    while (it.hasNext())
        out << base.relativeFilePath(it.next());
    out.sort();
    return out;
}

QByteArray sha256(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

/// The files of @p shared that are missing from, or differ in, @p inTree.
QStringList staleCopies(const QString &shared, const QString &inTree)
{
    QStringList stale;
    for (const QString &rel : filesBelow(shared)) {
        const QString mine = inTree + u'/' + rel;
        if (!QFile::exists(mine))
            stale << rel + QStringLiteral(" (missing here)");
        else if (sha256(mine) != sha256(shared + u'/' + rel))
            stale << rel + QStringLiteral(" (differs)");
    }
    return stale;
}

} // namespace

class TestSharedCopies : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        if (!QDir(sharedDir()).exists())
            QSKIP(qPrintable(
                QStringLiteral("no shared folder at %1: the in-tree copies are all there is").arg(sharedDir())));
    }

    void conformanceKitIsCurrent()
    {
        const QString shared = sharedDir() + QStringLiteral("/conformance");
        QVERIFY2(QDir(shared).exists(), qPrintable(shared + QStringLiteral(" has no conformance kit")));
        const QStringList stale = staleCopies(shared, kitDir());
        QVERIFY2(stale.isEmpty(), qPrintable(QStringLiteral("tests/data/conformance is behind %1: ").arg(shared)
                                             + stale.join(QStringLiteral(", "))));
        // Nothing the kit has dropped stays here (an expected file of a removed variant would still be replayed).
        QCOMPARE(filesBelow(kitDir()), filesBelow(shared));
        // The kit is not empty: a copy of nothing would pass the comparisons above.
        QVERIFY(filesBelow(kitDir()).filter(QStringLiteral("expected/")).size() > 100);
    }

    void tracesAreCurrent()
    {
        const QString shared = sharedDir() + QStringLiteral("/data/traces");
        if (!QDir(shared).exists())
            QSKIP("the shared folder has no data/traces");
        const QStringList stale = staleCopies(shared, tracesDir());
        QVERIFY2(stale.isEmpty(), qPrintable(QStringLiteral("tests/data/traces is behind %1: ").arg(shared)
                                             + stale.join(QStringLiteral(", "))));
    }

    void stateTablesAreCurrent()
    {
        const QString shared = sharedDir() + QStringLiteral("/docs/state-tables.json");
        if (!QFile::exists(shared))
            QSKIP("the shared folder has no docs/state-tables.json");
        QVERIFY(!sha256(stateTablesJson()).isEmpty());
        QCOMPARE(sha256(stateTablesJson()), sha256(shared));
    }
};

QTEST_GUILESS_MAIN(TestSharedCopies)
#include "tst_shared_copies.moc"
