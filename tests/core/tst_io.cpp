// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * File formats: the line reader (plain, gzip, CRLF, no final newline), the
 * stream CSV and table JSON parsers with their error messages, table
 * validation and editing, and atomic saving.
 */
#include "core/formats/line_reader.h"
#include "core/formats/stream_csv.h"
#include "core/io/atomic_file.h"
#include "core/io/table_json.h"

#include "tests/test_require.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

using namespace idlescope;
using namespace Qt::StringLiterals;

class TestIo : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    std::string path(const char *name) { return m_tmp.filePath(QString::fromLatin1(name)).toStdString(); }

    void write(const std::string &p, const QByteArray &bytes)
    {
        QFile f(QString::fromStdString(p));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }

private slots:
    void lineReaderPlainCrlfAndNoFinalNewline()
    {
        const std::string p = path("plain.txt");
        write(p, "a,b\r\nccc\n\nlast");
        LineReader r(p);
        QVERIFY(r.ok());
        std::string_view l;
        QStringList lines;
        while (r.next(l))
            lines << QString::fromUtf8(l.data(), static_cast<qsizetype>(l.size()));
        QCOMPARE(lines, (QStringList{u"a,b"_s, u"ccc"_s, u""_s, u"last"_s}));
        QCOMPARE(r.lineNumber(), 4);
    }

    void lineReaderGzipAcrossChunks()
    {
        const std::string p = path("big.gz");
        gzFile gz = gzopen(p.c_str(), "wb");
        QVERIFY(gz);
        std::string line(1000, 'x');
        for (int i = 0; i < 1000; ++i) {
            std::string l = std::to_string(i) + line + "\n";
            gzwrite(gz, l.data(), static_cast<unsigned>(l.size()));
        }
        gzclose(gz);
        LineReader r(p);
        std::string_view l;
        int n = 0;
        while (r.next(l)) {
            QVERIFY(l.starts_with(std::to_string(n)));
            QCOMPARE(l.size(), std::to_string(n).size() + 1000);
            ++n;
        }
        QCOMPARE(n, 1000);
    }

    // Found by a fresh user: a truncated .gz was read as a shorter file.
    void lineReaderTruncatedGzipIsAnError()
    {
        const std::string full = path("full.gz");
        gzFile gz = gzopen(full.c_str(), "wb");
        for (int i = 0; i < 20000; ++i) {
            const std::string l = "line " + std::to_string(i * 7919) + "\n";
            gzwrite(gz, l.data(), static_cast<unsigned>(l.size()));
        }
        gzclose(gz);
        QFile f(QString::fromStdString(full));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string cut = path("cut.gz");
        write(cut, f.read(f.size() / 2));
        LineReader r(cut);
        std::string_view l;
        int n = 0;
        while (r.next(l))
            ++n;
        QVERIFY(n > 0 && n < 20000);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().toString().find("truncated") != std::string::npos, r.error().toString().c_str());
    }

    void streamAcceptsAByteOrderMark()
    {
        auto s = parseStreamCsv("\xEF\xBB\xBFgap_ns,timer_ns,wake_ns,latency_req_ns,util\n1,2,2,-1,0\n", "bom");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
        QCOMPARE(s->size(), size_t(1));
    }

    void lineReaderMissingFile()
    {
        LineReader r(path("nope.csv"));
        QVERIFY(!r.ok());
        QVERIFY(r.error().toString().find("nope.csv: no such file") != std::string::npos);
    }

    void streamParsesColumnsInAnyOrder()
    {
        auto s = parseStreamCsv("util,wake_ns,timer_ns,gap_ns,latency_req_ns\n7,100,200,5,-1\n\n3,0,0,0,20\n", "t");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
        QCOMPARE(s->size(), size_t(2));
        QCOMPARE((*s)[0].gapNs, 5);
        QCOMPARE((*s)[0].timerNs, 200);
        QCOMPARE((*s)[0].wakeNs, 100);
        QCOMPARE((*s)[0].latencyReqNs, -1);
        QCOMPARE((*s)[0].util, 7);
        QCOMPARE((*s)[1].latencyReqNs, 20);
        // util is optional.
        auto u = parseStreamCsv("gap_ns,timer_ns,wake_ns,latency_req_ns\n1,2,2,-1\n", "t");
        QVERIFY(u.ok());
        QCOMPARE((*u)[0].util, 0);
        // Round trip through the writer.
        auto back = parseStreamCsv(formatStreamCsv(*s), "t");
        QVERIFY(back.ok());
        QCOMPARE((*back)[1].util, 3);
    }

    void streamErrorsNameLineAndField_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        const QByteArray h = "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n";
        QTest::newRow("empty file") << QByteArray() << u"t:1: empty file"_s;
        QTest::newRow("field count") << h + "1,2,3\n" << u"t:2: expected 5 fields, found 3"_s;
        QTest::newRow("negative gap") << h + "-1,2,2,-1,0\n" << u"t:2: field 'gap_ns': must not be negative"_s;
        QTest::newRow("latency") << h + "1,2,2,-5,0\n" << u"t:2: field 'latency_req_ns'"_s;
        QTest::newRow("util") << h + "1,2,2,-1,2000\n" << u"t:2: field 'util': must be within 0..1024"_s;
        QTest::newRow("NaN") << h + "1,nan,2,-1,0\n" << u"t:2: field 'timer_ns': 'nan' is not an integer"_s;
        QTest::newRow("overflow") << h + "1,99999999999999999999,2,-1,0\n"
                                  << u"t:2: field 'timer_ns': '99999999999999999999' is not an integer"_s;
        QTest::newRow("unit suffix") << h + "1,20us,2,-1,0\n" << u"t:2: field 'timer_ns': '20us'"_s;
    }

    void streamErrorsNameLineAndField()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        auto s = parseStreamCsv(std::string_view(text.constData(), static_cast<size_t>(text.size())), "t");
        QVERIFY(!s.ok());
        QVERIFY(s.error().code == ErrorCode::BadInput); // a parse error is the input's, never "cancelled"
        const QString got = QString::fromStdString(s.error().toString());
        QVERIFY2(got.contains(message), qPrintable(got));
    }

    void errorCodesLeaveTheTextAlone()
    {
        // Bad input is the default code, and its text is file:line: field 'x': message as before.
        const Error bad{"t.csv", 3, "wake_ns", "must not be negative"};
        QVERIFY(bad.code == ErrorCode::BadInput);
        QVERIFY(!bad.isCancelled());
        QCOMPARE(bad.toString(), std::string("t.csv:3: field 'wake_ns': must not be negative"));
        // A cancel is told by its code, not by its words; the words still say what happened.
        const Error stop = Error::cancelled();
        QVERIFY(stop.isCancelled());
        QCOMPARE(stop.toString(), std::string("cancelled"));
        const Error import = Error::cancelled("import cancelled", "a.dat");
        QVERIFY(import.code == ErrorCode::Cancelled);
        QCOMPARE(import.toString(), std::string("a.dat: import cancelled"));
    }

    void tableJsonReadsKitFormat()
    {
        auto t = parseTableJson(R"({"id": "p10", "tick_hz": 100, "source": "x",
            "states": [{"name": "snooze", "exit_latency_ns": 0, "target_residency_ns": 0, "polling": true},
                       {"name": "CEDE", "exit_latency_ns": 12000, "target_residency_ns": 120000, "disabled": true}]})",
                                "p10.json");
        QVERIFY2(t.ok(), t.ok() ? "" : t.error().toString().c_str());
        QCOMPARE(t->id, std::string("p10"));
        QCOMPARE(t->tickHz, 100);
        QCOMPARE(t->tickNsec(), 10000000);
        QCOMPARE(t->count(), 2);
        QVERIFY((*t)[0].polling);
        QCOMPARE((*t)[1].exitLatencyNs, 12000);
        QCOMPARE((*t)[1].targetResidencyNs, 120000);
        QVERIFY((*t)[1].disabled);
        auto again = parseTableJson(formatTableJson(*t), "again");
        QVERIFY(again.ok());
        QCOMPARE((*again)[1].targetResidencyNs, 120000);
        QVERIFY((*again)[1].disabled);
    }

    void tableJsonErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("syntax") << QByteArray("{\n\"states\": [\n,]}") << u"x.json:3: JSON syntax error"_s;
        QTest::newRow("empty table") << QByteArray(R"({"states": []})") << u"the table has no idle states"_s;
        QTest::newRow("negative") << QByteArray(
            R"({"states": [{"name": "C1", "exit_latency_ns": -1, "target_residency_ns": 2}]})")
                                  << u"field 'exit_latency_ns': state 0 (C1): negative exit latency"_s;
        QTest::newRow("polling not first")
            << QByteArray(R"({"states": [{"name": "C1", "exit_latency_ns": 1, "target_residency_ns": 2},
                                         {"name": "POLL", "exit_latency_ns": 0, "target_residency_ns": 0, "polling": true}]})")
            << u"field 'polling': state 1 (POLL): only state 0 may be a polling state"_s;
        QTest::newRow("string value") << QByteArray(
            R"({"states": [{"name": "C1", "exit_latency_ns": "2", "target_residency_ns": 2}]})")
                                      << u"field 'exit_latency_ns': state 0: must be a number of nanoseconds"_s;
        QTest::newRow("missing key") << QByteArray(R"({"states": [{"name": "C1", "exit_latency_ns": 2}]})")
                                     << u"field 'target_residency_ns': state 0: missing"_s;
        QTest::newRow("tick") << QByteArray(R"({"tick_hz": 5, "states": []})") << u"field 'tick_hz'"_s;
        // Found by a fresh user: misleading or missing checks.
        QTest::newRow("tick in Hz") << QByteArray(R"({"tick_hz": 250.5, "states": []})")
                                    << u"field 'tick_hz': table: must be a whole number of Hz"_s;
        QTest::newRow("too big") << QByteArray(
            R"({"states": [{"name": "C1", "exit_latency_ns": 9223372036854775807, "target_residency_ns": 2}]})")
                                 << u"field 'exit_latency_ns': state 0: out of range"_s;
        QTest::newRow("duplicate names") << QByteArray(
            R"({"states": [{"name": "C1", "exit_latency_ns": 1, "target_residency_ns": 2},
                                         {"name": "C1", "exit_latency_ns": 5, "target_residency_ns": 20}]})")
                                         << u"field 'name': state 1 (C1): the name is used by state 0 too"_s;
        // Found by a fresh user as a hostile stranger: a state's name is shown beside its numbers
        // (U+202E turned them around) and a zero-width space made "C1" and "C\u200b1" two
        // states that look alike. The name is shown escaped in the message.
        QTest::newRow("bidi name") << QByteArray("{\"states\": [{\"name\": \"C1\xe2\x80\xae\", "
                                                 "\"exit_latency_ns\": 1, \"target_residency_ns\": 2}]}")
                                   << u"field 'name': state 0 (C1\\u202e): the name 'C1\\u202e' holds a control "
                                      "character, a bidirectional control or an invisible character"_s;
        QTest::newRow("zero-width name") << QByteArray(
            "{\"states\": [{\"name\": \"C1\", \"exit_latency_ns\": 1, \"target_residency_ns\": 2},"
            "{\"name\": \"C\xe2\x80\x8b\x31\", \"exit_latency_ns\": 5, \"target_residency_ns\": 20}]}")
                                         << u"field 'name': state 1 (C\\u200b1): the name 'C\\u200b1' holds"_s;
        QTest::newRow("names alike in a header")
            << QByteArray(R"({"states": [{"name": "a,b", "exit_latency_ns": 1, "target_residency_ns": 2},
                                         {"name": "a_b", "exit_latency_ns": 5, "target_residency_ns": 20}]})")
            << u"field 'name': state 1 (a_b): the tables would head its columns usage_a_b, as state 0's ('a,b')"_s;
        QTest::newRow("deep before shallow")
            << QByteArray(R"({"states": [{"name": "C6", "exit_latency_ns": 100, "target_residency_ns": 600},
                                         {"name": "C1", "exit_latency_ns": 1, "target_residency_ns": 2}]})")
            << u"field 'target_residency_ns': state 1 (C1): shorter than the state before it"_s;
    }

    void tableJsonErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        IDLESCOPE_REQUIRE_ERROR(parseTableJson(std::string_view(json.constData(), static_cast<size_t>(json.size())),
                                               "x.json"),
                                message);
    }

    void tableEditingRollsBackOnError()
    {
        IdleStateTable t;
        t.id = "e";
        t.states = {{"POLL", "", 0, 0, true, false}, {"C1", "", 2000, 2000, false, false}};
        QVERIFY(t.addState({"C6", "", 100000, 600000, false, false}, 2).ok());
        QCOMPARE(t.count(), 3);
        // Moving the polling state away from index 0 is refused and nothing changes.
        const Status s = t.moveState(0, 2);
        QVERIFY(!s.ok());
        QCOMPARE(t[0].name, std::string("POLL"));
        QVERIFY(!t.setTargetResidencyNs(1, -5).ok());
        QCOMPARE(t[1].targetResidencyNs, 2000);
        QVERIFY(!t.removeState(7).ok());
        QVERIFY(t.removeState(1).ok());
        QCOMPARE(t[1].name, std::string("C6"));
        QVERIFY(!t.setTickHz(0).ok());
        QCOMPARE(t.tickHz, 250);
        QVERIFY(t.setDisabled(0, true).ok());
        QCOMPARE(t.firstEnabled(), 1);
    }

    void atomicWriteKeepsOldFileOnFailure()
    {
        const std::string p = path("out.json");
        QVERIFY(writeFileAtomically(p, "one").ok());
        {
            AtomicWriter w(p);
            w.append("partial");
            // destroyed without commit: the old content stays
        }
        QFile f(QString::fromStdString(p));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("one"));
        const Status bad = writeFileAtomically(path("no/such/dir/x.json"), "x");
        QVERIFY(!bad.ok());
    }
};

QTEST_GUILESS_MAIN(TestIo)
#include "tst_io.moc"
