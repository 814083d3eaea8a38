// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Every input the fuzzers ever crashed on (tests/fuzz/regressions/<target>/),
 * replayed through the same calls as the fuzz target, in the ordinary test
 * run (no clang needed). An input must give a result or an Error with a
 * message; exported streams must pass the conformance reader's checks.
 */
#include "core/io/stream_csv.h"
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_stats.h"
#include "core/trace/trace_stream.h"

#include "tests/test_paths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

QStringList inputs(const char *target)
{
    const QDir dir(test::sourceDir() + QStringLiteral("/tests/fuzz/regressions/") + QString::fromUtf8(target));
    QStringList files;
    for (const QString &name : dir.entryList(QDir::Files | QDir::Hidden, QDir::Name))
        files << dir.filePath(name);
    return files;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestTraceFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void textInputs()
    {
        const QStringList files = inputs("fuzz_trace_text");
        QVERIFY(!files.isEmpty()); // at least the .gitkeep: the folder is where the script looks
        IdleStateTable t;
        t.id = "fuzz";
        t.states = {{"WFI", "", 1000, 1000, false, false}, {"C2", "", 100000, 300000, false, false}};
        for (const QString &path : files) {
            const QByteArray bytes = readAll(path);
            Result<TraceImport> r = importTraceText(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                                                    path.toStdString());
            if (!r) {
                QVERIFY2(!r.error().message.empty(), qPrintable(path));
                continue;
            }
            const TraceStats s = computeStats(*r, &t);
            QVERIFY(!formatStatsJson({*r, s, nullptr}).empty());
            for (const CpuTrace &c : r->cpus) {
                const StreamExport ex = toReplayStream(c);
                for (const IdleSpan &row : ex.stream)
                    QVERIFY2(validateSpan(row, "x", 1).ok(), qPrintable(path));
            }
        }
    }

    void libtraceeventCrashIsAnError()
    {
        // fuzz_trace_dat found this: lisa-juno-sched_load-6cpu.dat with 7 bytes changed makes
        // libtraceevent 1.7.1's tep_parse_event() dereference a null pointer (SEGV at 0x38)
        // while tracecmd_open() parses the event formats. Offsets (0-based) and new bytes,
        // from `cmp -l crash-file lisa-juno-sched_load-6cpu.dat` (1-based, octal).
        const std::pair<qint64, char> patch[] = {{435344, '\x54'},  {712953, '\xd0'}, {712954, '\xc7'},
                                                 {712955, '\xce'},  {712956, '\xc6'}, {2469990, '\x36'},
                                                 {3192819, '\x39'}};
        QByteArray bytes = readAll(test::sharedDir() + QStringLiteral("/data/traces/lisa-juno-sched_load-6cpu.dat"));
        QCOMPARE(bytes.size(), qsizetype(3436544));
        for (const auto &[at, byte] : patch)
            bytes[at] = byte;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crash.dat"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        Result<TraceImport> r = importTrace(path.toStdString());
        QVERIFY(!r);
        QCOMPARE(r.error().file, path.toStdString());
        QVERIFY2(r.error().message.find("crashed reading this .dat file") != std::string::npos, r.error().message.c_str());
    }

    void fileInputs()
    {
        QTemporaryDir dir;
        const QStringList files = inputs("fuzz_trace_dat");
        QVERIFY(!files.isEmpty());
        for (const QString &path : files) {
            const QString copy = dir.filePath(QStringLiteral("input.dat"));
            QFile::remove(copy);
            QVERIFY(QFile::copy(path, copy));
            Result<TraceImport> r = importTrace(copy.toStdString());
            if (!r)
                QVERIFY2(!r.error().message.empty(), qPrintable(path));
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
        Result<TraceImport> full = importTrace((test::sharedDir() + QStringLiteral("/data/traces/trappy-trace_idle-6cpu.dat")).toStdString());
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
