// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Every input the fuzzers ever crashed on or timed out with (tests/fuzz/regressions/<target>/),
 * replayed through the same calls as the fuzz target, in the ordinary test
 * run (no clang needed). Each input must give exactly what it gave when its
 * fix was made (entries, truncated entries, exported spans; or the error),
 * and exported streams must pass the conformance reader's checks.
 */
#include "core/formats/stream_csv.h"
#include "core/targets/sysfs_cpuidle.h"
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_stats.h"
#include "core/trace/trace_stream.h"
#include "core/workloads/workload_spec.h"

#include "tests/fuzz/sysfs_tree.h"
#include "tests/test_files.h"
#include "tests/test_paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

using idlescope::test::readAll;

QString folder(const char *target)
{
    return test::sourceDir() + QStringLiteral("/tests/fuzz/regressions/") + QString::fromUtf8(target);
}

QStringList inputs(const char *target)
{
    const QDir dir(folder(target));
    QStringList files;
    for (const QString &name : dir.entryList(QDir::Files | QDir::Hidden, QDir::Name))
        if (name != QStringLiteral(".gitkeep")) // keeps the folder in git, where the fuzz script looks
            files << dir.filePath(name);
    return files;
}

/// @p e names @p file, no line and no field (a .dat file is not read by lines or fields), and
/// says exactly @p message.
void verifyFileError(const Error &e, const QString &file, const char *message)
{
    QCOMPARE(e.file, file.toStdString());
    QCOMPARE(e.line, std::int64_t(0));
    QCOMPARE(e.field, std::string());
    QCOMPARE(e.message, std::string(message));
}

} // namespace

class TestTraceFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void textInputs_data()
    {
        // What each text input gives, from `idlescope-cli trace-stats FILE` ("idle entries: N (+T
        // truncated)"), `idlescope-cli import FILE --stream s.csv --cpu all` (rows of the CSVs) and
        // `idlescope-cli trace-stats FILE --format json` (the "all" row's spans and spans_dropped).
        // Rows: data lines of those CSVs (one more per in-idle wakeup than spans).
        // A new input in the folder must be added here with what it gives, or the test fails.
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("entries");   // idle entries, all CPUs: N + T
        QTest::addColumn<qint64>("truncated"); // entries cut by the trace's edges
        QTest::addColumn<qint64>("exported");  // spans in the replay streams, all CPUs
        QTest::addColumn<qint64>("rows");      // rows of those streams
        QTest::addColumn<qint64>("spans");     // idle spans, all CPUs: exported + the dropped ones
        // Spans not exported, by reason: missing a sched_switch, missing an exit, cut by the
        // trace's start, by its end, longer than the stream format takes (SpanDrop's order).
        QTest::addColumn<QList<qint64>>("dropped");
        // 8180166: a span longer than the stream format's limit is skipped (counted); CPU 0's other
        // 3 are exported. 12 spans = 3 exported + 2 missing a switch + 3 + 3 at the edges + 1 too long.
        QTest::newRow("span-longer-than-stream-limit")
            << "span-longer-than-stream-limit" << qint64(5) << qint64(3) << qint64(3) << qint64(3) << qint64(12)
            << QList<qint64>{2, 0, 3, 3, 1};
        // 5b67e63: a timestamp beyond int64 ns is not a timestamp (UBSan overflow once); the rest is
        // read. 9 spans, none exported: 6 missing a switch, 1 + 2 at the edges.
        QTest::newRow("ubsan-timestamp-overflow")
            << "ubsan-timestamp-overflow-521b2522.txt" << qint64(7) << qint64(2) << qint64(0) << qint64(0) << qint64(9)
            << QList<qint64>{6, 0, 1, 2, 0};
        // A span whose last entries lost their cpu_idle exits: its wakeup went back to the last
        // exit recorded while its rows ran on to the switch away, 161561 s later (a row the
        // stream reader rejects). The span's wakeup is now its last entry's end, and the span is
        // too long for a stream. 12 spans = 5 exported (6 rows: CPU 0 4 spans in 5 rows, CPU 3
        // one) + 1 missing a switch + 1 missing an exit + 2 + 2 at the edges + 1 too long.
        QTest::newRow("lost-exit-inside-span") << "lost-exit-inside-span" << qint64(16) << qint64(8) << qint64(5)
                                               << qint64(6) << qint64(12) << QList<qint64>{1, 1, 2, 2, 1};
    }

    void textInputs()
    {
        QFETCH(QString, file);
        QFETCH(qint64, entries);
        QFETCH(qint64, truncated);
        QFETCH(qint64, exported);
        QFETCH(qint64, rows);
        QFETCH(qint64, spans);
        QFETCH(QList<qint64>, dropped);
        const QString path = folder("fuzz_trace_text") + u'/' + file;
        const QByteArray bytes = readAll(path);
        QVERIFY2(!bytes.isEmpty(), qPrintable(path));
        Result<TraceImport> r =
            importTraceText(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())), path.toStdString());
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        IdleStateTable t;
        t.id = "fuzz";
        t.states = {{"WFI", "", 1000, 1000, false, false}, {"C2", "", 100000, 300000, false, false}};
        const TraceStats s = computeStats(*r, &t);
        QCOMPARE(r->totalEntries(), entries);
        QCOMPARE(s.total.truncatedEntries, truncated);
        // The JSON report the fuzz target writes says the same: its "all" row counts the entries
        // that are not truncated, the truncated ones and the exported spans (a well-formed
        // document, not just some text).
        const std::string json = formatStatsJson({*r, s, nullptr});
        QJsonParseError parsed{};
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &parsed);
        QVERIFY2(parsed.error == QJsonParseError::NoError, qPrintable(parsed.errorString()));
        QJsonObject all;
        for (const QJsonValue &cpu : doc.object().value(QStringLiteral("cpus")).toArray())
            if (cpu.toObject().value(QStringLiteral("cpu")).toString() == QStringLiteral("all"))
                all = cpu.toObject();
        QCOMPARE(all.value(QStringLiteral("entries")).toInteger(-1), entries - truncated);
        QCOMPARE(all.value(QStringLiteral("truncated_entries")).toInteger(-1), truncated);
        QCOMPARE(all.value(QStringLiteral("spans_exported")).toInteger(-1), exported);
        qint64 rowsSeen = 0, exportedSeen = 0, spansSeen = 0;
        QList<qint64> drops(SPAN_DROP_COUNT, 0);
        for (const CpuTrace &c : r->cpus) {
            const StreamExport ex = toReplayStream(c);
            for (const IdleSpan &row : ex.stream)
                QVERIFY2(validateSpan(row, "x", 1).ok(), qPrintable(path));
            rowsSeen += static_cast<qint64>(ex.stream.size());
            exportedSeen += ex.spans;
            spansSeen += static_cast<qint64>(c.spans.size());
            for (int d = 0; d < SPAN_DROP_COUNT; ++d)
                drops[d] += ex.droppedCount(static_cast<SpanDrop>(d));
        }
        QCOMPARE(rowsSeen, rows);
        QCOMPARE(exportedSeen, exported);
        QCOMPARE(spansSeen, spans);
        QCOMPARE(drops, dropped);
    }

    void everyTextInputIsListed()
    {
        QStringList listed;
        for (const char *name :
             {"lost-exit-inside-span", "span-longer-than-stream-limit", "ubsan-timestamp-overflow-521b2522.txt"})
            listed << QString::fromUtf8(name);
        QStringList present;
        for (const QString &path : inputs("fuzz_trace_text"))
            present << QFileInfo(path).fileName();
        QCOMPARE(present, listed);
    }

    void workloadSpecInputs()
    {
        // slow-overlay-saturated-video-sweep, `video:fps=810 +sweep`: a frame every 1.235 ms with
        // 3 ms of decoding in 4.94 ms (61 % busy) next to the sweep's 5 us runs every 10 us at
        // point 0 (50 %): 111 %, so the overlay's busy period never ends and each span absorbed
        // up to 1,000,000 events (21 s per input under ASan). Now at most 10,000 a span: point 0's
        // 300 spans cover 16.94 s (it was 1693.92 s) with 0.75 ms of idle, 0.004 %: saturated.
        // Points 1 and 2 (94 %, 86 % busy) absorb fewer and are what they were before the bound.
        // Figures as the fuzz target generates them (runSeed(1, p, 0), 300 spans, every span valid).
        const QStringList files = inputs("fuzz_workload_spec");
        QCOMPARE(files.size(), 1);
        QVERIFY(files.front().endsWith(QStringLiteral("/slow-overlay-saturated-video-sweep")));
        const QByteArray text = readAll(files.front());
        Result<workloads::WorkloadSpec> spec =
            workloads::parseWorkloadSpec(std::string_view(text.constData(), static_cast<size_t>(text.size())));
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().toString().c_str());
        QCOMPARE(spec->pointCount(), 28);
        struct Expected {
            qint64 noIdle, gapNs, wakeNs;
        };
        const Expected expected[3] = {{151, 16941310000, 750000}, {2, 58455000, 2925000}, {0, 20115000, 4365000}};
        for (int p = 0; p < 3; ++p) {
            const IdleStream s = workloads::generateStream(*spec, p, workloads::runSeed(1, p, 0), 300);
            QCOMPARE(s.size(), size_t(300));
            qint64 noIdle = 0, gap = 0, wake = 0;
            for (size_t i = 0; i < s.size(); ++i) {
                QVERIFY(validateSpan(s[i], "fuzz", static_cast<std::int64_t>(i) + 2).ok());
                noIdle += s[i].wakeNs == 0;
                gap += s[i].gapNs;
                wake += s[i].wakeNs;
            }
            QCOMPARE(noIdle, expected[p].noIdle);
            QCOMPARE(gap, expected[p].gapNs);
            QCOMPARE(wake, expected[p].wakeNs);
        }
    }

    void sysfsInputs()
    {
        // fifo-then-file: a FIFO at state0/latency, then a line writing that path. The fuzz
        // target's own tree writer opened the FIFO for writing and waited for a reader for ever
        // (CI: "libFuzzer: timeout" after 20 s); it now leaves the FIFO, so the importer meets
        // it and refuses it. This test hangs (ctest's timeout) if the writer blocks again.
        const QStringList files = inputs("fuzz_sysfs");
        QCOMPARE(files.size(), 1);
        QVERIFY(files.front().endsWith(QStringLiteral("/fifo-then-file")));
        const QByteArray text = readAll(files.front());
        QTemporaryDir dir;
        const std::filesystem::path tree = std::filesystem::path(dir.path().toStdString()) / "cpu";
        fuzz::writeSysfsTree(tree, std::string_view(text.constData(), static_cast<size_t>(text.size())));
        const std::string latency = (tree / "cpu0/cpuidle/state0/latency").string();
        QVERIFY(std::filesystem::is_fifo(latency));
        Result<SysfsCpuidle> s = readSysfsCpuidle(tree.string(), 0);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().file, latency);
        QCOMPARE(s.error().field, std::string("latency"));
        QCOMPARE(s.error().message,
                 std::string("is a FIFO (named pipe), not a file (a sysfs attribute must be a regular file)"));
    }

    void libtraceeventCrashIsAnError()
    {
        // fuzz_trace_dat found this: lisa-juno-sched_load-6cpu.dat with 7 bytes changed makes
        // libtraceevent 1.7.1's tep_parse_event() dereference a null pointer (SEGV at 0x38)
        // while tracecmd_open() parses the event formats. Offsets (0-based) and new bytes,
        // from `cmp -l crash-file lisa-juno-sched_load-6cpu.dat` (1-based, octal).
        const std::pair<qint64, char> patch[] = {{435344, '\x54'}, {712953, '\xd0'}, {712954, '\xc7'},
                                                 {712955, '\xce'}, {712956, '\xc6'}, {2469990, '\x36'},
                                                 {3192819, '\x39'}};
        QByteArray bytes = readAll(test::tracesDir() + QStringLiteral("/lisa-juno-sched_load-6cpu.dat"));
        QCOMPARE(bytes.size(), qsizetype(3436544));
        for (const auto &[at, byte] : patch)
            bytes[at] = byte;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crash.dat"));
        test::writeFile(path, bytes);
        // The reader process dies of the SEGV (signal 11); the importer says so, naming the file
        // only (no line or field: libtraceevent says nowhere where it stopped).
        Result<TraceImport> r = importTrace(path.toStdString());
        QVERIFY(!r);
        verifyFileError(r.error(), path,
                        "libtracecmd/libtraceevent crashed reading this .dat file (signal 11): the file is damaged");
    }

    void fileInputs()
    {
        // Each crashed libtracecmd or exhausted memory once; libtracecmd now refuses each
        // (`idlescope-cli trace-stats` on a copy says the same) and nothing else may happen.
        QTemporaryDir dir;
        const QStringList files = inputs("fuzz_trace_dat");
        QCOMPARE(files.size(), 3);
        for (const QString &path : files) {
            const QString copy = dir.filePath(QStringLiteral("input.dat"));
            QFile::remove(copy);
            QVERIFY(QFile::copy(path, copy));
            // tracecmd_open() returns no handle (core/trace/dat_importer.cpp): the file, no line
            // or field, and that message.
            Result<TraceImport> r = importTrace(copy.toStdString());
            QVERIFY2(!r.ok(), qPrintable(path));
            verifyFileError(r.error(), copy,
                            "libtracecmd cannot open this trace-cmd .dat file (damaged or unsupported version)");
        }
    }

    void datSeedsAreTheRealTraces()
    {
        // The small .dat seeds of fuzz_trace_dat (tests/fuzz/make_dat_seeds.py: the real files
        // without kallsyms and unused event formats, first pages of events only) must still be
        // the real traces: every one imports, and the trappy ones, which keep all pages (one
        // per CPU), give exactly the spans of the original, as v6 and as v7.
        const QString seeds = test::sourceDir() + QStringLiteral("/tests/fuzz/seeds/fuzz_trace_dat/");
        for (const char *name : {"juno-6cpu-4pages-v6.dat.gz", "trappy-6cpu-v6.dat.gz", "trappy-6cpu-v7.dat.gz",
                                 "vm-2cpu-2pages-v7-zstd.dat.gz"}) {
            Result<TraceImport> r = importTrace((seeds + QString::fromUtf8(name)).toStdString());
            QVERIFY2(r.ok(), name);
            QCOMPARE(r->format, TraceFormat::TraceCmdDat);
            QVERIFY2(r->totalEntries() > 0, name);
        }
        Result<TraceImport> full =
            importTrace((test::tracesDir() + QStringLiteral("/trappy-trace_idle-6cpu.dat")).toStdString());
        QVERIFY(full.ok());
        for (const char *name : {"trappy-6cpu-v6.dat.gz", "trappy-6cpu-v7.dat.gz"}) {
            Result<TraceImport> small = importTrace((seeds + QString::fromUtf8(name)).toStdString());
            QVERIFY(small.ok());
            QCOMPARE(small->events, full->events);
            QCOMPARE(small->cpus.size(), full->cpus.size());
            for (size_t c = 0; c < full->cpus.size(); ++c) {
                const std::vector<IdleSpanRec> &a = full->cpus[c].spans;
                const std::vector<IdleSpanRec> &b = small->cpus[c].spans;
                QCOMPARE(b.size(), a.size());
                for (size_t i = 0; i < a.size(); ++i) {
                    QCOMPARE(b[i].startNs, a[i].startNs);
                    QCOMPARE(b[i].endNs, a[i].endNs);
                    QCOMPARE(b[i].flags, a[i].flags);
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceFuzzRegressions)
#include "tst_trace_fuzz_regressions.moc"
