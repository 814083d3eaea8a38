// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * What comes after a gzip member (issue 15, item 14: "junk after gzip data is
 * ignored"). `gzip -dc` (1.12), checked by hand on the same bytes:
 *   cat a.gz b.gz | gzip -dc      -> a's text then b's, exit 0 (members are read on)
 *   a.gz + "\0\0\0\0"             -> a's text, exit 0 (zero padding, silently)
 *   a.gz + "JUNKJUNK"             -> a's text, "decompression OK, trailing garbage ignored", exit 2
 *   a.gz + 10 bytes of b.gz       -> a's text, "unexpected end of file", exit 1
 * zlib's gzread(), which the readers used, read the junk case as a complete
 * file. Now members and padding are read as gzip does, and junk is refused
 * naming the file and the byte offset where it starts (the size of the member
 * before it), for every reader: the line reader, the stream CSV, text traces
 * and gzip'd .dat files.
 */
#include "core/formats/decompressed_file.h"
#include "core/formats/line_reader.h"
#include "core/formats/stream_csv.h"
#include "core/trace/trace_import.h"

#include "tests/test_files.h"
#include "tests/test_paths.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

using namespace idlescope;
using namespace Qt::StringLiterals;

namespace {

using idlescope::test::readAll;

QByteArray gzipped(const QByteArray &text)
{
    // One gzip member, as gzip(1) writes it (zlib's deflate with the gzip wrapper).
    z_stream z{};
    deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(static_cast<qsizetype>(deflateBound(&z, static_cast<uLong>(text.size()))), '\0');
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(text.constData()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(static_cast<qsizetype>(z.total_out));
    deflateEnd(&z);
    return out;
}

QByteArray gunzipped(const QByteArray &gz)
{
    z_stream z{};
    inflateInit2(&z, 16 + MAX_WBITS);
    QByteArray out;
    char buf[1 << 16];
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(gz.constData()));
    z.avail_in = static_cast<uInt>(gz.size());
    int ret = Z_OK;
    while (ret == Z_OK) {
        z.next_out = reinterpret_cast<Bytef *>(buf);
        z.avail_out = sizeof buf;
        ret = inflate(&z, Z_NO_FLUSH);
        out.append(buf, static_cast<qsizetype>(sizeof buf - z.avail_out));
    }
    inflateEnd(&z);
    return out;
}

bool contains(const std::string &s, const std::string &part)
{
    return s.find(part) != std::string::npos;
}

/// Every line of @p path, or the reader's error after them.
QStringList linesOf(const std::string &path, Error *error)
{
    LineReader r(path);
    QStringList lines;
    std::string_view l;
    while (r.next(l))
        lines << QString::fromUtf8(l.data(), static_cast<qsizetype>(l.size()));
    *error = r.error();
    return lines;
}

} // namespace

class TestGzipMembers : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    std::string write(const char *name, const QByteArray &bytes)
    {
        const QString p = m_tmp.filePath(QString::fromLatin1(name));
        QFile f(p);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(p));
        return p.toStdString();
    }

private slots:
    void membersAndPaddingAreReadAsGzipDoes()
    {
        const QByteArray a = gzipped("a\nb\n");
        const QByteArray b = gzipped("c\n");
        Error e;
        QCOMPARE(linesOf(write("cat.gz", a + b), &e), (QStringList{u"a"_s, u"b"_s, u"c"_s}));
        QVERIFY2(e.message.empty(), e.toString().c_str());
        QCOMPARE(linesOf(write("padded.gz", a + QByteArray(4, '\0')), &e), (QStringList{u"a"_s, u"b"_s}));
        QVERIFY2(e.message.empty(), e.toString().c_str());
        // Three members, the middle one empty (gzip < /dev/null): still a, b, c.
        QCOMPARE(linesOf(write("three.gz", a + gzipped("") + b), &e), (QStringList{u"a"_s, u"b"_s, u"c"_s}));
        QVERIFY2(e.message.empty(), e.toString().c_str());
    }

    void junkAfterTheDataIsRefusedWithItsOffset()
    {
        const QByteArray a = gzipped("a\nb\n");
        const std::string junk = write("junk.gz", a + "JUNKJUNK");
        Error e;
        // The lines before it are read; then the error, at byte a.size() (where the junk starts).
        QCOMPARE(linesOf(junk, &e), (QStringList{u"a"_s, u"b"_s}));
        QCOMPARE(e.file, junk);
        QCOMPARE(e.line, std::int64_t{3});
        QVERIFY2(contains(e.message, "junk after the gzip data at byte " + std::to_string(a.size()) + " (8 bytes"),
                 e.toString().c_str());
        // Zero padding followed by junk is junk too (gzip: "trailing garbage ignored"), from the member's end.
        const std::string zerosJunk = write("zeros-junk.gz", a + QByteArray(3, '\0') + "x");
        linesOf(zerosJunk, &e);
        QVERIFY2(contains(e.message, "junk after the gzip data at byte " + std::to_string(a.size()) + " (4 bytes"),
                 e.toString().c_str());
    }

    void aCutSecondMemberIsTruncated()
    {
        const QByteArray a = gzipped("a\nb\n");
        const QByteArray b = gzipped(QByteArray("c\n").repeated(100));
        Error e;
        for (const qsizetype keep : {qsizetype(1), qsizetype(3), b.size() - 4}) {
            linesOf(write("cut.gz", a + b.left(keep)), &e);
            QVERIFY2(contains(e.message, "the gzip stream is truncated"), e.toString().c_str());
        }
    }

    void plainFilesAreUnchanged()
    {
        // Text is not inflated, whatever follows; a file of one 0x1f byte is text (as gzread had it).
        Error e;
        QCOMPARE(linesOf(write("plain.txt", QByteArray("x\n\0\0y", 5)), &e).size(), 2);
        QVERIFY(e.message.empty());
        DecompressedFile one(write("one.bin", "\x1f"));
        char c = 0;
        QCOMPARE(one.read(&c, 1), size_t{1});
        QCOMPARE(c, '\x1f');
        QVERIFY(!one.isGzip());
    }

    void streamCsvWithJunkOrTwoMembers()
    {
        const QByteArray header = "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n";
        const QByteArray rows1 = "10,200,150,-1,0\n20,300,300,-1,0\n";
        const QByteArray rows2 = "30,400,100,5,1\n";
        // Two members: the three rows, as `gzip -dc` gives them.
        Result<IdleStream> two = readStreamCsv(write("two.csv.gz", gzipped(header + rows1) + gzipped(rows2)));
        QVERIFY2(two.ok(), two.ok() ? "" : two.error().toString().c_str());
        QCOMPARE(two->size(), size_t{3});
        QCOMPARE((*two)[2].gapNs, 30);
        QCOMPARE((*two)[2].latencyReqNs, 5);
        // Junk after one member: refused, not read as a two-row stream.
        const QByteArray member = gzipped(header + rows1);
        const std::string path = write("junk.csv.gz", member + "\n30,400,100,5,1\n");
        Result<IdleStream> junk = readStreamCsv(path);
        QVERIFY(!junk.ok());
        QCOMPARE(junk.error().file, path);
        QVERIFY2(contains(junk.error().message, "junk after the gzip data at byte " + std::to_string(member.size())),
                 junk.error().toString().c_str());
    }

    void textTraceWithJunkOrTwoMembers()
    {
        // vm-amd-2cpu-idle.ftrace.txt.gz, one member: `idlescope-cli trace-stats` counts its entries;
        // cut into two members at a line boundary it must give the same, with junk appended an error.
        const QString original = test::tracePath(QStringLiteral("vm-amd-2cpu-idle.ftrace.txt.gz"));
        const QByteArray gz = readAll(original);
        const QByteArray text = gunzipped(gz);
        QVERIFY(text.size() > 1000);
        const qsizetype cut = text.indexOf('\n', text.size() / 2) + 1;
        Result<trace::TraceImport> whole = trace::importTrace(original.toStdString());
        QVERIFY2(whole.ok(), whole.ok() ? "" : whole.error().toString().c_str());
        const std::string twoPath = write("two.txt.gz", gzipped(text.left(cut)) + gzipped(text.mid(cut)));
        Result<trace::TraceImport> two = trace::importTrace(twoPath);
        QVERIFY2(two.ok(), two.ok() ? "" : two.error().toString().c_str());
        QCOMPARE(two->totalEntries(), whole->totalEntries());
        QCOMPARE(two->events, whole->events);

        const std::string junkPath = write("junk.txt.gz", gz + "<idle>-0 [000] 1.0: cpu_idle: state=1 cpu_id=0\n");
        Result<trace::TraceImport> junk = trace::importTrace(junkPath);
        QVERIFY(!junk.ok());
        QCOMPARE(junk.error().file, junkPath);
        QVERIFY2(contains(junk.error().message, "junk after the gzip data at byte " + std::to_string(gz.size())),
                 junk.error().toString().c_str());
    }

    void gzippedDatWithJunkOrTwoMembers()
    {
        // A gzip'd .dat (fuzz_trace_dat's seed of trappy-trace_idle-6cpu.dat) through the .dat
        // path, which inflates it to a temporary file for libtracecmd.
        const QString original =
            test::sourceDir() + QStringLiteral("/tests/fuzz/seeds/fuzz_trace_dat/trappy-6cpu-v6.dat.gz");
        const QByteArray gz = readAll(original);
        const QByteArray dat = gunzipped(gz);
        Result<trace::TraceImport> whole = trace::importTrace(original.toStdString());
        QVERIFY2(whole.ok(), whole.ok() ? "" : whole.error().toString().c_str());
        QCOMPARE(whole->format, trace::TraceFormat::TraceCmdDat);
        const std::string twoPath =
            write("two.dat.gz", gzipped(dat.left(dat.size() / 3)) + gzipped(dat.mid(dat.size() / 3)));
        Result<trace::TraceImport> two = trace::importTrace(twoPath);
        QVERIFY2(two.ok(), two.ok() ? "" : two.error().toString().c_str());
        QCOMPARE(two->format, trace::TraceFormat::TraceCmdDat);
        QCOMPARE(two->events, whole->events);
        QCOMPARE(two->totalEntries(), whole->totalEntries());
        QVERIFY(whole->totalEntries() > 0);

        const std::string junkPath = write("junk.dat.gz", gz + QByteArray(512, 'J'));
        Result<trace::TraceImport> junk = trace::importTrace(junkPath);
        QVERIFY(!junk.ok());
        QCOMPARE(junk.error().file, junkPath);
        QVERIFY2(contains(junk.error().message,
                          "junk after the gzip data at byte " + std::to_string(gz.size()) + " (512 bytes"),
                 junk.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestGzipMembers)
#include "tst_gzip_members.moc"
