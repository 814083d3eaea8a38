// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli import / trace-stats end to end on the real traces: stream
 * files per CPU that readStreamCsv loads and `replay` runs, the span/entry
 * dumps, the three stats formats, and bad input (exit code 2, a message with
 * file and field, no output file).
 */
#include "tests/test_paths.h"

#include "core/io/stream_csv.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

CliResult runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(IDLESCOPE_CLI), args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QString trace(const char *name) { return idlescope::test::sharedDir() + "/data/traces/"_L1 + QString::fromUtf8(name); }

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestImport : public QObject {
    Q_OBJECT

private slots:
    void importAllCpus()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"juno.csv"_s);
        const CliResult r = runCli({u"import"_s, trace("lisa-juno-sched_load-6cpu.dat"), u"--stream"_s, out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains(u"trace-cmd .dat"_s));
        // One file per CPU: OUT.cpuN.csv. Complete spans per CPU (SPANS awk of tst_trace_real): 31 11 10 18 16 3.
        const int spans[6] = {31, 11, 10, 18, 16, 3};
        for (int c = 0; c < 6; ++c) {
            const QString path = dir.filePath(u"juno.cpu%1.csv"_s.arg(c));
            idlescope::Result<idlescope::IdleStream> s = idlescope::readStreamCsv(path.toStdString());
            QVERIFY2(s.ok(), qPrintable(path));
            QCOMPARE(static_cast<int>(s->size()), spans[c]);
        }
        QVERIFY(!QFile::exists(out));
    }

    void importOneCpuAndReplay()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"pipe.csv"_s);
        const QString spans = dir.filePath(u"spans.csv"_s);
        const QString entries = dir.filePath(u"entries.csv"_s);
        CliResult r = runCli({u"import"_s, trace("vm-amd-2cpu-pipe100us.ftrace.txt.gz"), u"--cpu"_s, u"0"_s, u"--stream"_s,
                              out, u"--spans"_s, spans, u"--entries"_s, entries, u"--quiet"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        idlescope::Result<idlescope::IdleStream> s = idlescope::readStreamCsv(out.toStdString());
        QVERIFY(s.ok());
        QCOMPARE(s->size(), size_t(20672)); // SPANS awk: 0 20672
        // Entries dump: header + 21574 complete entries (ENTRIES awk: n 0 1 21574) + 0 truncated.
        QCOMPARE(readAll(entries).count('\n'), 1 + 21574);
        QVERIFY(readAll(spans).startsWith("cpu,span,start_ns,end_ns,wake_ns,timer_ns,entries,cause,flags\n"));
        // The stream runs through a governor.
        r = runCli({u"replay"_s, u"--table"_s, u"arm-juno-r0"_s, u"--stream"_s, out, u"--governor"_s, u"menu-6.14"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"\"spans\": 20672"_s));
    }

    void traceStatsFormats()
    {
        CliResult r = runCli({u"trace-stats"_s, trace("vm-amd-2cpu-idle.ftrace.txt.gz")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"# Recorded idle statistics"_s));
        QVERIFY(r.out.contains(u"| 0 | 1 | 55 |"_s)); // CPU 0, state 1, 55 entries (ENTRIES awk)
        QVERIFY(r.out.contains(u"not available (no cpu_idle_miss"_s));
        r = runCli({u"trace-stats"_s, trace("vm-amd-2cpu-idle.ftrace.txt.gz"), u"--format"_s, u"csv"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"\n0,cause,tick,37\n"_s)); // CAUSES awk: tick 37
        QTemporaryDir dir;
        const QString json = dir.filePath(u"s.json"_s);
        r = runCli({u"trace-stats"_s, trace("lisa-juno-sched_load-6cpu.report.txt"), u"--format"_s, u"json"_s,
                    u"--table"_s, u"arm-juno-r0"_s, u"--governor"_s, u"teo-6.14"_s, u"--out"_s, json});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(readAll(json)).object();
        QVERIFY(o.value(u"miss_source"_s).toString().startsWith(u"recomputed"_s));
        QCOMPARE(o.value(u"simulated"_s).toObject().value(u"spans"_s).toInteger(), qint64(89));
    }

    void badInput()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"x.csv"_s);
        // Not a trace.
        const QString junk = dir.filePath(u"junk.txt"_s);
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("gap_ns,timer_ns\n1,2\n");
        f.close();
        CliResult r = runCli({u"import"_s, junk, u"--stream"_s, out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"unknown format"_s));
        QVERIFY(r.err.contains(junk));
        QVERIFY(!QFile::exists(out));
        // A CPU without events.
        r = runCli({u"import"_s, trace("trappy-trace_idle-6cpu.report.txt"), u"--cpu"_s, u"4"_s, u"--stream"_s, out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"--cpu"_s));
        QVERIFY(!QFile::exists(out));
        r = runCli({u"import"_s, trace("trappy-trace_idle-6cpu.report.txt"), u"--cpu"_s, u"x"_s, u"--stream"_s, out});
        QCOMPARE(r.exitCode, 2);
        r = runCli({u"trace-stats"_s, trace("trappy-trace_idle-6cpu.report.txt"), u"--format"_s, u"xml"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"--format"_s));
        r = runCli({u"trace-stats"_s, u"/nonexistent.dat"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"/nonexistent.dat"_s));
        r = runCli({u"import"_s, trace("trappy-trace_idle-6cpu.report.txt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"--stream"_s));
    }
};

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
