// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * compare --trace: a recorded trace as the workload gives the same table as
 * importing that CPU's spans and comparing on the stream file (issue #4).
 */
#include "tests/test_paths.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestCompareTrace : public QObject {
    Q_OBJECT

    static QByteArray run(const QStringList &args, int *exitCode, QByteArray *err = nullptr)
    {
        QProcess p;
        p.start(QStringLiteral(IDLESCOPE_CLI), args);
        p.waitForFinished(300000);
        *exitCode = p.exitCode();
        if (err)
            *err = p.readAllStandardError();
        return p.readAllStandardOutput();
    }

private slots:
    void traceWorkloadEqualsItsImportedStream()
    {
        QTemporaryDir tmp;
        const QString trace = idlescope::test::tracesDir() + u"/vm-amd-2cpu-timer500us.ftrace.txt.gz"_s;
        const QString stream = tmp.filePath(u"cpu0.csv"_s);
        int rc = -1;
        QByteArray err;
        run({u"import"_s, trace, u"--cpu"_s, u"0"_s, u"--stream"_s, stream}, &rc, &err);
        QVERIFY2(rc == 0, err.constData());
        // zcat trace | awk: CPU 0 has 4697 complete idle spans (see tst_trace_real for the derivation).
        const QStringList common{u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--governors"_s,
                                 u"menu-6.14,teo-6.14"_s, u"--format"_s, u"csv"_s, u"--aggregates-only"_s};
        const QByteArray fromTrace = run(common + QStringList{u"--trace"_s, trace, u"--cpu"_s, u"0"_s}, &rc, &err);
        QVERIFY2(rc == 0, err.constData());
        QVERIFY2(err.contains("CPU 0, 4697 idle spans"), err.constData());
        const QByteArray fromCsv = run(common + QStringList{u"--workload"_s, u"csv:"_s + stream}, &rc, &err);
        QVERIFY2(rc == 0, err.constData());
        // Same rows but for the workload label in the first column.
        QList<QByteArray> a = fromTrace.split('\n'), b = fromCsv.split('\n');
        QCOMPARE(a.size(), b.size());
        QVERIFY(a.size() > 3);
        for (qsizetype i = 1; i < a.size(); ++i)
            QCOMPARE(a[i].mid(a[i].indexOf(',')), b[i].mid(b[i].indexOf(',')));
    }

    void traceAndWorkloadTogetherIsAnError()
    {
        int rc = -1;
        QByteArray err;
        run({u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--governors"_s, u"oracle"_s, u"--workload"_s,
             u"periodic"_s, u"--trace"_s, u"x.dat"_s},
            &rc, &err);
        QCOMPARE(rc, 2);
        QVERIFY2(err.contains("either --workload or --trace"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCompareTrace)
#include "tst_compare_trace.moc"
