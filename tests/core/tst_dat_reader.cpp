// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The .dat importer's isolating child is a program of its own, started with
 * posix_spawn (core/trace/dat_reader.h), not a fork() of the importing process.
 * The fork hung under AddressSanitizer: the GUI's runner imports on a pooled
 * thread, and libtracecmd's calloc in the forked child waited for ever on an
 * allocator lock another thread held at the fork (3 hangs in 15 runs of
 * tst_recorded_row in the asan workflow; gdb: __sanitizer::Mutex::Lock under
 * tracecmd_open_fd). These cases pin the new shape: the reader's path is the
 * one started, a reader that dies or says nothing is reported as such, and
 * imports from several threads at once, with other threads allocating, each
 * give the whole trace.
 */
#include "core/trace/dat_reader.h"
#include "core/trace/trace_import.h"

#include "tests/test_paths.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

// trace-stats of it: "idle entries: 7115 (+1 truncated)" and "65698 of 65698 records".
constexpr std::int64_t PIPE200_ENTRIES = 7115 + 1;
constexpr std::int64_t PIPE200_RECORDS = 65698;

std::string pipe200()
{
    return test::tracePath(QStringLiteral("vm-amd-2cpu-pipe200us.dat")).toStdString();
}

/// Sets $IDLESCOPE_DAT_READER for one scope.
class ReaderOverride {
public:
    explicit ReaderOverride(const QString &path) { qputenv("IDLESCOPE_DAT_READER", path.toLocal8Bit()); }
    ~ReaderOverride() { qunsetenv("IDLESCOPE_DAT_READER"); }
};

/// A stand-in reader: a shell script with @p body.
QString script(const QTemporaryDir &dir, const char *name, const char *body)
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("#!/bin/sh\n");
    f.write(body);
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

/// The error importTraceDat() gives for pipe200 when the reader is a script with @p body
/// ("" when it imports).
std::string errorWithReaderScript(const char *name, const char *body)
{
    QTemporaryDir dir;
    const ReaderOverride reader(script(dir, name, body));
    const Result<TraceImport> r = importTraceDat(pipe200());
    return r ? std::string() : r.error().message;
}

} // namespace

class TestDatReader : public QObject {
    Q_OBJECT

private slots:
    void theBuildTreesReaderIsFound()
    {
        // In this build tree the lookup ends at app/dat_reader/idlescope-dat-reader.
        const std::string path = datReaderPath();
        QVERIFY2(path.ends_with("/app/dat_reader/idlescope-dat-reader"), path.c_str());
        QVERIFY(QFileInfo(QString::fromStdString(path)).isExecutable());
    }

    void theNamedReaderIsTheOneStarted()
    {
        const ReaderOverride missing(QStringLiteral("/nonexistent/idlescope-dat-reader"));
        const Result<TraceImport> r = importTraceDat(pipe200());
        QVERIFY(!r);
        QCOMPARE(r.error().file, pipe200());
        QVERIFY2(r.error().message.find("cannot run /nonexistent/idlescope-dat-reader: No such file or directory")
                     != std::string::npos,
                 r.error().message.c_str());
        // The in-process read starts nothing.
        ImportConfig direct;
        direct.isolateDat = false;
        const Result<TraceImport> d = importTraceDat(pipe200(), direct);
        QVERIFY(d);
        QCOMPARE(d->totalEntries(), PIPE200_ENTRIES);
    }

    void aReaderKilledByASignalIsADamagedFile()
    {
        QCOMPARE(errorWithReaderScript("crash", "kill -SEGV $$\n"),
                 std::string(
                     "libtracecmd/libtraceevent crashed reading this .dat file (signal 11): the file is damaged"));
    }

    void aReaderThatSendsNothingIsNotAResult()
    {
        QCOMPARE(errorWithReaderScript("silent", "exit 0\n"),
                 std::string("reading this .dat file failed (the reading process ended without a result)"));
    }

    void theRealReaderRefusesWrongArguments()
    {
        const QString reader = QString::fromStdString(datReaderPath());
        QCOMPARE(QProcess::execute(reader, {QStringLiteral("--bogus")}), DAT_READER_USAGE);
        QCOMPARE(QProcess::execute(reader, {QStringLiteral("--")}), DAT_READER_USAGE);
    }

    void importsOnManyThreadsWhileOthersAllocate()
    {
        // The shape that hung the fork: imports on pooled threads while other threads
        // hold and release the allocator's locks.
        std::atomic<bool> stop{false};
        std::vector<std::thread> churn;
        for (int t = 0; t < 2; ++t)
            churn.emplace_back([&stop] {
                while (!stop.load(std::memory_order_relaxed)) {
                    auto blocks = std::make_unique<std::vector<std::unique_ptr<char[]>>>();
                    for (int i = 0; i < 256; ++i)
                        blocks->push_back(std::make_unique<char[]>(64 + i * 16));
                }
            });
        constexpr int THREADS = 4, IMPORTS = 3;
        std::vector<std::int64_t> entries(THREADS * IMPORTS, -1), records(THREADS * IMPORTS, -1);
        std::vector<std::thread> importers;
        for (int t = 0; t < THREADS; ++t)
            importers.emplace_back([&, t] {
                for (int i = 0; i < IMPORTS; ++i) {
                    const Result<TraceImport> r = importTraceDat(pipe200());
                    if (r) {
                        entries[t * IMPORTS + i] = r->totalEntries();
                        records[t * IMPORTS + i] = r->lines;
                    }
                }
            });
        for (std::thread &t : importers)
            t.join();
        stop = true;
        for (std::thread &t : churn)
            t.join();
        for (int k = 0; k < THREADS * IMPORTS; ++k) {
            QCOMPARE(entries[k], PIPE200_ENTRIES);
            QCOMPARE(records[k], PIPE200_RECORDS);
        }
    }
};

QTEST_GUILESS_MAIN(TestDatReader)
#include "tst_dat_reader.moc"
