// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli record on this machine: a one-second trace holds at least one
 * power:cpu_idle event (the idle loop traces every entry and exit, with or
 * without a cpuidle driver: kernel/sched/idle.c), the import of the file
 * agrees with what record printed, and the governor file names the running
 * governor; or record says why it could not (not root, no tracefs, no
 * trace-cmd), and the test is skipped with that reason. Bad options are
 * refused before anything is recorded.
 */
#include "tests/cli_process.h"
#include "tests/test_paths.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

using idlescope::test::CliResult;
using idlescope::test::runCli;

QString firstLine(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readLine()).trimmed() : QString();
}

/// `trace-cmd report FILE`: one line per event, "<name>: " after the timestamp.
QString report(const QString &file)
{
    QProcess p;
    p.start(u"trace-cmd"_s, {u"report"_s, file});
    // A report that did not end normally counts no event (a partial one would pass for fewer).
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit)
        return u"[trace-cmd report did not finish normally: "_s + p.errorString() + u']';
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

class TestRecord : public QObject {
    Q_OBJECT

private slots:
    void badOptionsAreRefused()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"t.dat"_s);
        for (const QStringList &args :
             {QStringList{u"record"_s, u"--duration"_s, u"0"_s, u"--output"_s, out},
              QStringList{u"record"_s, u"--duration"_s, u"x"_s, u"--output"_s, out},
              QStringList{u"record"_s, u"--duration"_s, u"1"_s, u"--output"_s, out, u"--"_s, u"true"_s},
              QStringList{u"record"_s, u"--output"_s, out, u"--"_s}, QStringList{u"record"_s, u"--bogus"_s, u"1"_s}}) {
            const CliResult r = runCli(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY(!r.err.isEmpty());
            QVERIFY(!QFile::exists(out));
        }
        // What follows "--" is the command's, even --help.
        const CliResult help = runCli({u"record"_s, u"--help"_s});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(u"--duration S"_s));
    }

    void recordsCpuIdleOnThisMachine()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"idle.dat"_s);
        const CliResult r = runCli({u"record"_s, u"--duration"_s, u"1"_s, u"--output"_s, out});
        if (r.exitCode == 2 && ::geteuid() != 0) {
            QVERIFY2(r.err.contains(u"needs root"_s), qPrintable(r.err));
            QSKIP("not root: record refuses, as it should");
        }
        if (r.exitCode == 2 && (r.err.contains(u"tracefs"_s) || r.err.contains(u"needs trace-cmd"_s)))
            QSKIP(qPrintable(u"record cannot run here: "_s + r.err.trimmed()));
        if (r.exitCode == 2 && r.err.contains(u"field 'cpu_idle'"_s)) {
            // Recorded, but not one idle entry traced (this VM: cpuidle driver "none").
            // The reason given must be true: trace-cmd report finds no cpu_idle line in
            // the file, and other events (sched_switch, at least the recorder's own) are there.
            const QString text = report(out);
            QCOMPARE(text.count(u" cpu_idle: "_s), 0);
            QVERIFY2(text.count(u" sched_switch: "_s) > 0, qPrintable(text.left(2000)));
            QSKIP(qPrintable(u"no cpu_idle event on this machine, and record says why: "_s + r.err.trimmed()));
        }
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // "<file>: N events understood, M cpu_idle" with M > 0.
        const QRegularExpressionMatch m =
            QRegularExpression(u": (\\d+) events understood, (\\d+) cpu_idle\\n"_s).match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        const qint64 idle = m.captured(2).toLongLong();
        QVERIFY2(idle > 0, qPrintable(r.out));
        QVERIFY(m.captured(1).toLongLong() >= idle);

        // An independent reading of the same file: trace-cmd report prints one
        // "cpu_idle:" line per event.
        QCOMPARE(report(out).count(u" cpu_idle: "_s), idle);

        // The governor beside the trace is the one sysfs says runs.
        const QString running = firstLine(u"/sys/devices/system/cpu/cpuidle/current_governor"_s);
        if (!running.isEmpty())
            QCOMPARE(firstLine(out + u".governor"_s), running);
        // A table only where the machine has cpuidle states (not in a VM without a driver).
        if (QFile::exists(u"/sys/devices/system/cpu/cpu0/cpuidle/state0/name"_s))
            QVERIFY(QFile::exists(out + u".table.json"_s));
        else
            QVERIFY(r.err.contains(u"no table saved"_s));
    }
};

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
