// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Governors built from source (core/source_governor, idlescope-cli replay
 * --governor-source): the decisions of a hand-checked governor file, and
 * the errors for a file that crashes, loops, does not compile or uses a
 * kernel helper the shim lacks. The governor files are tests/data/
 * source_governors/ (one .c file each); each says in a comment what it must do.
 */
#include "tests/cli_process.h"
#include "tests/test_paths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using idlescope::test::runCli;

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(IDLESCOPE_TEST_DATA) + u"/source_governors/"_s + name;
}

QStringList replayArgs(const QString &governorFile)
{
    return {u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s, dataFile(u"hop.csv"_s),
            u"--governor-source"_s, dataFile(governorFile)};
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSourceGovernor : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_cache;
    QTemporaryDir m_out;

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        // Every build of this test goes to a cache of its own (the children inherit it).
        qputenv("IDLESCOPE_CACHE_DIR", m_cache.path().toUtf8());
    }

    void hopDecidesAsComputedByHand()
    {
        // The table in hop.c's comment, row by row: states 0,1,2,1,0,0, the
        // tick always stopped, residency = wake_ns + exit latency, rows 0,
        // 1, 5 below and rows 2, 3 above.
        const QString entries = m_out.filePath(u"hop.csv"_s);
        const QString summary = m_out.filePath(u"hop.json"_s);
        const auto r = runCli(replayArgs(u"hop.c"_s) << u"--entries"_s << entries << u"--summary"_s << summary);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readAll(entries),
                 QByteArray("span,entry,state,stop_tick,residency_ns,above,below,got_tick,poll_time_limit\n"
                            "0,0,0,1,201000,0,1,0,0\n"
                            "1,0,1,1,2010000,0,1,0,0\n"
                            "2,0,2,1,130000,1,0,0,0\n"
                            "3,0,1,1,30000,1,0,0,0\n"
                            "4,0,0,1,6000,0,0,0,0\n"
                            "5,0,0,1,151000,0,1,0,0\n"));
        const QByteArray json = readAll(summary);
        // end_now_ns = 1e9 + 6 gaps of 100 us + the six residencies (2,528,000 ns).
        QVERIFY2(json.contains("\"entries\": 6, \"end_now_ns\": 1003128000"), json.constData());
        // C1: rows 0, 4, 5 = 201000 + 6000 + 151000 ns; below on rows 0 and 5.
        QVERIFY2(json.contains("\"name\": \"C1\", \"usage\": 3, \"time_ns\": 358000, \"above\": 0, \"below\": 2"),
                 json.constData());
        QVERIFY2(json.contains("\"variant\": \"src:"), json.constData());
    }

    void srcIdAndNameAreTheSameGovernor()
    {
        // --governor src:FILE is --governor-source FILE; --name replaces the label only.
        const auto a = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor"_s, u"src:"_s + dataFile(u"hop.c"_s)});
        const auto b = runCli(replayArgs(u"hop.c"_s) << u"--name"_s << u"my-hop"_s);
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        QVERIFY(b.out.contains(u"\"variant\": \"my-hop\""_s));
        QString aOut = a.out;
        aOut.replace(u"src:"_s + dataFile(u"hop.c"_s), u"my-hop"_s);
        QCOMPARE(aOut, b.out);
        QVERIFY(b.out.contains(u"\"end_now_ns\": 1003128000"_s));
    }

    void aBuildIsCachedByContent()
    {
        // Three runs of hop.c (above) made one object; a copy with other
        // content makes a second one.
        const QDir governors(m_cache.path() + u"/governors"_s);
        QCOMPARE(governors.entryList({u"*.so"_s}, QDir::Files).size(), 1);
        const QString copy = m_out.filePath(u"hop2.c"_s);
        QVERIFY(QFile::copy(dataFile(u"hop.c"_s), copy));
        QFile f(copy);
        QVERIFY(f.open(QIODevice::Append));
        f.write("/* a changed file */\n");
        f.close();
        const auto r = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor-source"_s, copy});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(governors.entryList({u"*.so"_s}, QDir::Files).size(), 2);
    }

    void aCrashNamesItsSignalAndEntry()
    {
        // crash.c dereferences NULL in its fourth select().
        const auto r = runCli(replayArgs(u"crash.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"crashed in select() at entry 3 (stream row 3): SIGSEGV"_s), qPrintable(r.err));
    }

    void anEndlessLoopIsStoppedAtTheTimeout()
    {
        // endless.c loops for ever in its second reflect() (entry 1).
        const auto r = runCli(replayArgs(u"endless.c"_s) << u"--timeout"_s << u"1"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"did not return in reflect() at entry 1 (stream row 1) within 1 s"_s),
                 qPrintable(r.err));
    }

    void aCompileErrorIsTheCompilersOwn()
    {
        // broken.c lacks the ';' at the end of line 13, so gcc and clang both
        // stop at the 'return' on line 15, column 9 (a tab counts as one column).
        const auto r = runCli(replayArgs(u"broken.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"broken.c:15:9: error:"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"does not build"_s), qPrintable(r.err));
    }

    void aMissingShimSymbolIsNamed()
    {
        const auto r = runCli(replayArgs(u"unsupported.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"unsupported.c:16:16: error: implicit declaration of function"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"note: get_cpu_idle_time_us is not provided yet by idlescope's kernel shim"_s),
                 qPrintable(r.err));
    }

    void badOptionsAreRefused()
    {
        auto r = runCli(replayArgs(u"hop.c"_s) << u"--governor"_s << u"menu-6.19"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"one of --governor and --governor-source"_s), qPrintable(r.err));
        r = runCli(replayArgs(u"hop.c"_s) << u"--kernel"_s << u"4.19"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"older than the kernels"_s), qPrintable(r.err));
        r = runCli(replayArgs(u"no-such-file.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"no-such-file.c: cannot read the governor source"_s), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestSourceGovernor)
#include "tst_source_governor.moc"
