// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A .dat is read once: libtracecmd runs in a child that sends the events back
 * through a pipe (ImportConfig::isolateDat), and the parent reconstructs from
 * them. The result must equal the in-process read (isolateDat = false) field
 * for field on every in-tree .dat (the fuzz seeds: trace-cmd v6 and v7, zstd
 * sections, 2 and 6 CPUs) and on the shared real traces when present; an
 * Error from the libraries comes back unchanged; progress reaches the parent
 * and a cancel ends the child.
 */
#include "core/trace/trace_import.h"

#include "tests/test_paths.h"

#include <QDir>
#include <QTest>

#include <tuple>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

QStringList datFiles()
{
    QStringList out;
    const QDir seeds(test::sourceDir() + QStringLiteral("/tests/fuzz/seeds/fuzz_trace_dat"));
    for (const QString &f : seeds.entryList({QStringLiteral("*.dat.gz")}, QDir::Files, QDir::Name))
        out << seeds.filePath(f);
    const QDir traces(test::tracesDir());
    for (const QString &f : traces.entryList({QStringLiteral("*.dat")}, QDir::Files, QDir::Name))
        out << traces.filePath(f);
    return out;
}

Result<TraceImport> importDat(const QString &path, bool isolate, const ProgressFn &progress = {})
{
    ImportConfig config;
    config.isolateDat = isolate;
    return importTraceDat(path.toStdString(), config, progress);
}

// What the two reads must agree on, each compared as one value so that a failure prints
// every field of the record that differs, not only the first field.

/// A trace's counts: CPUs declared, lines (records) read, events understood, warnings.
auto countsOf(const TraceImport &t)
{
    return std::tuple(t.declaredCpus, t.lines, t.events, t.warnings.size());
}

/// A CPU's events and first and last timestamps.
auto extentOf(const CpuTrace &c)
{
    return std::tuple(c.events, c.firstNs, c.lastNs);
}

/// An entry's times, state, cause (kind and name), sleep length and flags.
auto fieldsOf(const IdleEntryRec &e)
{
    return std::tuple(e.enterNs, e.exitNs, int(e.state), int(e.cause), e.causeName, e.sleepLengthNs, int(e.flags));
}

/// A span's start, end, timer and flags.
auto fieldsOf(const IdleSpanRec &s)
{
    return std::tuple(s.startNs, s.endNs, s.timerNs, int(s.flags));
}

} // namespace

class TestDatReadOnce : public QObject {
    Q_OBJECT

private slots:
    void everyDatIsCovered()
    {
        // 4 small seeds (tests/fuzz/seeds) and the 3 real .dat traces of tests/data/traces.
        QCOMPARE(datFiles().size(), qsizetype(7));
    }

    void isolatedEqualsInProcess_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &f : datFiles())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void isolatedEqualsInProcess()
    {
        QFETCH(QString, path);
        const Result<TraceImport> direct = importDat(path, false);
        const Result<TraceImport> child = importDat(path, true);
        QCOMPARE(bool(child), bool(direct));
        if (!direct) {
            QCOMPARE(child.error().toString(), direct.error().toString());
            return;
        }
        const TraceImport &a = *child, &b = *direct;
        QVERIFY(b.events > 0);
        QCOMPARE(countsOf(a), countsOf(b));
        QCOMPARE(a.eventCounts, b.eventCounts);
        QCOMPARE(a.unknownEvents, b.unknownEvents);
        QCOMPARE(a.names, b.names);
        for (int k = 0; k < WARNING_KIND_COUNT; ++k)
            QCOMPARE(a.warningCounts[k], b.warningCounts[k]);
        QCOMPARE(a.cpus.size(), b.cpus.size());
        std::int64_t entries = 0;
        for (size_t c = 0; c < a.cpus.size(); ++c) {
            const CpuTrace &x = a.cpus[c], &y = b.cpus[c];
            QCOMPARE(extentOf(x), extentOf(y));
            QCOMPARE(x.entries.size(), y.entries.size());
            for (size_t i = 0; i < x.entries.size(); ++i)
                QCOMPARE(fieldsOf(x.entries[i]), fieldsOf(y.entries[i]));
            entries += static_cast<std::int64_t>(x.entries.size());
            QCOMPARE(x.spans.size(), y.spans.size());
            for (size_t i = 0; i < x.spans.size(); ++i)
                QCOMPARE(fieldsOf(x.spans[i]), fieldsOf(y.spans[i]));
        }
        // Every cpu_idle enter is an entry (exits and enters alternate in these traces).
        QVERIFY(entries > 0);
    }

    void errorsComeBackUnchanged()
    {
        // tests/data/traces/trappy-sched-only.dat.gz: sched events, no power:cpu_idle.
        const QString path = test::testDataDir() + QStringLiteral("/traces/trappy-sched-only.dat.gz");
        const Result<TraceImport> child = importDat(path, true);
        QVERIFY(!child);
        QCOMPARE(child.error().field, std::string("cpu_idle"));
        QCOMPARE(child.error().toString(), importDat(path, false).error().toString());
        // Not a .dat at all: libtracecmd refuses it in the child; the parent says so.
        const Result<TraceImport> junk =
            importDat(test::sourceDir() + QStringLiteral("/resources/targets/intel-skx.json"), true);
        QVERIFY(!junk);
        QVERIFY(junk.error().message.find("libtracecmd cannot open") != std::string::npos);
    }

    void progressAndCancel()
    {
        // vm-amd-2cpu-pipe200us.dat has 65699 events (trace-cmd report | wc -l): more than
        // the 65536 records between progress calls, so the child reports once mid-read.
        const QString path = test::tracePath(QStringLiteral("vm-amd-2cpu-pipe200us.dat"));
        std::vector<std::int64_t> calls;
        const Result<TraceImport> full = importDat(path, true, [&](std::int64_t done, std::int64_t) {
            calls.push_back(done);
            return true;
        });
        QVERIFY(full);
        QCOMPARE(calls.front(), std::int64_t(65536));
        QCOMPARE(calls.back(), full->lines); // the last call: done == total
        const Result<TraceImport> cancelled = importDat(path, true, [](std::int64_t, std::int64_t) { return false; });
        QVERIFY(!cancelled);
        QCOMPARE(cancelled.error().message, std::string("import cancelled"));
        QVERIFY(cancelled.error().code == ErrorCode::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestDatReadOnce)
#include "tst_dat_read_once.moc"
