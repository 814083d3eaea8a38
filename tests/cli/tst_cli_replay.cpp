// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli replay / governors end to end: the output files equal the
 * conformance kit's byte for byte, and bad input gives exit code 2, a message
 * naming file, line and field, and no output file (an existing one untouched).
 */
#include "tests/cli/cli_test.h"

#include "core/formats/line_reader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray gunzipFile(const QString &path)
{
    idlescope::LineReader r(path.toStdString());
    QByteArray out;
    std::string_view line;
    while (r.next(line)) {
        out.append(line.data(), static_cast<qsizetype>(line.size()));
        out.append('\n');
    }
    return out;
}

} // namespace

class TestCliReplay : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_kit;

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_kit = idlescope::test::kitDir();
    }

    void governorsListsVariantsWithKernelVersions()
    {
        const CliResult r = runCli({u"governors"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"oracle"_s));
        for (const char *id : {"menu-6.14", "menu-resthresh", "teo-6.14", "ladder-latest", "haltpoll-latest"})
            QVERIFY2(r.out.contains(QString::fromLatin1(id)), id);
    }

    void replayWritesTheKitFormatsExactly_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QString>("table");
        QTest::newRow("menu-6.14 pipe on POWER10") << u"menu-6.14"_s << u"pipe-wakeups"_s << u"pseries-p10"_s;
        QTest::newRow("teo-latest edge cases on skl") << u"teo-latest"_s << u"edge-cases"_s << u"intel-skl"_s;
        // In-idle wakeups (need_resched = 0 rows): the stopped tick carried across them, polling
        // through them, and v7.1's SAFE_TIMER_RANGE_NS rules.
        QTest::newRow("menu-7.1 irq-in-idle on skx") << u"menu-7.1"_s << u"irq-in-idle"_s << u"intel-skx"_s;
        QTest::newRow("teo-7.1 irq-in-idle on rk3399") << u"teo-7.1"_s << u"irq-in-idle"_s << u"rk3399"_s;
        QTest::newRow("menu-6.14 irq-in-idle on POWER10") << u"menu-6.14"_s << u"irq-in-idle"_s << u"pseries-p10"_s;
        QTest::newRow("haltpoll irq-in-idle") << u"haltpoll-latest"_s << u"irq-in-idle"_s << u"haltpoll-guest"_s;
    }

    void replayWritesTheKitFormatsExactly()
    {
        QFETCH(QString, variant);
        QFETCH(QString, stream);
        QFETCH(QString, table);
        const QString entries = m_tmp.filePath(variant + u"-entries.csv"_s);
        const QString summary = m_tmp.filePath(variant + u"-summary.json"_s);
        const CliResult r = runCli({u"replay"_s, u"--table"_s, m_kit + u"/tables/"_s + table + u".json"_s,
                                    u"--stream"_s, m_kit + u"/streams/"_s + stream + u".csv"_s, u"--governor"_s,
                                    variant, u"--entries"_s, entries, u"--summary"_s, summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString base = m_kit + u"/expected/"_s + variant + u'/' + stream + u"__"_s + table;
        QCOMPARE(readAll(entries), gunzipFile(base + u".csv.gz"_s));
        QCOMPARE(readAll(summary), readAll(base + u".summary.json"_s));
    }

    void badInputIsNamedAndLeavesNoOutput_data()
    {
        QTest::addColumn<QByteArray>("streamText");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("expectedMessage");
        const QByteArray header = "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n";
        QTest::newRow("missing column") << QByteArray("gap_ns,timer_ns,latency_req_ns\n1,2,3\n") << u"oracle"_s
                                        << u":1: field 'wake_ns': missing column"_s;
        QTest::newRow("not an integer") << header + "1000,5000,2000,-1,0\n1000,5000,20.5,-1,0\n"
                                        << u"oracle"_s << u":3: field 'wake_ns': '20.5' is not an integer"_s;
        QTest::newRow("wake after timer") << header + "1000,5000,7000,-1,0\n"
                                          << u"oracle"_s << u":2: field 'wake_ns': wake_ns 7000 > timer_ns 5000"_s;
        QTest::newRow("microsecond column")
            << QByteArray("gap_us,timer_ns,wake_ns,latency_req_ns,util\n1,2,2,-1,0\n") << u"oracle"_s
            << u":1: field 'gap_us': times must be integer nanoseconds"_s;
        QTest::newRow("empty stream") << header << u"oracle"_s << u"the stream has no idle spans"_s;
        // Found by a fresh user: int64 overflow gave negative times or a hang.
        QTest::newRow("huge wake") << header + "1000,9223372036854775807,9223372036854775807,-1,0\n"
                                   << u"oracle"_s << u":2: field 'wake_ns': longer than 10000 s"_s;
        QTest::newRow("unknown variant") << header + "1000,5000,2000,-1,0\n"
                                         << u"menu-9.99"_s << u"unknown variant 'menu-9.99'"_s;
    }

    void badInputIsNamedAndLeavesNoOutput()
    {
        QFETCH(QByteArray, streamText);
        QFETCH(QString, variant);
        QFETCH(QString, expectedMessage);
        const QString stream = m_tmp.filePath(u"bad.csv"_s);
        writeFile(stream, streamText);
        const QString entries = m_tmp.filePath(u"bad-entries.csv"_s);
        const QString summary = m_tmp.filePath(u"bad-summary.json"_s);
        QFile::remove(entries);
        writeFile(summary, "precious");
        const CliResult r =
            runCli({u"replay"_s, u"--table"_s, m_kit + u"/tables/intel-skx.json"_s, u"--stream"_s, stream,
                    u"--governor"_s, variant, u"--entries"_s, entries, u"--summary"_s, summary});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expectedMessage), qPrintable(r.err));
        QVERIFY(!QFile::exists(entries));
        QCOMPARE(readAll(summary), QByteArray("precious"));
    }

    // Found by a fresh user: an empty --table file was parsed as 'cpupower idle-info'
    // output and the message blamed a missing 'CPUidle driver:' line.
    void emptyTableFileIsNamedEmpty()
    {
        const QString table = m_tmp.filePath(u"empty-table.json"_s);
        writeFile(table, "");
        const QString stream = m_tmp.filePath(u"one.csv"_s);
        writeFile(stream, "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n1000,50000,2000,-1,0\n");
        const CliResult r =
            runCli({u"replay"_s, u"--table"_s, table, u"--stream"_s, stream, u"--governor"_s, u"oracle"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(table + u": field '--table': empty file"_s), qPrintable(r.err));
    }

    // Found by a fresh user: outputs replaced inputs, read-only files, FIFOs and
    // each other, and a failing second output left the first one written.
    void outputsNeverClobberWhatTheyShouldNot()
    {
        const QString stream = m_tmp.filePath(u"in.csv"_s);
        writeFile(stream, "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n1000,50000,2000,-1,0\n");
        const QString table = m_kit + u"/tables/intel-skx.json"_s;
        auto replay = [&](const QStringList &outs) {
            return runCli(
                QStringList{u"replay"_s, u"--table"_s, table, u"--stream"_s, stream, u"--governor"_s, u"oracle"_s}
                + outs);
        };
        CliResult r = replay({u"--summary"_s, stream});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"would overwrite the input"_s), qPrintable(r.err));
        QVERIFY(readAll(stream).startsWith("gap_ns"));

        const QString same = m_tmp.filePath(u"same.csv"_s);
        r = replay({u"--entries"_s, same, u"--summary"_s, same});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"the same file is named for two outputs"_s), qPrintable(r.err));
        QVERIFY(!QFile::exists(same));

        const QString readOnly = m_tmp.filePath(u"ro.json"_s);
        writeFile(readOnly, "keep");
        QFile::setPermissions(readOnly, QFile::ReadOwner);
        r = replay({u"--summary"_s, readOnly});
        QFile::setPermissions(readOnly, QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"is read-only"_s), qPrintable(r.err));
        QCOMPARE(readAll(readOnly), QByteArray("keep"));

        r = replay({u"--summary"_s, u"/dev/null"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"device, FIFO or socket"_s), qPrintable(r.err));

        const QString first = m_tmp.filePath(u"first.csv"_s);
        r = replay({u"--entries"_s, first, u"--summary"_s, m_tmp.filePath(u"no/such/dir/s.json"_s)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"does not exist"_s), qPrintable(r.err));
        QVERIFY(!QFile::exists(first));
    }

    void argumentsAreChecked_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("help for no command") << QStringList{u"help"_s, u"bogus"_s} << u"no command 'bogus'"_s;
        QTest::newRow("stray word") << QStringList{u"governors"_s, u"extra"_s} << u"unexpected argument 'extra'"_s;
        QTest::newRow("unknown flag last") << QStringList{u"governors"_s, u"--bogus"_s} << u"unknown option --bogus"_s;
        QTest::newRow("governor twice") << QStringList{u"replay"_s,   u"--table"_s,    u"x"_s,
                                                       u"--stream"_s, u"y"_s,          u"--governor"_s,
                                                       u"oracle"_s,   u"--governor"_s, u"menu-6.14"_s}
                                        << u"--governor is given more than once"_s;
    }

    void argumentsAreChecked()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void badTableIsNamed()
    {
        const QString table = m_tmp.filePath(u"table.json"_s);
        writeFile(table, "{\"id\": \"x\", \"states\": [\n {\"name\": \"C1\", \"exit_latency_ns\": 1.5, "
                         "\"target_residency_ns\": 2}]}");
        const CliResult r = runCli({u"replay"_s, u"--table"_s, table, u"--stream"_s, m_kit + u"/streams/bimodal.csv"_s,
                                    u"--governor"_s, u"oracle"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"field 'exit_latency_ns': state 0: must be a whole number"_s), qPrintable(r.err));
    }

    void unknownTunableIsRejected()
    {
        const CliResult r =
            runCli({u"replay"_s, u"--table"_s, m_kit + u"/tables/intel-skx.json"_s, u"--stream"_s,
                    m_kit + u"/streams/bimodal.csv"_s, u"--governor"_s, u"oracle"_s, u"--set"_s, u"NOPE=3"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"field 'NOPE'"_s), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliReplay)
#include "tst_cli_replay.moc"
