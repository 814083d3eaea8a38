// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli under hostile input (issue 15): a full disk, outputs that are
 * inputs, options that were ignored, and inputs whose numbers overflowed.
 * Each case exits 2 with a message naming the file or field and leaves the
 * files it was not meant to write as they were.
 */
#include "tests/cli/cli_test.h"
#include "tests/small_tmpfs.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

QString repro(const char *name)
{
    return idlescope::test::testDataDir() + u"/reliability/"_s + QString::fromLatin1(name);
}

} // namespace

class TestCliReliability : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

private slots:
    // Item 3: each of these replaced its input with its output and exited 0.
    void outputsNeverOverwriteInputs()
    {
        const QString stream = m_tmp.filePath(u"in.csv"_s);
        writeFile(stream, kTwoSpanStream);
        const QString link = m_tmp.filePath(u"link.csv"_s);
        QVERIFY(QFile::link(stream, link));
        const QString table = m_tmp.filePath(u"table.json"_s);
        QFile::copy(idlescope::test::kitDir() + u"/tables/intel-skx.json"_s, table);
        const QByteArray tableBytes = readAll(table);
        const QString trace = m_tmp.filePath(u"trace.txt.gz"_s);
        QFile::copy(idlescope::test::tracesDir() + u"/vm-amd-2cpu-timer500us.ftrace.txt.gz"_s, trace);
        const QByteArray traceBytes = readAll(trace);
        const QStringList compare = {u"compare"_s, u"--governors"_s, u"menu-6.14"_s};

        struct Case {
            QStringList args;
            QString victim;
            QByteArray bytes;
        };
        const Case cases[] = {
            {compare
                 + QStringList{u"--table"_s, u"intel-skx"_s, u"--workload"_s, u"csv:"_s + stream, u"--output"_s,
                               stream},
             stream, kTwoSpanStream},
            // Through a symlink: the same device and inode.
            {compare
                 + QStringList{u"--table"_s, u"intel-skx"_s, u"--workload"_s, u"csv:"_s + stream, u"--output"_s, link},
             stream, kTwoSpanStream},
            {compare
                 + QStringList{u"--table"_s, table, u"--workload"_s, u"periodic:interval_us=100"_s, u"--spans"_s,
                               u"100"_s, u"--output"_s, table},
             table, tableBytes},
            {compare + QStringList{u"--table"_s, u"intel-skx"_s, u"--trace"_s, trace, u"--output"_s, trace}, trace,
             traceBytes},
            {QStringList{u"trace-stats"_s, trace, u"--out"_s, trace}, trace, traceBytes},
            {QStringList{u"trace-stats"_s, trace, u"--table"_s, table, u"--out"_s, table}, table, tableBytes},
        };
        for (const Case &c : cases) {
            const CliResult r = runCli(c.args);
            QVERIFY2(refusedSaying(r, u"would overwrite the input"_s), qPrintable(c.args.join(' ') + u"\n"_s + r.err));
            QCOMPARE(readAll(c.victim), c.bytes);
        }
    }

    // Item 1: on a 64 KiB disk the entries were cut at 65,536 bytes, renamed
    // into place, exit 0.
    void fullDiskFailsAndKeepsTheOldFile()
    {
        idlescope::test::SmallTmpfs fs(64);
        if (!fs.mounted())
            QSKIP(fs.reason());
        const QString stream = m_tmp.filePath(u"pipe.csv"_s);
        QFile::copy(idlescope::test::kitDir() + u"/streams/pipe-wakeups.csv"_s, stream);
        const QString entries = fs.filePath(u"entries.csv"_s);
        writeFile(entries, "old entries\n");
        // pipe-wakeups under menu-6.14 makes far more than 64 KiB of entries.
        const CliResult r = runCli({u"replay"_s, u"--table"_s, u"intel-skx"_s, u"--stream"_s, stream, u"--governor"_s,
                                    u"menu-6.14"_s, u"--entries"_s, entries});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"No space left on device"_s), qPrintable(r.err));
        QCOMPARE(readAll(entries), QByteArray("old entries\n"));
        QCOMPARE(QDir(fs.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{u"entries.csv"_s});

        // --export-streams: 3 x 20,000 spans (about 1.5 MB) do not fit; no folder is left behind.
        const QString dir = fs.filePath(u"streams"_s);
        const CliResult c =
            runCli({u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--workload"_s, u"poisson:mean_us=100"_s,
                    u"--governors"_s, u"menu-6.14"_s, u"--spans"_s, u"20000"_s, u"--export-streams"_s, dir});
        QVERIFY2(refusedSaying(c, u"No space left on device"_s), qPrintable(c.err));
        QVERIFY(!QFile::exists(dir));
    }

    // Item 14: options that did nothing were accepted without a word.
    void ignoredOptionsAreRefused()
    {
        const QString stream = m_tmp.filePath(u"fixed.csv"_s);
        writeFile(stream, kTwoSpanStream);
        CliResult r = runCli({u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--governors"_s, u"menu-6.14"_s,
                              u"--workload"_s, u"periodic:interval_us=100"_s, u"--cpu"_s, u"1"_s});
        QVERIFY2(refusedSaying(r, u"field '--cpu'"_s), qPrintable(r.err));
        const QString dir = m_tmp.filePath(u"never"_s);
        r = runCli({u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--governors"_s, u"menu-6.14"_s, u"--workload"_s,
                    u"csv:"_s + stream, u"--export-streams"_s, dir});
        QVERIFY2(refusedSaying(r, u"field '--export-streams'"_s), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir));
    }

    // Items 9 and 14: a FIFO blocked open() for ever, /dev/zero was read until
    // memory ran out, a BOM made JSON "cpupower text", "0abc" was CPU 0.
    void tableArgumentsThatAreNotTables()
    {
        const QString stream = m_tmp.filePath(u"t.csv"_s);
        writeFile(stream, kTwoSpanStream);
        auto replay = [&](const QString &table) {
            return runCli({u"replay"_s, u"--table"_s, table, u"--stream"_s, stream, u"--governor"_s, u"oracle"_s});
        };
        const QString fifo = m_tmp.filePath(u"fifo.json"_s);
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        CliResult r = replay(fifo);
        QVERIFY2(refusedSaying(r, fifo + u": is a FIFO (named pipe), not a file"_s), qPrintable(r.err));
        const QString zero = m_tmp.filePath(u"zero.json"_s);
        QVERIFY(QFile::link(u"/dev/zero"_s, zero));
        r = replay(zero);
        QVERIFY2(refusedSaying(r, zero + u": is a device, not a file"_s), qPrintable(r.err));
        r = replay(repro("table-with-bom.json"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(u"\"variant\": \"oracle\""_s), qPrintable(r.err));
        r = replay(u"sysfs:/sys/devices/system/cpu:0abc"_s);
        QVERIFY2(refusedSaying(r, u"got CPU '0abc'"_s), qPrintable(r.err));
    }

    // Item 11: std::bad_alloc ended in std::terminate (exit 134).
    void outOfMemoryIsExit2()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("an address-space limit and ASan's shadow memory do not mix");
#endif
        // 10,000,000 spans of 40 bytes per job do not fit in a 300 MB address space.
        QProcess p;
        p.start(u"prlimit"_s, {u"--as=300000000"_s, QStringLiteral(IDLESCOPE_CLI), u"compare"_s, u"--table"_s,
                               u"intel-skx"_s, u"--workload"_s, u"poisson:mean_us=100"_s, u"--governors"_s,
                               u"menu-6.14"_s, u"--spans"_s, u"10000000"_s, u"--iterations"_s, u"2"_s});
        if (!p.waitForStarted())
            QSKIP("no prlimit (util-linux) here");
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains(u"out of memory while"_s), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCliReliability)
#include "tst_cli_reliability.moc"
