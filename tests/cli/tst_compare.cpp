// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli compare end to end: one small case checked field by field in
 * CSV and JSON, the markdown header, tables from a fake sysfs tree and from
 * pasted cpupower output, stream export and re-import, help, and bad input
 * (exit code 2 with a message naming the option).
 */
#include "tests/cli_process.h"
#include "tests/test_files.h"
#include "tests/test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using idlescope::test::CliResult;
using idlescope::test::runCli;

namespace {

using idlescope::test::writeFile;

/// CSV rows keyed by "point|governor|iteration", each a column -> value map.
QMap<QString, QMap<QString, QString>> parseCsv(const QString &text, QStringList *header = nullptr)
{
    QMap<QString, QMap<QString, QString>> rows;
    const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return rows;
    const QStringList cols = lines.first().split(',');
    if (header)
        *header = cols;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList f = lines[i].split(',');
        QMap<QString, QString> row;
        for (qsizetype c = 0; c < cols.size() && c < f.size(); ++c)
            row[cols[c]] = f[c];
        rows[f.value(0) + "|" + f.value(1) + "|" + f.value(2)] = row;
    }
    return rows;
}

const QStringList kSmallCase = {"compare",
                                "--table",
                                "pseries-power10-lpar",
                                "--workload",
                                "periodic:kind=pipe,interval_us=100/200,run_us=5,next_timer_us=0",
                                "--governors",
                                "oracle,menu-6.14",
                                "--spans",
                                "10",
                                "--iterations",
                                "1"};

} // namespace

class TestCompare : public QObject {
    Q_OBJECT

private slots:
    void smallCaseCsvFieldByField()
    {
        const CliResult r = runCli(kSmallCase + QStringList{"--format", "csv"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QStringList header;
        const auto rows = parseCsv(r.out, &header);
        QCOMPARE(header.join(','),
                 QString("point,governor,iteration,entries,spans,usage_snooze,usage_CEDE,above,below,idle_misses,"
                         "idle_miss_ratio,above_pct,below_pct,time_pct_snooze,time_pct_CEDE,oracle_above,"
                         "oracle_below,oracle_misses,wakeups,latency_cost_us"));
        // 2 points x 2 governors x (1 iteration + mean/min/max).
        QCOMPARE(rows.size(), 16);

        // Oracle, 200 us pipe wakeups: CEDE every time (212 us each), no misses,
        // 10 wakeups each paying CEDE's 12 us exit latency.
        const auto o200 = rows.value("interval_us=200|oracle|1");
        const QMap<QString, QString> expect200 = {{"entries", "10"},
                                                  {"spans", "10"},
                                                  {"usage_snooze", "0"},
                                                  {"usage_CEDE", "10"},
                                                  {"above", "0"},
                                                  {"below", "0"},
                                                  {"idle_misses", "0"},
                                                  {"idle_miss_ratio", "0.0000"},
                                                  {"above_pct", "0.00"},
                                                  {"below_pct", "0.00"},
                                                  {"time_pct_snooze", "0.00"},
                                                  {"time_pct_CEDE", "100.00"},
                                                  {"oracle_above", "0"},
                                                  {"oracle_below", "0"},
                                                  {"oracle_misses", "0"},
                                                  {"wakeups", "10"},
                                                  {"latency_cost_us", "120.000"}};
        for (auto it = expect200.begin(); it != expect200.end(); ++it)
            QCOMPARE(o200.value(it.key()), it.value());
        // Oracle, 100 us: snooze (CEDE's 120 us does not fit), polling ends on the wakeup.
        const auto o100 = rows.value("interval_us=100|oracle|1");
        QCOMPARE(o100.value("usage_snooze"), QString("10"));
        QCOMPARE(o100.value("usage_CEDE"), QString("0"));
        QCOMPARE(o100.value("time_pct_snooze"), QString("100.00"));
        QCOMPARE(o100.value("latency_cost_us"), QString("0.000"));
        // Aggregates of one iteration: mean with two decimals, min and max as the run.
        QCOMPARE(rows.value("interval_us=200|oracle|mean").value("usage_CEDE"), QString("10.00"));
        QCOMPARE(rows.value("interval_us=200|oracle|max").value("usage_CEDE"), QString("10"));
        QCOMPARE(rows.value("interval_us=200|oracle|min").value("latency_cost_us"), QString("120.000"));

        // menu: the columns agree with each other, and the oracle reference is the oracle's row.
        for (const QString point : {"interval_us=100", "interval_us=200"}) {
            const auto m = rows.value(point + "|menu-6.14|1");
            const auto o = rows.value(point + "|oracle|1");
            const int entries = m.value("entries").toInt();
            QCOMPARE(m.value("usage_snooze").toInt() + m.value("usage_CEDE").toInt(), entries);
            QCOMPARE(m.value("idle_misses").toInt(), m.value("above").toInt() + m.value("below").toInt());
            QCOMPARE(m.value("idle_miss_ratio"),
                     QString::number(double(m.value("idle_misses").toInt()) / entries, 'f', 4));
            QCOMPARE(m.value("oracle_above"), o.value("above"));
            QCOMPARE(m.value("oracle_misses"), o.value("idle_misses"));
            QCOMPARE(m.value("wakeups"), QString("10"));
            QCOMPARE(m.value("spans"), QString("10"));
        }
    }

    void smallCaseJsonAndMarkdown()
    {
        const CliResult j = runCli(kSmallCase + QStringList{"--format", "json"});
        QCOMPARE(j.exitCode, 0);
        QJsonParseError perr;
        const QJsonObject doc = QJsonDocument::fromJson(j.out.toUtf8(), &perr).object();
        QCOMPARE(perr.error, QJsonParseError::NoError);
        QCOMPARE(doc.value("table").toString(), QString("pseries-power10-lpar"));
        QCOMPARE(doc.value("tick_hz").toInt(), 100);
        QCOMPARE(doc.value("seed").toInt(), 1);
        QCOMPARE(doc.value("spans").toInt(), 10);
        const QJsonArray points = doc.value("points").toArray();
        QCOMPARE(points.size(), 2);
        QCOMPARE(points[1].toObject().value("point").toString(), QString("interval_us=200"));
        const QJsonObject oracle = points[1].toObject().value("governors").toArray()[0].toObject();
        QCOMPARE(oracle.value("governor").toString(), QString("oracle"));
        QCOMPARE(oracle.value("runs").toArray().size(), 1);
        const QJsonObject run = oracle.value("runs").toArray()[0].toObject();
        QCOMPARE(run.value("usage_CEDE").toInt(), 10);
        QCOMPARE(run.value("latency_cost_us").toDouble(), 120.0);
        QCOMPARE(oracle.value("mean").toObject().value("time_pct_CEDE").toDouble(), 100.0);
        QVERIFY(oracle.contains("min") && oracle.contains("max"));

        const CliResult md = runCli(kSmallCase + QStringList{"--hz", "1000", "--aggregates-only"});
        QCOMPARE(md.exitCode, 0);
        QVERIFY(md.out.startsWith("table `pseries-power10-lpar` (tick 1000 Hz), workload `periodic:kind=pipe"));
        QVERIFY(md.out.contains("| point | governor | iteration | entries | spans | usage_snooze |"));
        QVERIFY(md.out.contains("| interval_us=200 | oracle | mean | 10.00 | 10.00 | 0.00 | 10.00 |"));
        QVERIFY(!md.out.contains("| oracle | 1 |"));
    }

    void seededRunsAreReproducible()
    {
        const QStringList args = {"compare",
                                  "--table",
                                  "intel-skx",
                                  "--workload",
                                  "server + tick:idle_us=4000",
                                  "--governors",
                                  "menu-6.14,teo-6.14",
                                  "--spans",
                                  "3000",
                                  "--format",
                                  "csv",
                                  "--seed",
                                  "99"};
        const CliResult a = runCli(args);
        const CliResult b = runCli(args + QStringList{"--threads", "1"});
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(a.out, b.out);
        const CliResult c = runCli(QStringList(args.mid(0, args.size() - 1)) << "100");
        QVERIFY(c.out != a.out);
    }

    void exportAndReplayStreams()
    {
        QTemporaryDir dir;
        const CliResult gen =
            runCli({"compare", "--table", "intel-skl", "--workload", "io:device=emmc", "--governors", "teo-6.14",
                    "--spans", "400", "--iterations", "2", "--format", "csv", "--export-streams", dir.path()});
        QCOMPARE(gen.exitCode, 0);
        QVERIFY(QFile::exists(dir.path() + "/p0-i1.csv"));
        QVERIFY(QFile::exists(dir.path() + "/p0-i2.csv"));
        const CliResult replay =
            runCli({"compare", "--table", "intel-skl", "--workload", "csv:" + dir.path() + "/p0-i2.csv", "--governors",
                    "teo-6.14", "--iterations", "1", "--format", "csv"});
        QCOMPARE(replay.exitCode, 0);
        // The imported stream gives iteration 2's numbers (past the label columns).
        const auto g = parseCsv(gen.out).value("all|teo-6.14|2");
        const auto r = parseCsv(replay.out).value("csv:" + dir.path() + "/p0-i2.csv|teo-6.14|1");
        QVERIFY(!g.isEmpty() && !r.isEmpty());
        for (const char *col : {"entries", "usage_C1E", "above", "below", "latency_cost_us"})
            QCOMPARE(r.value(col), g.value(col));
    }

    void latencyLimitOnEveryStream()
    {
        // --latency-limit 0: only POLL (exit latency 0) may be entered, in the generated stream,
        // in the streams exported from it and in a stream file replayed (each poll cut at its
        // limit is an entry of its own: 10000 entries in 200 spans); without it the same 1 ms
        // timer sleeps go deeper (58 of 235 entries in C6).
        QTemporaryDir dir;
        const QStringList gen{
            "compare",     "--table",   "intel-skl", "--workload", "periodic:kind=timer,interval_us=1000",
            "--governors", "menu-6.14", "--spans",   "200",        "--iterations",
            "1",           "--format",  "csv"};
        const CliResult free = runCli(gen);
        QCOMPARE(free.exitCode, 0);
        QVERIFY(parseCsv(free.out).value("all|menu-6.14|1").value("usage_C6").toInt() > 0);
        const CliResult limited = runCli(gen + QStringList{"--latency-limit", "0", "--export-streams", dir.path()});
        QVERIFY2(limited.exitCode == 0, qPrintable(limited.err));
        const auto row = parseCsv(limited.out).value("all|menu-6.14|1");
        QVERIFY(row.value("entries").toInt() >= 200);
        QCOMPARE(row.value("usage_POLL"), row.value("entries"));
        // The exported stream carries the limit it was replayed with: replayed as it is, the same row.
        const CliResult again =
            runCli({"compare", "--table", "intel-skl", "--workload", "csv:" + dir.path() + "/p0-i1.csv", "--governors",
                    "menu-6.14", "--format", "csv"});
        QCOMPARE(again.exitCode, 0);
        const auto replayed = parseCsv(again.out).value("csv:" + dir.path() + "/p0-i1.csv|menu-6.14|1");
        QCOMPARE(replayed.value("usage_POLL"), row.value("entries"));
        // A closed loop has no latency column to limit: refused, not ignored.
        const CliResult loop =
            runCli({"compare", "--table", "intel-skl", "--closed-loop", "io:service_us=50,work_us=10", "--governors",
                    "menu-6.14", "--latency-limit", "10"});
        QCOMPARE(loop.exitCode, 2);
        QVERIFY2(loop.err.contains("--latency-limit"), qPrintable(loop.err));
    }

    void wordSweep()
    {
        // io:device=emmc/nvme/sata is three workload points, labelled by device; the oracle's
        // row of each point replays exactly the stream exported for it.
        QTemporaryDir dir;
        const CliResult r = runCli({"compare", "--table", "intel-skl", "--workload", "io:device=emmc/nvme/sata",
                                    "--governors", "oracle", "--spans", "300", "--iterations", "1", "--format", "csv",
                                    "--export-streams", dir.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto rows = parseCsv(r.out);
        QCOMPARE(rows.size(), 3 * 4); // per point: the run, mean, min, max
        const char *devices[] = {"emmc", "nvme", "sata"};
        for (int p = 0; p < 3; ++p) {
            const auto row = rows.value(QString("device=") + devices[p] + "|oracle|1");
            QCOMPARE(row.value("spans"), QString("300"));
            const QString csv = dir.path() + "/p" + QString::number(p) + "-i1.csv";
            const CliResult replay = runCli({"compare", "--table", "intel-skl", "--workload", "csv:" + csv,
                                             "--governors", "oracle", "--format", "csv"});
            QCOMPARE(replay.exitCode, 0);
            const auto again = parseCsv(replay.out).value("csv:" + csv + "|oracle|1");
            for (const char *col : {"entries", "usage_C6", "usage_C1", "latency_cost_us"})
                QCOMPARE(again.value(col), row.value(col));
        }
        const CliResult bad =
            runCli({"compare", "--table", "intel-skl", "--workload", "io:device=emmc/ssd", "--governors", "oracle"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("device is one of: nvme, sata, emmc"), qPrintable(bad.err));
    }

    void tablesFromSysfsAndCpupower()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + "/cpu";
        writeFile(root + "/cpuidle/current_driver", "intel_idle\n");
        writeFile(root + "/cpuidle/current_governor", "menu\n");
        const char *names[] = {"POLL", "C1", "C1E", "C6"};
        const char *lat[] = {"0", "2", "10", "133"};
        const char *res[] = {"0", "2", "20", "600"};
        for (int i = 0; i < 4; ++i) {
            const QString d = root + QString("/cpu0/cpuidle/state%1/").arg(i);
            writeFile(d + "name", QByteArray(names[i]) + "\n");
            writeFile(d + "desc", i == 0 ? "CPUIDLE CORE POLL IDLE\n" : "MWAIT\n");
            writeFile(d + "latency", QByteArray(lat[i]) + "\n");
            writeFile(d + "residency", QByteArray(res[i]) + "\n");
            writeFile(d + "disable", "0\n");
        }
        const QStringList rest = {"--workload",   "periodic:kind=pipe,interval_us=700",
                                  "--governors",  "oracle",
                                  "--spans",      "20",
                                  "--iterations", "1",
                                  "--format",     "csv"};
        const CliResult s = runCli(QStringList{"compare", "--table", "sysfs:" + root} + rest);
        QCOMPARE(s.exitCode, 0);
        // The tick rate warning, with the CLI's option for it (core's warning names none).
        QVERIFY2(s.err.contains("idlescope-cli: sysfs:" + root
                                + ": the tick rate (CONFIG_HZ) is not in sysfs: assuming 250 Hz; set it with --hz\n"),
                 qPrintable(s.err));
        const auto row = parseCsv(s.out).value("all|oracle|1");
        QCOMPARE(row.value("usage_C6"), QString("20"));
        QCOMPARE(row.value("latency_cost_us"), QString("2660.000")); // 20 x 133 us

        const CliResult vm = runCli(QStringList{"compare", "--table", "sysfs:" + dir.path() + "/empty"} + rest);
        QCOMPARE(vm.exitCode, 2);
        QVERIFY(vm.err.contains("this machine has no cpuidle driver"));

        writeFile(dir.path() + "/idle-info.txt",
                  "CPUidle driver: pseries_idle\nCPUidle governor: menu\nanalyzing CPU 0:\n\n"
                  "Number of idle states: 2\nAvailable idle states: snooze CEDE\nsnooze:\n"
                  "Flags/Description: snooze\nLatency: 0\nResidency: 0\nUsage: 1\nDuration: 1\nCEDE:\n"
                  "Flags/Description: CEDE\nLatency: 12\nResidency: 120\nUsage: 1\nDuration: 1\n");
        const CliResult c = runCli(QStringList{"compare", "--table", dir.path() + "/idle-info.txt"} + rest);
        QCOMPARE(c.exitCode, 0);
        QCOMPARE(parseCsv(c.out).value("all|oracle|1").value("usage_CEDE"), QString("20"));
    }

    void helpAndLists()
    {
        const CliResult h = runCli({"help", "compare"});
        QCOMPARE(h.exitCode, 0);
        QVERIFY(h.out.contains("spec      := term { '+' term }"));
        for (const char *g : {"periodic", "sweep", "duty", "poisson", "bimodal", "tick", "io", "pingpong", "video",
                              "server", "pgbench", "net"})
            QVERIFY2(h.out.contains(g), g);
        const CliResult t = runCli({"compare", "--list-targets"});
        QCOMPARE(t.exitCode, 0);
        QVERIFY(t.out.contains("pseries-power10-lpar"));
        QVERIFY(t.out.contains("sm8250-gold"));
        QVERIFY(t.out.contains("source: drivers/idle/intel_idle.c skx_cstates"));
        const CliResult w = runCli({"compare", "--list-workloads"});
        QCOMPARE(w.exitCode, 0);
        QVERIFY(w.out.contains("next_timer_us="));
        QVERIFY(w.out.contains("device=nvme (nvme|sata|emmc|mtd|nullblk|dmdelay|custom)"));
    }

    void badInput()
    {
        const QStringList base = {"compare", "--workload", "tick", "--governors", "oracle", "--spans", "5"};
        CliResult r = runCli(base + QStringList{"--table", "intel-nope"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("not a file and not a built-in target"));
        r = runCli({"compare", "--table", "intel-skx", "--workload", "periodic:kind=irq", "--governors", "oracle"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--workload"));
        QVERIFY(r.err.contains("kind is one of: timer, ipi, pipe"));
        r = runCli({"compare", "--table", "intel-skx", "--workload", "tick"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("missing --governors"));
        r = runCli(base + QStringList{"--table", "intel-skx", "--format", "xml"});
        QCOMPARE(r.exitCode, 2);
        r = runCli(base + QStringList{"--table", "intel-skx", "--iterations", "0"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--iterations"));
        r = runCli({"compare", "--table", "intel-skx", "--workload", "tick", "--governors", "nope-1.0"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown governor variant"));
        r = runCli(base + QStringList{"--table", "intel-skx", "--set", "BOGUS=1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("BOGUS"));
        r = runCli(base + QStringList{"--table", "intel-skx", "--hz", "5"});
        QCOMPARE(r.exitCode, 2);
        // --output is not created on error.
        QTemporaryDir dir;
        r = runCli(base + QStringList{"--table", "intel-nope", "--output", dir.path() + "/out.md"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(dir.path() + "/out.md"));
        r = runCli(base + QStringList{"--table", "intel-skx", "--output", dir.path() + "/out.md"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile::exists(dir.path() + "/out.md"));
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
