// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * compare --trace: a recorded trace as the workload gives the same table as
 * importing that CPU's spans and comparing on the stream file (issue #4).
 */
#include "tests/cli_process.h"
#include "tests/test_files.h"
#include "tests/test_paths.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using idlescope::test::CliResult;
using idlescope::test::runCli;

class TestCompareTrace : public QObject {
    Q_OBJECT

private slots:
    void traceWorkloadEqualsItsImportedStream()
    {
        QTemporaryDir tmp;
        const QString trace = idlescope::test::tracesDir() + u"/vm-amd-2cpu-timer500us.ftrace.txt.gz"_s;
        const QString stream = tmp.filePath(u"cpu0.csv"_s);
        const CliResult imported = runCli({u"import"_s, trace, u"--cpu"_s, u"0"_s, u"--stream"_s, stream});
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        // zcat trace | awk: CPU 0 has 5248 stream rows in 4697 complete idle spans (ROWS and SPANS
        // of tst_trace_real: without a cpuidle driver every entry is a row).
        const QStringList common{
            u"compare"_s,  u"--table"_s, u"intel-skx"_s,        u"--governors"_s, u"menu-6.14,teo-6.14"_s,
            u"--format"_s, u"csv"_s,     u"--aggregates-only"_s};
        const CliResult fromTrace = runCli(common + QStringList{u"--trace"_s, trace, u"--cpu"_s, u"0"_s});
        QVERIFY2(fromTrace.exitCode == 0, qPrintable(fromTrace.err));
        QVERIFY2(fromTrace.err.contains(u"CPU 0, 5248 rows"_s), qPrintable(fromTrace.err));
        const CliResult fromCsv = runCli(common + QStringList{u"--workload"_s, u"csv:"_s + stream});
        QVERIFY2(fromCsv.exitCode == 0, qPrintable(fromCsv.err));
        // Same rows but for the workload label in the first column.
        const QStringList a = fromTrace.out.split(u'\n'), b = fromCsv.out.split(u'\n');
        QCOMPARE(a.size(), b.size());
        QVERIFY(a.size() > 3);
        for (qsizetype i = 1; i < a.size(); ++i)
            QCOMPARE(a[i].mid(a[i].indexOf(',')), b[i].mid(b[i].indexOf(',')));
    }

    // A malformed line: import warned "F:5: malformed (field 'state')", compare --trace said
    // nothing of it (a user-test finding). Four idle entries on CPU 0, the third one bad: the
    // spans of the good ones replay, and the warning names the line.
    void malformedTraceLineIsWarnedAbout()
    {
        QTemporaryDir tmp;
        const QString trace = tmp.filePath(u"bad.txt"_s);
        idlescope::test::writeFile(
            trace, "# tracer: nop\n"
                   "          <idle>-0       [000] d..1.   10.000100: cpu_idle: state=1 cpu_id=0\n"
                   "          <idle>-0       [000] d..1.   10.000300: cpu_idle: state=4294967295 cpu_id=0\n"
                   "          <idle>-0       [000] d..1.   10.000400: cpu_idle: state=abc cpu_id=0\n"
                   "          <idle>-0       [000] d..1.   10.000600: cpu_idle: state=4294967295 cpu_id=0\n"
                   "          <idle>-0       [000] d..1.   10.000700: cpu_idle: state=1 cpu_id=0\n"
                   "          <idle>-0       [000] d..1.   10.000900: cpu_idle: state=4294967295 cpu_id=0\n");
        const CliResult r = runCli({u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--governors"_s, u"menu-6.14"_s,
                                    u"--trace"_s, trace, u"--cpu"_s, u"0"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(trace + u":4: malformed (field 'state')"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"warnings: malformed x1"_s), qPrintable(r.err));
        // Every CPU at once (the machine compare) says it too.
        const CliResult m =
            runCli({u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--governors"_s, u"menu-6.14"_s, u"--trace"_s, trace});
        QVERIFY2(m.err.contains(trace + u":4: malformed (field 'state')"_s), qPrintable(m.err));
    }

    void traceAndWorkloadTogetherIsAnError()
    {
        const CliResult r = runCli({u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--governors"_s, u"oracle"_s,
                                    u"--workload"_s, u"periodic"_s, u"--trace"_s, u"x.dat"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"either --workload or --trace"_s), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCompareTrace)
#include "tst_compare_trace.moc"
