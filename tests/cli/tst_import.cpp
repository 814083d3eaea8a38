// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli import / trace-stats end to end on the real traces: stream
 * files per CPU that readStreamCsv loads and `replay` runs, the span/entry
 * dumps, the three stats formats, and bad input (exit code 2, a message with
 * file and field, no output file).
 */
#include "tests/cli/cli_test.h"

#include "core/formats/stream_csv.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

class TestImport : public QObject {
    Q_OBJECT

private slots:
    void anEmptyNameOrAFolderIsRefused()
    {
        // Hostile round 2026-12-06, finding 11: `--stream ''` wrote a hidden ".cpu0" in the
        // working folder and `--stream DIR/` a "DIR/.cpu0", exit 0. Both are refused, nothing
        // written; a folder named without its slash too.
        QTemporaryDir dir;
        const QString gz = trace("vm-amd-2cpu-pipe100us.ftrace.txt.gz");
        for (const QString &out : {QString(), dir.path() + u"/"_s, dir.path()}) {
            const QByteArray cwd = dir.path().toLocal8Bit();
            CliResult r = runCli({u"import"_s, gz, u"--stream"_s, out}, [cwd] {
                if (::chdir(cwd.constData()) != 0)
                    ::_exit(99);
            });
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(u"field '--stream': '"_s + out + u"' is "_s), qPrintable(r.err));
            QVERIFY2(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty(),
                     qPrintable(out));
        }
    }

    void importAllCpus()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"juno.csv"_s);
        const CliResult r = runCli({u"import"_s, trace("lisa-juno-sched_load-6cpu.dat"), u"--stream"_s, out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains(u"trace-cmd .dat"_s));
        // One file per CPU: OUT.cpuN.csv. Rows per CPU (JUNO ROWS awk of tst_trace_real): 92 12 18 37 20 14.
        const int spans[6] = {92, 12, 18, 37, 20, 14};
        for (int c = 0; c < 6; ++c) {
            const QString path = dir.filePath(u"juno.cpu%1.csv"_s.arg(c));
            idlescope::Result<idlescope::IdleStream> s = idlescope::readStreamCsv(path.toStdString());
            QVERIFY2(s.ok(), qPrintable(path));
            QCOMPARE(static_cast<int>(s->size()), spans[c]);
        }
        QVERIFY(!QFile::exists(out));
    }

    void importOneCpuAndReplay()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"pipe.csv"_s);
        const QString spans = dir.filePath(u"spans.csv"_s);
        const QString entries = dir.filePath(u"entries.csv"_s);
        CliResult r = runCli({u"import"_s, trace("vm-amd-2cpu-pipe100us.ftrace.txt.gz"), u"--cpu"_s, u"0"_s,
                              u"--stream"_s, out, u"--spans"_s, spans, u"--entries"_s, entries, u"--quiet"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        idlescope::Result<idlescope::IdleStream> s = idlescope::readStreamCsv(out.toStdString());
        QVERIFY(s.ok());
        QCOMPARE(s->size(), size_t(21570)); // ROWS awk of tst_trace_real: 21570 (20672 spans)
        // Entries dump: header + 21574 complete entries (ENTRIES awk: n 0 1 21574) + 0 truncated.
        QCOMPARE(readAll(entries).count('\n'), 1 + 21574);
        QVERIFY(readAll(spans).startsWith("cpu,span,start_ns,end_ns,wake_ns,timer_ns,entries,cause,flags\n"));
        // The stream runs through a governor.
        r = runCli({u"replay"_s, u"--table"_s, u"arm-juno-r0"_s, u"--stream"_s, out, u"--governor"_s, u"menu-6.14"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"\"spans\": 21570"_s)); // the replay counts rows
    }

    void traceStatsFormats()
    {
        CliResult r = runCli({u"trace-stats"_s, trace("vm-amd-2cpu-idle.ftrace.txt.gz")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"# Recorded idle statistics"_s));
        QVERIFY(r.out.contains(u"| 0 | 1 | 55 |"_s)); // CPU 0, state 1, 55 entries (ENTRIES awk)
        QVERIFY(r.out.contains(u"not available (no cpu_idle_miss"_s));
        r = runCli({u"trace-stats"_s, trace("vm-amd-2cpu-idle.ftrace.txt.gz"), u"--format"_s, u"csv"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"\n0,cause,tick,37\n"_s)); // CAUSES awk: tick 37
        QTemporaryDir dir;
        const QString json = dir.filePath(u"s.json"_s);
        r = runCli({u"trace-stats"_s, trace("lisa-juno-sched_load-6cpu.report.txt"), u"--format"_s, u"json"_s,
                    u"--table"_s, u"arm-juno-r0"_s, u"--governor"_s, u"teo-6.14"_s, u"--out"_s, json});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(readAll(json)).object();
        QVERIFY(o.value(u"miss_source"_s).toString().startsWith(u"recomputed"_s));
        // Stream rows (JUNO ROWS awk of tst_trace_real: 92 + 12 + 18 + 37 + 20 + 14).
        QCOMPARE(o.value(u"simulated"_s).toObject().value(u"spans"_s).toInteger(), qint64(193));
    }

    void cpuCountsAgree()
    {
        // import and trace-stats say the same three CPU counts, each labelled. trappy .dat: header
        // cpus=6; CPUs with events and with cpu_idle enters, over its report text:
        //   awk 'NR>1 && match($0,/\[[0-9]+\]/) { e[substr($0,RSTART+1,RLENGTH-2)+0]=1 }
        //     / cpu_idle: / && !/4294967295/ { match($0,/cpu_id=[0-9]+/); i[substr($0,RSTART+7)+0]=1 }
        //     END { for (c in e) n++; for (c in i) m++; print n, m }'   -> 5 5
        const QString counts = u"6 CPUs in the trace, 5 with events, 5 with idle entries"_s;
        QTemporaryDir dir;
        CliResult r =
            runCli({u"import"_s, trace("trappy-trace_idle-6cpu.dat"), u"--stream"_s, dir.filePath(u"t.csv"_s)});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(counts), qPrintable(r.err));
        r = runCli({u"trace-stats"_s, trace("trappy-trace_idle-6cpu.dat")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(u"; "_s + counts + u"\n"_s), qPrintable(r.out));
        r = runCli({u"trace-stats"_s, trace("trappy-trace_idle-6cpu.dat"), u"--format"_s, u"csv"_s});
        QVERIFY(r.out.contains(u"\nall,cpus_in_trace,,6\nall,cpus_declared,,6\nall,cpus_with_events,,5\n"
                               "all,cpus_with_idle_entries,,5\n"_s));
        r = runCli({u"trace-stats"_s, trace("trappy-trace_idle-6cpu.dat"), u"--format"_s, u"json"_s});
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(u"cpus_in_trace"_s).toInt(), 6);
        QCOMPARE(o.value(u"cpus_with_events"_s).toInt(), 5);
        QCOMPARE(o.value(u"cpus_with_idle_entries"_s).toInt(), 5);
        // The unsorted snippet: header cpus=8, events on 4 CPUs, cpu_idle enters on 3.
        r = runCli({u"trace-stats"_s, trace("trappy-trace_idle_unsorted-8cpu.txt")});
        QVERIFY(r.out.contains(u"8 CPUs in the trace, 4 with events, 3 with idle entries"_s));
    }

    void spanAccountingAddsUp()
    {
        // Every span is exported or dropped for one named reason, and the terms add up. The
        // missing switches per CPU over vm-amd-2cpu-pipe200us.report.txt.gz (a switch to idle
        // while idle, a switch away from idle or a cpu_idle enter while busy):
        //   zcat ... | awk '/ sched_switch: /{ match($0,/\[[0-9]+\]/); c=substr($0,RSTART+1,RLENGTH-2)+0;
        //     split($0,a,"==> "); np=a[2]; sub(/ .*/,"",np); sub(/.*:/,"",np); p=$0; sub(/ ==>.*/,"",p);
        //     sub(/ \[[0-9]+\] [^ ]+$/,"",p); sub(/.*:/,"",p);
        //     if (p==0 && np!=0) { if (st[c]=="busy") m[c]++; st[c]="busy" }
        //     else if (np==0 && p!=0) { if (st[c]=="idle") m[c]++; st[c]="idle" } }
        //     / cpu_idle: / && !/4294967295/ { match($0,/cpu_id=[0-9]+/); c=substr($0,RSTART+7)+0;
        //     if (st[c]=="busy") { m[c]++; st[c]="idle" } } END { for (c in m) print c, m[c] }'
        //   -> 0 2; 1 6929. Both CPUs end idle (one span each cut by the trace's end); CPU 0 has
        //   6892 complete spans (SPANS awk of tst_trace_real on the same text).
        QTemporaryDir dir;
        CliResult r =
            runCli({u"import"_s, trace("vm-amd-2cpu-pipe200us.dat"), u"--stream"_s, dir.filePath(u"p.csv"_s)});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(
                     u"cpu 0: 6895 spans = 6892 exported + 2 missing a sched_switch + 1 cut by the trace's end;"_s),
                 qPrintable(r.err));
        QVERIFY(r.err.contains(
            u"cpu 1: 6930 spans = 0 exported + 6929 missing a sched_switch + 1 cut by the trace's end;"_s));
        QVERIFY(r.err.contains(
            u"all CPUs: 13825 spans = 6892 exported + 6931 missing a sched_switch + 2 cut by the trace's end\n"_s));
        QVERIFY(r.err.contains(u"warnings: missing_switch x6931"_s));
        r = runCli({u"trace-stats"_s, trace("vm-amd-2cpu-pipe200us.dat")});
        QVERIFY(r.out.contains(
            u"\n- 13825 spans = 6892 exported + 6931 missing a sched_switch + 2 cut by the trace's end\n"_s));
        r = runCli({u"trace-stats"_s, trace("vm-amd-2cpu-pipe200us.dat"), u"--format"_s, u"csv"_s});
        QVERIFY(r.out.contains(
            u"\n1,spans,,6930\n1,spans_exported,,0\n1,spans_dropped,missing_switch,6929\n"
            "1,spans_dropped,missing_exit,0\n1,spans_dropped,trace_start,0\n1,spans_dropped,trace_end,1\n"
            "1,spans_dropped,too_long,0\n"_s));
        r = runCli({u"trace-stats"_s, trace("vm-amd-2cpu-pipe200us.dat"), u"--format"_s, u"json"_s});
        const QJsonArray cpus = QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"cpus"_s).toArray();
        QCOMPARE(cpus.size(), 3); // 0, 1, all
        const QJsonObject all = cpus.at(2).toObject();
        QCOMPARE(all.value(u"spans"_s).toInteger(), qint64(13825));
        QCOMPARE(all.value(u"spans_exported"_s).toInteger(), qint64(6892));
        QCOMPARE(all.value(u"spans_dropped"_s).toObject().value(u"missing_switch"_s).toInteger(), qint64(6931));
        QCOMPARE(all.value(u"spans_dropped"_s).toObject().value(u"trace_end"_s).toInteger(), qint64(2));
    }

    void simulatedCoverageLabelled()
    {
        // Recorded vs simulated says what the simulated run covers. Juno report: complete spans
        // and the complete entries inside them (SPANS awk of tst_trace_real, extended):
        //   awk '/ sched_switch: / { match($0,/\[0*[0-9]+\]/); c=substr($0,RSTART+1,RLENGTH-2)+0;
        //     split($0, h, " ==> "); from=(h[1] ~ /:0 \[[0-9]+\] [A-Z+]+$/); to=(h[2] ~ /:0 \[[0-9]+\]$/);
        //     if (from && !to && last[c]=="to") { n++; tot+=k[c] } if (to) { last[c]="to"; k[c]=0 }
        //     else if (from) last[c]="from" } / cpu_idle: / { match($0,/cpu_id=[0-9]+/); c=substr($0,RSTART+7)+0;
        //     if (/4294967295/) { if (c in o) { k[c]++; delete o[c] } } else o[c]=1 } END { print n, tot }'
        //   -> 89 192; 231 complete entries in all (ENTRIES), 101 spans, each CPU idle at both ends;
        //   193 rows (JUNO ROWS of tst_trace_real).
        CliResult r = runCli({u"trace-stats"_s, trace("lisa-juno-sched_load-6cpu.report.txt"), u"--table"_s,
                              u"arm-juno-r0"_s, u"--governor"_s, u"teo-6.14"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(
                     u"It replays the exported spans only: 101 spans = 89 exported + 6 cut by the trace's start"
                     " + 6 cut by the trace's end, one row per in-idle wakeup (193 rows). The recorded columns"
                     " count all 231 complete entries; 192 of them are in the exported spans, the other 39 in spans"
                     " left out."_s),
                 qPrintable(r.out));
        r = runCli({u"trace-stats"_s, trace("lisa-juno-sched_load-6cpu.report.txt"), u"--table"_s, u"arm-juno-r0"_s,
                    u"--governor"_s, u"teo-6.14"_s, u"--format"_s, u"csv"_s});
        QVERIFY(r.out.contains(u"\nall,entries_in_exported_spans,,192\n"_s));
        // The simulated run's spans are its rows, as many as the exported ones (JUNO ROWS: 193).
        QVERIFY(r.out.contains(u"\nall,sim_spans,,193\n"_s));
        QVERIFY(r.out.contains(u"\nall,rows_exported,,193\n"_s));
        QVERIFY(r.out.contains(u"\nall,spans_exported,,89\n"_s));
    }

    void badInput()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"x.csv"_s);
        // Not a trace.
        const QString junk = dir.filePath(u"junk.txt"_s);
        writeFile(junk, "gap_ns,timer_ns\n1,2\n");
        CliResult r = runCli({u"import"_s, junk, u"--stream"_s, out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"unknown format"_s));
        QVERIFY(r.err.contains(junk));
        QVERIFY(!QFile::exists(out));
        // A CPU without events.
        r = runCli({u"import"_s, trace("trappy-trace_idle-6cpu.report.txt"), u"--cpu"_s, u"4"_s, u"--stream"_s, out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"--cpu"_s));
        QVERIFY(!QFile::exists(out));
        r = runCli({u"import"_s, trace("trappy-trace_idle-6cpu.report.txt"), u"--cpu"_s, u"x"_s, u"--stream"_s, out});
        QCOMPARE(r.exitCode, 2);
        r = runCli({u"trace-stats"_s, trace("trappy-trace_idle-6cpu.report.txt"), u"--format"_s, u"xml"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"--format"_s));
        r = runCli({u"trace-stats"_s, u"/nonexistent.dat"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"/nonexistent.dat"_s));
        r = runCli({u"import"_s, trace("trappy-trace_idle-6cpu.report.txt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"--stream"_s));
    }
};

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
