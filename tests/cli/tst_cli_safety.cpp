// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli under the hostile cases of issue 30 (items 3 to 8, the CLI's
 * share): outputs over inputs of every kind (a governor's source and the
 * headers beside it, --baseline, --recorded-governor @FILE, TRACE.governor),
 * merge's shard files (a FIFO, a grid of 2^31 - 1 iterations, a counter of
 * 2^63 - 1, runs missing), names that would split a table's header, and the
 * messages that blamed the wrong option or the wrong unit. Every case here
 * exited 0, hung or aborted before its fix; now each exits 2 naming the file
 * or field and leaves the files it was not meant to write as they were.
 */
#include "tests/cli/cli_test.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <sys/stat.h>

namespace {

const QByteArray kHeader = "/* a header beside it, which the build includes */\n";

/// A shard of a small comparison (2 iterations, one governor, acpi-generic), made by compare --shard 1/1.
QJsonObject smallShard(const QString &dir)
{
    const QString path = dir + u"/small-shard.json"_s;
    const CliResult r = runCli({u"compare"_s, u"--table"_s, u"acpi-generic"_s, u"--governors"_s, u"menu-6.14"_s,
                                u"--workload"_s, u"periodic:interval_us=100"_s, u"--spans"_s, u"20"_s,
                                u"--iterations"_s, u"2"_s, u"--shard"_s, u"1/1"_s, u"--output"_s, path});
    if (r.exitCode != 0)
        qWarning("compare --shard: %s", qPrintable(r.err));
    return QJsonDocument::fromJson(readAll(path)).object();
}

} // namespace

class TestCliSafety : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    QString path(const QString &name) const { return m_tmp.filePath(name); }

private slots:
    // Item 3: each of these wrote its output over a file it read, and exited 0.
    void outputsNeverOverwriteInputs()
    {
        QDir().mkpath(path(u"gov"_s));
        // The user's patched governor: one that builds and runs (with one that does not, the
        // build failed before the output was written, and nothing showed).
        const QString source = path(u"gov/menu.c"_s), header = path(u"gov/menu.h"_s);
        QVERIFY(QFile::copy(idlescope::test::testDataDir() + u"/source_governors/hop.c"_s, source));
        const QByteArray kSource = readAll(source);
        writeFile(header, kHeader);
        const QString stream = path(u"in.csv"_s);
        writeFile(stream, kTwoSpanStream);
        const QString trace = path(u"trace.txt.gz"_s), baseline = path(u"baseline.txt.gz"_s);
        QFile::copy(idlescope::test::tracesDir() + u"/vm-amd-2cpu-timer500us.ftrace.txt.gz"_s, trace);
        QFile::copy(idlescope::test::tracesDir() + u"/vm-amd-2cpu-idle.ftrace.txt.gz"_s, baseline);
        const QByteArray baselineBytes = readAll(baseline);
        const QString saved = path(u"current_governor"_s);
        writeFile(saved, "menu\n");
        const QString sidecar = trace + u".governor"_s;
        writeFile(sidecar, "teo\n");
        const QStringList replay = {u"replay"_s, u"--table"_s, u"intel-skx"_s, u"--stream"_s, stream};

        struct Case {
            QStringList args;
            QString victim;
            QByteArray bytes;
        };
        const Case cases[] = {
            {replay + QStringList{u"--governor-source"_s, source, u"--entries"_s, source}, source, kSource},
            {replay + QStringList{u"--governor"_s, u"src:"_s + source, u"--summary"_s, source}, source, kSource},
            {replay + QStringList{u"--governor-source"_s, source, u"--summary"_s, header}, header, kHeader},
            {QStringList{u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--workload"_s, u"periodic:interval_us=100"_s,
                         u"--governors"_s, u"menu-6.14,src:"_s + source, u"--output"_s, header},
             header, kHeader},
            {QStringList{u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--workload"_s, u"periodic:interval_us=100"_s,
                         u"--governors"_s, u"mine=src:"_s + source + u"@6.12"_s, u"--output"_s, source},
             source, kSource},
            {QStringList{u"trace-stats"_s, trace, u"--baseline"_s, baseline, u"--out"_s, baseline}, baseline,
             baselineBytes},
            {QStringList{u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--trace"_s, trace, u"--governors"_s,
                         u"menu-6.14"_s, u"--recorded-governor"_s, u"@"_s + saved, u"--output"_s, saved},
             saved, QByteArray("menu\n")},
            {QStringList{u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--trace"_s, trace, u"--governors"_s,
                         u"menu-6.14"_s, u"--output"_s, sidecar},
             sidecar, QByteArray("teo\n")},
        };
        for (const Case &c : cases) {
            const CliResult r = runCli(c.args);
            QVERIFY2(refusedSaying(r, u"would overwrite the input"_s), qPrintable(c.args.join(' ') + u"\n"_s + r.err));
            QCOMPARE(readAll(c.victim), c.bytes);
        }
    }

    // Item 5: merge opened a FIFO and waited for a writer for ever.
    void mergeRefusesAFifo()
    {
        const QString fifo = path(u"shard.fifo"_s);
        QCOMPARE(::mkfifo(qPrintable(fifo), 0600), 0);
        const CliResult r = runCli({u"merge"_s, fifo});
        QVERIFY2(refusedSaying(r, u"is a FIFO (named pipe), not a file (a shard file must be a regular file)"_s),
                 qPrintable(r.err));
    }

    // Item 6: a shard claiming 2^31 - 1 iterations aborted merge with std::length_error
    // (exit by SIGABRT), and one with a huge grid took GBs before saying runs were missing.
    void mergeCapsTheGrid_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("iterations");
        QTest::addColumn<QString>("message");
        QTest::newRow("iterations 2^31-1")
            << 1 << 2147483647 << u"field 'iterations': 2147483647 is more than compare runs (1..1000)"_s;
        QTest::newRow("runs over the cap")
            << 1001 << 1000
            << u"field 'runs': 1001 points x 1 governors x 1000 iterations = 1001000 runs; compare makes at most "
               u"1000000"_s;
    }
    void mergeCapsTheGrid()
    {
        QFETCH(int, points);
        QFETCH(int, iterations);
        QFETCH(QString, message);
        QJsonObject shard = smallShard(m_tmp.path());
        QVERIFY(!shard.isEmpty());
        QJsonArray labels;
        for (int p = 0; p < points; ++p)
            labels.append(u"p%1"_s.arg(p));
        shard.insert(u"points"_s, labels);
        shard.insert(u"iterations"_s, iterations);
        const QString file = path(u"grid.json"_s);
        writeFile(file, QJsonDocument(shard).toJson());
        const CliResult r = runCli({u"merge"_s, file});
        QVERIFY2(refusedSaying(r, message), qPrintable(r.err));
    }

    // Item 7: a counter of 2^63 - 1 gave idle_misses of -9223372036854775807, exit 0.
    void mergeRefusesCountersPastARun()
    {
        QJsonObject shard = smallShard(m_tmp.path());
        QJsonArray runs = shard.value(u"runs"_s).toArray();
        QJsonObject run = runs.at(0).toObject();
        QJsonArray counters = run.value(u"counters"_s).toArray();
        counters.replace(2, u"9223372036854775807"_s); // "above"
        run.insert(u"counters"_s, counters);
        runs.replace(0, run);
        shard.insert(u"runs"_s, runs);
        const QString file = path(u"overflow.json"_s);
        writeFile(file, QJsonDocument(shard).toJson());
        const CliResult r = runCli({u"merge"_s, file, u"--format"_s, u"csv"_s});
        QVERIFY2(refusedSaying(r, u"9223372036854775807 is more than a run can count (at most 3000000000000000000"_s),
                 qPrintable(r.err));
        QVERIFY(!r.out.contains(u'-'));

        // A shard cut short says how many runs it lacks before it makes the grid.
        QJsonObject cut = smallShard(m_tmp.path());
        QJsonArray one = cut.value(u"runs"_s).toArray();
        one.removeLast();
        cut.insert(u"runs"_s, one);
        writeFile(file, QJsonDocument(cut).toJson());
        const CliResult shortRun = runCli({u"merge"_s, file});
        QVERIFY2(refusedSaying(shortRun, u"field 'runs': 1 runs, but shard 1/1 of this comparison has 2 (the file "
                                         u"was cut short?)"_s),
                 qPrintable(shortRun.err));
    }

    // Item 7: a newline in a state's name split the CSV and markdown headers, exit 0.
    void stateNamesAreFields()
    {
        QFile f(idlescope::test::kitDir() + u"/tables/intel-skx.json"_s);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray json = f.readAll();
        const qsizetype at = json.indexOf("\"C1\"");
        QVERIFY(at > 0);
        json.replace(at, 4, "\"C1\\nX\"");
        const QString table = path(u"newline-name.json"_s);
        writeFile(table, json);
        const CliResult r = runCli({u"compare"_s, u"--table"_s, table, u"--workload"_s, u"periodic:interval_us=100"_s,
                                    u"--governors"_s, u"menu-6.14"_s, u"--spans"_s, u"100"_s, u"--format"_s, u"csv"_s});
        QVERIFY2(refusedSaying(r, u"field 'name'"_s) && r.err.contains(u"control character"_s), qPrintable(r.err));

        // A label for the kernel's run is a field too.
        const CliResult label = runCli({u"compare"_s, u"--table"_s, u"intel-skx"_s, u"--trace"_s,
                                        idlescope::test::tracesDir() + u"/vm-amd-2cpu-idle.ftrace.txt.gz"_s,
                                        u"--governors"_s, u"menu-6.14"_s, u"--recorded-governor"_s, u"menu\nx"_s});
        QVERIFY2(refusedSaying(label, u"field '--recorded-governor'"_s), qPrintable(label.err));
    }

    // Item 8: the messages, worded as the rest of the tool words them.
    void messagesNameTheRightThing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QStringList machine = {u"compare"_s,     u"--machine"_s, u"4"_s,       u"--table"_s, u"intel-skx"_s,
                                     u"--governors"_s, u"menu-6.14"_s, u"--spans"_s, u"100"_s};
        const QString w = u"--workload"_s, p = u"periodic:interval_us=100"_s;
        // Was "field '--workload': column 1: unknown generator 'bogus'".
        QTest::newRow("background blamed on workload")
            << machine + QStringList{w, p, u"--background"_s, u"bogus"_s}
            << u"field '--background': column 1: unknown generator 'bogus'"_s;
        // Was "latency_req_us: '-5' is not a number".
        QTest::newRow("negative latency") << machine + QStringList{w, u"periodic:interval_us=100,latency_req_us=-5"_s}
                                          << u"latency_req_us = -5 is outside 0.."_s;
        // Were accepted: CPU 0 twice, and no CPU at all (the default then ran silently).
        QTest::newRow("cpu twice") << machine + QStringList{w, p, u"--workload-cpus"_s, u"0,0"_s}
                                   << u"field '--workload-cpus': CPU 0 is listed twice"_s;
        QTest::newRow("no cpu") << machine + QStringList{w, p, u"--workload-cpus"_s, u""_s}
                                << u"field '--workload-cpus': is empty"_s;
    }
    void messagesNameTheRightThing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliResult r = runCli(args);
        QVERIFY2(refusedSaying(r, message), qPrintable(r.err));
    }

    // Item 6: 64 threads in too little address space for their stacks aborted compare with
    // an uncaught std::system_error (SIGABRT); now the threads the system gives do the work.
    void threadsTheSystemRefuses()
    {
        const QStringList args = {
            u"compare"_s,     u"--table"_s,   u"intel-skx"_s, u"--workload"_s, u"poisson:mean_us=100"_s,
            u"--governors"_s, u"menu-6.14"_s, u"--spans"_s,   u"200"_s,        u"--iterations"_s,
            u"64"_s,          u"--format"_s,  u"csv"_s};
        const CliResult two = runCli(args + QStringList{u"--threads"_s, u"2"_s});
        QVERIFY2(two.exitCode == 0, qPrintable(two.err));
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer reserves terabytes of address space: idlescope-cli cannot start under this "
              "test's 400 MiB limit (its shadow's first 256 MiB mapping fails)");
#endif
        // 8 MiB of stack per thread: 64 of them do not fit in 400 MiB beside the program.
        const CliResult many = runCli(args + QStringList{u"--threads"_s, u"64"_s}, [] {
            const rlimit as{400u << 20, 400u << 20};
            ::setrlimit(RLIMIT_AS, &as);
        });
        QVERIFY2(many.exitCode == 0, qPrintable(many.err));
        QVERIFY2(many.err.contains(u"threads asked for (no memory or process slot for more); the runs went on with"_s),
                 qPrintable(many.err));
        QCOMPARE(many.out, two.out); // the same table: threads never change results
    }

    // Item 7: the background stream was cut at 16,777,216 spans without a word (CPU 1 here
    // would cover 16.8 s of the 30 s the workload CPU runs, and the "all" row mixed the two).
    void backgroundIsNeverCut()
    {
        const CliResult r =
            runCli({u"compare"_s, u"--machine"_s, u"2"_s, u"--table"_s, u"intel-skx"_s, u"--governors"_s,
                    u"menu-6.14"_s, u"--workload"_s, u"periodic:kind=timer,interval_us=1000000,cpus=1"_s, u"--spans"_s,
                    u"30"_s, u"--background"_s, u"periodic:kind=timer,interval_us=1,run_us=0"_s});
        QVERIFY2(refusedSaying(r, u"field '--background'"_s) && r.err.contains(u"CPU 1: 16777216 spans cover"_s),
                 qPrintable(r.err));
    }

    // Item 8: util 'nan' was "not an integer (times are whole nanoseconds)".
    void utilIsNoTime()
    {
        const QString stream = path(u"util-nan.csv"_s);
        writeFile(stream, "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n100,200,150,0,nan\n");
        const CliResult r =
            runCli({u"replay"_s, u"--table"_s, u"intel-skx"_s, u"--stream"_s, stream, u"--governor"_s, u"menu-6.14"_s});
        QVERIFY2(refusedSaying(r, u":2: field 'util': 'nan' is not an integer (util is the CPU's utilisation, "
                                  u"0..1024)"_s),
                 qPrintable(r.err));
        QVERIFY(!r.err.contains(u"nanoseconds"_s));
    }
};

QTEST_GUILESS_MAIN(TestCliSafety)
#include "tst_cli_safety.moc"
