// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * compare on a whole machine (issue #12): every CPU of a trace at once, the
 * kernel's recorded choices beside the governors (checked against
 * idlescope-cli trace-stats on the same trace), per-CPU rows equal to the
 * one-CPU compare of that CPU, CPUs with nothing to replay listed with the
 * reason, energy from a table's power data, and bad input (exit 2 naming
 * the file, line and field).
 */
#include "tests/cli/cli_test.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using idlescope::test::csvRowsBy;
using idlescope::test::differingCells;

using Row = idlescope::test::CsvRow;

/// The two-state table of tst_machine's hand-checked cases (WFI: exit and target residency
/// 1 us; sleep: exit 100 us, target 500 us), written in @p dir; its path.
QString writeTwoStateTable(const QTemporaryDir &dir)
{
    const QString table = dir.filePath(u"t.json"_s);
    writeFile(table, R"({"id": "two", "tick_hz": 250, "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000},
  {"name": "sleep", "exit_latency_ns": 100000, "target_residency_ns": 500000}]})");
    return table;
}

/// The idle workload waking only every @p maxIdleUs: no timer of its own within reach, no
/// interrupt, callback, RCU tick or run time.
QString quietIdle(int maxIdleUs)
{
    return u"idle:timer_us=100000000,max_idle_us=%1,irq_us=0,callback_us=0,rcu_ticks=0,run_us=0"_s.arg(maxIdleUs);
}

} // namespace

class TestCompareMachine : public QObject {
    Q_OBJECT

private slots:
    void recordedRunIsTraceStats()
    {
        // The Juno trace (6 CPUs, states WFI / cpu-sleep-0 / cluster-sleep-0, no cpu_idle_miss):
        // the whole-trace line's per-CPU counters are trace-stats' with the same table, and the
        // recorded run's (like with like) count the entries in the replayed spans only.
        const QString t = trace("lisa-juno-sched_load-6cpu.dat");
        const CliResult cmp =
            runCli({u"compare"_s, u"--machine"_s, u"juno-r0"_s, u"--trace"_s, t, u"--governors"_s, u"menu-6.14"_s,
                    u"--per-state"_s, u"--format"_s, u"csv"_s, u"--recorded-governor"_s, u"menu"_s});
        QVERIFY2(cmp.exitCode == 0, qPrintable(cmp.err));
        const CliResult st = runCli({u"trace-stats"_s, t, u"--table"_s, u"arm-juno-r0"_s, u"--format"_s, u"csv"_s});
        QVERIFY2(st.exitCode == 0, qPrintable(st.err));
        // trace-stats CSV: cpu,metric,key,value.
        QMap<QString, QString> stats;
        for (const QString &line : st.out.split('\n', Qt::SkipEmptyParts)) {
            const QStringList f = line.split(',');
            if (f.size() == 4)
                stats[f[0] + "|" + f[1] + "|" + f[2]] = f[3];
        }
        const QMap<QString, Row> rows = csvRowsBy(cmp.out, 2);
        const char *states[] = {"WFI", "cpu-sleep-0", "cluster-sleep-0"};
        qint64 entries = 0;
        qint64 replayed = 0;
        for (int cpu = 0; cpu < 6; ++cpu) {
            const QString c = QString::number(cpu);
            const Row r = rows.value(u"recorded (menu) whole trace|"_s + c);
            QVERIFY2(!r.isEmpty(), qPrintable(u"no whole-trace row for CPU "_s + c));
            QCOMPARE(r["misses"], u"recomputed"_s);
            QCOMPARE(r["entries"], stats[c + u"|entries|"_s]);
            QCOMPARE(r["spans"], stats[c + u"|spans|"_s]);
            for (int s = 0; s < 3; ++s) {
                const QString k = QString::number(s), n = QString::fromLatin1(states[s]);
                // trace-stats lists a CPU's states up to the deepest it entered; the rest are 0.
                QCOMPARE(r[u"usage_"_s + n], stats.value(c + u"|state_usage|"_s + k, u"0"_s));
                QCOMPARE(r[u"above_"_s + n], stats.value(c + u"|state_above|"_s + k, u"0"_s));
                QCOMPARE(r[u"below_"_s + n], stats.value(c + u"|state_below|"_s + k, u"0"_s));
            }
            entries += r["entries"].toLongLong();
            // Like with like: the recorded run holds trace-stats' entries_in_exported_spans.
            const Row like = rows.value(u"recorded (menu)|"_s + c);
            QCOMPARE(like["entries"], stats[c + u"|entries_in_exported_spans|"_s]);
            replayed += like["entries"].toLongLong();
        }
        // trace-stats per CPU: 108 + 23 + 27 + 39 + 20 + 14 = 231 complete entries.
        QCOMPARE(entries, 231);
        QCOMPARE(rows.value(u"recorded (menu) whole trace|all"_s)["entries"], u"231"_s);
        // In the replayed spans: 231 less the 39 of the 12 spans cut by the trace's ends
        // (trace-stats' entries_in_exported_spans: 91 + 12 + 18 + 37 + 20 + 14 = 192).
        QCOMPARE(replayed, 192);
        QCOMPARE(rows.value(u"recorded (menu)|all"_s)["entries"], u"192"_s);
        // CPU 0's above (per state 0 + 5 + 18) and below (7 + 5 + 0) summed by hand.
        QCOMPARE(rows.value(u"recorded (menu) whole trace|0"_s)["above"], u"23"_s);
        QCOMPARE(rows.value(u"recorded (menu) whole trace|0"_s)["below"], u"12"_s);
        // The simulated governor covers the stream rows of every CPU (JUNO ROWS of
        // tst_trace_real: 92 + 12 + 18 + 37 + 20 + 14 = 193), as does the recorded run.
        QCOMPARE(rows.value(u"menu-6.14|all"_s)["spans"], u"193"_s);
        QCOMPARE(rows.value(u"recorded (menu)|all"_s)["spans"], u"193"_s);
        QCOMPARE(rows.value(u"menu-6.14|all"_s)["misses"], u"simulated"_s);
    }

    void agreementWithTheKernel()
    {
        // compare --agreement: menu-6.14 against the Juno trace's recorded menu, text and JSON.
        const QString t = trace("lisa-juno-sched_load-6cpu.dat");
        const QStringList common{
            u"compare"_s,   u"--machine"_s,           u"juno-r0"_s, u"--trace"_s, t, u"--agreement"_s,
            u"menu-6.14"_s, u"--recorded-governor"_s, u"menu"_s};
        const CliResult text = runCli(common);
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains(u"Confusion matrix"_s));
        QVERIFY(text.out.contains(u"First disagreements (trace-cmd timestamps, s):"_s));
        const CliResult json = runCli(common + QStringList{u"--format"_s, u"json"_s});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        const QJsonObject total = o.value(u"total"_s).toObject();
        // Every recorded entry in the replayed rows is paired (192, as above); the matrix
        // cells add up to the pairs and its diagonal to the agreed ones.
        QCOMPARE(total.value(u"recorded_entries"_s).toInteger(), qint64(192));
        QCOMPARE(total.value(u"paired"_s).toInteger(), qint64(192));
        qint64 cells = 0;
        qint64 diagonal = 0;
        const QJsonArray m = total.value(u"matrix"_s).toArray();
        QCOMPARE(m.size(), 3);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                cells += m.at(r).toArray().at(c).toInteger();
                diagonal += r == c ? m.at(r).toArray().at(c).toInteger() : 0;
            }
        QCOMPARE(cells, qint64(192));
        QCOMPARE(diagonal, total.value(u"agreed"_s).toInteger());
        QCOMPARE(o.value(u"recorded_governor"_s).toString(), u"menu"_s);
        QCOMPARE(o.value(u"first_disagreements"_s).toArray().size(), 10);
        // The first disagreement is the earliest over all CPUs, at its trace timestamp.
        const QJsonArray first = o.value(u"first_disagreements"_s).toArray();
        for (int k = 1; k < first.size(); ++k)
            QVERIFY(first.at(k - 1).toObject().value(u"trace_ns"_s).toInteger()
                    <= first.at(k).toObject().value(u"trace_ns"_s).toInteger());
        // Without a named governor it refuses, naming the option; with --cpu or --governors too.
        const CliResult unnamed = runCli(common.mid(0, 7));
        QCOMPARE(unnamed.exitCode, 2);
        QVERIFY2(unnamed.err.contains(u"--agreement"_s), qPrintable(unnamed.err));
        QCOMPARE(runCli(common + QStringList{u"--cpu"_s, u"0"_s}).exitCode, 2);
        QCOMPARE(runCli(common + QStringList{u"--governors"_s, u"menu-6.14"_s}).exitCode, 2);
        // A CSV asked for is refused, not answered with the text table (a PM developer's finding).
        const CliResult csv = runCli(common + QStringList{u"--format"_s, u"csv"_s});
        QCOMPARE(csv.exitCode, 2);
        QVERIFY2(csv.err.contains(u"field '--format': 'csv': the agreement is written as text, or as JSON"_s),
                 qPrintable(csv.err));
        QVERIFY(csv.out.isEmpty());
    }

    void recordedGovernorFromASavedCurrentGovernor()
    {
        // No trace format names the governor (the .dat options of tests/data/traces hold the
        // clock, uname, trace-cmd version, CPU statistics and command lines); it comes from
        // TRACE.governor (idlescope-cli record saves the sysfs file beside the trace) or from
        // --recorded-governor @FILE: vm-amd-2cpu.machine.txt says 'current_governor: menu'.
        QTemporaryDir tmp;
        const QString t = tmp.filePath(u"idle.ftrace.txt.gz"_s);
        QVERIFY(QFile::copy(trace("vm-amd-2cpu-idle.ftrace.txt.gz"), t));
        const QStringList common{u"compare"_s,
                                 u"--table"_s,
                                 u"intel-skx"_s,
                                 u"--governors"_s,
                                 u"oracle"_s,
                                 u"--cpus"_s,
                                 u"sum"_s,
                                 u"--format"_s,
                                 u"csv"_s,
                                 u"--trace"_s,
                                 t};
        CliResult r = runCli(common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(csvRowsBy(r.out, 2).contains(u"recorded|all"_s));
        writeFile(t + u".governor"_s, "teo\n");
        r = runCli(common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QMap<QString, Row> rows = csvRowsBy(r.out, 2);
        QVERIFY2(rows.contains(u"recorded (teo)|all"_s), qPrintable(r.out));
        r = runCli(common + QStringList{u"--recorded-governor"_s, u"@"_s + trace("vm-amd-2cpu.machine.txt")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(csvRowsBy(r.out, 2).contains(u"recorded (menu)|all"_s), qPrintable(r.out));
        // The same counters whatever the label.
        QCOMPARE(csvRowsBy(r.out, 2).value(u"recorded (menu)|all"_s)["entries"],
                 rows.value(u"recorded (teo)|all"_s)["entries"]);
        // A name the kernel cannot have, or no governor at all: exit 2 naming file, line, field.
        writeFile(t + u".governor"_s, "Menu!\n");
        r = runCli(common);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(t + u".governor:1: field 'current_governor'"_s), qPrintable(r.err));
        const QString note = tmp.filePath(u"note.txt"_s);
        writeFile(note, "uname: Linux\ncurrent_driver: none\n");
        r = runCli(common + QStringList{u"--recorded-governor"_s, u"@"_s + note});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(note + u":1: field 'current_governor': no governor"_s), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void idlestatEnergyModelIsPowerData()
    {
        // --energy-model FILE gives the same energy as the --power items it stands for (core
        // power per C-state, the fastest P-state's core power as active); bad input exits 2
        // naming file, line and field, with nothing on stdout.
        QTemporaryDir tmp;
        const QString em = tmp.filePath(u"em.txt"_s);
        writeFile(em, "clusters 1\nclusterA: 2 cap states 2 C states\nP-states:\n600 0 200\n1200 0 700\n"
                      "C-states:\nC1 5 30\nC6 1 2\nwakeup 0 0\n");
        const QStringList common{u"compare"_s,   u"--table"_s,
                                 u"intel-skx"_s, u"--governors"_s,
                                 u"oracle"_s,    u"--per-state"_s,
                                 u"--format"_s,  u"csv"_s,
                                 u"--trace"_s,   trace("vm-amd-2cpu-timer500us.ftrace.txt.gz"),
                                 u"--cpus"_s,    u"sum"_s,
                                 u"--power"_s,   u"POLL=40mW"_s,
                                 u"--power"_s,   u"C1E=10mW"_s};
        const CliResult a = runCli(common + QStringList{u"--energy-model"_s, em});
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        const CliResult b = runCli(
            common
            + QStringList{u"--power"_s, u"C1=30mW"_s, u"--power"_s, u"C6=2mW"_s, u"--power"_s, u"active=700mW"_s});
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        const Row ra = csvRowsBy(a.out, 2).value(u"oracle|all"_s), rb = csvRowsBy(b.out, 2).value(u"oracle|all"_s);
        QVERIFY(!ra.isEmpty());
        QVERIFY2(ra["energy_J"].toDouble() > 0, qPrintable(ra["energy_J"]));
        QCOMPARE(ra["idle_energy_J"], rb["idle_energy_J"]);
        QCOMPARE(ra["energy_J"], rb["energy_J"]);
        writeFile(em, "clusters 1\nclusterA: 0 cap states 1 C states\nC-states:\nC1 ? 30\n");
        const CliResult bad = runCli(common + QStringList{u"--energy-model"_s, em});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(em + u":4: field 'cluster_power'"_s), qPrintable(bad.err));
        QVERIFY(bad.out.isEmpty());
    }

    void perCpuRowIsTheOneCpuCompare()
    {
        // CPU 0 of the 2-CPU VM trace replayed with the machine equals compare --cpu 0.
        const QString t = trace("vm-amd-2cpu-timer500us.ftrace.txt.gz");
        const QStringList common{u"compare"_s,
                                 u"--table"_s,
                                 u"intel-skx"_s,
                                 u"--governors"_s,
                                 u"menu-6.14,teo-6.14"_s,
                                 u"--format"_s,
                                 u"csv"_s,
                                 u"--trace"_s,
                                 t};
        const CliResult machine = runCli(common);
        QVERIFY2(machine.exitCode == 0, qPrintable(machine.err));
        const CliResult one = runCli(common + QStringList{u"--cpu"_s, u"0"_s, u"--aggregates-only"_s});
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        const QMap<QString, Row> m = csvRowsBy(machine.out, 2);
        const QMap<QString, Row> o = csvRowsBy(one.out, 3);
        const QString point = u"trace:"_s + t;
        for (const QString &gov : {u"menu-6.14"_s, u"teo-6.14"_s}) {
            const Row a = m.value(gov + u"|0"_s);
            const Row b = o.value(point + "|" + gov + u"|mean"_s);
            QVERIFY(!a.isEmpty() && !b.isEmpty());
            for (const char *col : {"entries", "spans", "usage_POLL", "usage_C1", "usage_C1E", "usage_C6", "above",
                                    "below", "wakeups", "latency_cost_us"})
                QCOMPARE(a[col].toDouble(), b[col].toDouble());
            // One CPU with spans: its row is the sum.
            QCOMPARE(m.value(gov + u"|all"_s)["entries"], a["entries"]);
        }
        // CPU 1 has no complete span (every one misses a sched_switch): listed, not replayed.
        QVERIFY2(machine.err.contains(u"CPU 1 not replayed: no complete idle span: 148 spans = 0 exported + 147 "
                                      "missing a sched_switch + 1 cut by the trace's end"_s),
                 qPrintable(machine.err));
        QVERIFY(!m.contains(u"menu-6.14|1"_s));
        // --cpus sum keeps the sums only.
        const CliResult sum = runCli(common + QStringList{u"--cpus"_s, u"sum"_s});
        // header + recorded + its whole-trace line + 2 governors
        QCOMPARE(sum.out.split('\n', Qt::SkipEmptyParts).size(), 1 + 4);
    }

    void skippedCpusInTheTable()
    {
        const CliResult r = runCli({u"compare"_s, u"--table"_s, u"arm-juno-r0"_s, u"--trace"_s,
                                    trace("trappy-trace_idle-6cpu.dat"), u"--governors"_s, u"teo-6.14"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"- CPU 4: no events"_s), qPrintable(r.out));
        QVERIFY(r.out.contains(u"- CPU 5: no complete idle span: 1 span = 0 exported + 1 cut by the trace's end"_s));
        QVERIFY(r.out.contains(u"energy: no power data for arm-juno-r0 state WFI"_s));
        // In JSON the missing energy is null, as the cluster view's cluster_idle_J already was
        // (the rows said "no power data" as a string where a number belongs).
        const CliResult j =
            runCli({u"compare"_s, u"--table"_s, u"arm-juno-r0"_s, u"--trace"_s, trace("trappy-trace_idle-6cpu.dat"),
                    u"--governors"_s, u"teo-6.14"_s, u"--format"_s, u"json"_s});
        QVERIFY2(j.exitCode == 0, qPrintable(j.err));
        const QJsonObject sum = QJsonDocument::fromJson(j.out.toUtf8())
                                    .object()
                                    .value(u"runs"_s)
                                    .toArray()
                                    .at(0)
                                    .toObject()
                                    .value(u"sum"_s)
                                    .toObject();
        QVERIFY2(sum.contains(u"energy_J"_s) && sum.value(u"energy_J"_s).isNull(), qPrintable(j.out));
    }

    void energyFromTableJsonPower()
    {
        // Every state and the busy CPU at 1000 mW: energy_J = run duration x 1 W, i.e.
        // duration_ms / 1000, and idle_energy_J is the idle time in seconds.
        QTemporaryDir tmp;
        const QString table = tmp.filePath(u"t.json"_s);
        writeFile(table, R"({"id": "pw", "tick_hz": 250, "active_power_mw": 1000,
 "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000, "power_mw": 1000},
  {"name": "sleep", "exit_latency_ns": 100000, "target_residency_ns": 500000, "power_mw": 1000}
 ]})");
        const CliResult r =
            runCli({u"compare"_s, u"--table"_s, table, u"--trace"_s, trace("vm-amd-2cpu-timer500us.ftrace.txt.gz"),
                    u"--governors"_s, u"oracle"_s, u"--format"_s, u"csv"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QMap<QString, Row> rows = csvRowsBy(r.out, 2);
        const Row o = rows.value(u"oracle|0"_s);
        QVERIFY(!o.isEmpty());
        const double durationS = o["duration_ms"].toDouble() / 1000.0;
        QVERIFY2(qAbs(o["energy_J"].toDouble() - durationS) < 1e-5 * durationS, qPrintable(o["energy_J"]));
        QVERIFY(o["idle_energy_J"].toDouble() < o["energy_J"].toDouble());
        // --power overrides: sleep at 0 mW leaves WFI's time only (< the idle energy above).
        const CliResult p =
            runCli({u"compare"_s, u"--table"_s, table, u"--trace"_s, trace("vm-amd-2cpu-timer500us.ftrace.txt.gz"),
                    u"--governors"_s, u"oracle"_s, u"--format"_s, u"csv"_s, u"--power"_s, u"sleep=0mW"_s});
        QVERIFY2(p.exitCode == 0, qPrintable(p.err));
        QVERIFY(csvRowsBy(p.out, 2).value(u"oracle|0"_s)["idle_energy_J"].toDouble() < o["idle_energy_J"].toDouble());
    }

    void oneCpuPerStateThroughputAndEnergyByHand()
    {
        // Table: WFI exit 1 us / target 1 us, sleep exit 100 us / target 250 us; the oracle on
        //   span 1: gap 10 us, timer = wake = 200 us -> WFI, residency 201 us (200 < 250: not below)
        //   span 2: gap 10 us, timer 2 ms, wake 800 us -> sleep, 900 us; a non-timer wakeup
        //   span 3: gap 1 us, timer = wake = 300 us, PM QoS 50 us -> WFI (sleep's 100 us exit
        //           latency is over the limit), 301 us; 300 >= 250: below in WFI
        // duration 10+201+10+900+1+301 = 1423 us; idle 1402 us, busy 21 us.
        // Power WFI 100 mW, sleep 10 mW + 50 uJ per entry+exit, active 500 mW. The table gives no
        // wake delays: each wake-up takes its exit latency, 1 + 100 + 1 = 102 us, spent waking at the
        // active power, not in the state (docs/machine.md):
        //   in WFI 500 us x 0.1 W + in sleep 800 us x 0.01 W + 1 x 50 uJ = 50 + 8 + 50 = 108 uJ;
        //   + waking 102 us x 0.5 W = 51 uJ + busy 21 us x 0.5 W = 10.5 uJ -> 169.5 uJ.
        //   wakeups_per_s = 1 / 1.423 ms = 702.741.
        QTemporaryDir tmp;
        const QString table = tmp.filePath(u"t.json"_s), stream = tmp.filePath(u"s.csv"_s);
        writeFile(table, R"({"id": "two", "tick_hz": 250, "active_power_mw": 500, "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000, "power_mw": 100},
  {"name": "sleep", "exit_latency_ns": 100000, "target_residency_ns": 250000, "power_mw": 10,
   "entry_exit_energy_uj": 50}]})");
        writeFile(stream, "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n10000,200000,200000,-1,0\n"
                          "10000,2000000,800000,-1,0\n1000,300000,300000,50000,0\n");
        const CliResult r =
            runCli({u"compare"_s, u"--table"_s, table, u"--workload"_s, u"csv:"_s + stream, u"--governors"_s,
                    u"oracle"_s, u"--per-state"_s, u"--throughput"_s, u"--format"_s, u"csv"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const Row o = csvRowsBy(r.out, 3).value(u"csv:"_s + stream + u"|oracle|1"_s);
        QVERIFY2(!o.isEmpty(), qPrintable(r.out));
        QCOMPARE(differingCells(o, u"duration_ms=1.423 wakeups_per_s=702.741 idle_energy_J=0.000108 "
                                   u"energy_J=0.0001695 below_WFI=1 above_WFI=0 below_sleep=0 above_pct_WFI=0.00"_s),
                 QString());
        // Without power data there are no energy columns at all (the one-CPU table is unchanged).
        const CliResult bare = runCli({u"compare"_s, u"--table"_s, u"arm-rk3399"_s, u"--workload"_s, u"csv:"_s + stream,
                                       u"--governors"_s, u"oracle"_s, u"--format"_s, u"csv"_s});
        QVERIFY(!bare.out.contains(u"energy_J"_s));
    }

    void closedLoopByHand()
    {
        // io:service_us=200,work_us=10,ops=3 through the oracle, sleep exit 100 us / target
        // 150 us: every wait is spent in sleep and costs 100 us (tst_closed_loop has the
        // timeline): duration 930 us, 3 / 930 us = 3225.8 ops/s, 100 us added per operation.
        // Energy: 3 x 200 = 600 us in sleep x 10 mW = 6 uJ; waking 3 x 100 us x 500 mW = 150 uJ;
        // busy 30 us x 500 mW = 15 uJ; 171 uJ, 57 uJ an op.
        QTemporaryDir tmp;
        const QString table = tmp.filePath(u"t.json"_s);
        writeFile(table, R"({"id": "two", "tick_hz": 250, "active_power_mw": 500, "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000, "power_mw": 100},
  {"name": "sleep", "exit_latency_ns": 100000, "target_residency_ns": 150000, "power_mw": 10}]})");
        const CliResult r =
            runCli({u"compare"_s, u"--table"_s, table, u"--closed-loop"_s, u"io:service_us=200,work_us=10,ops=3"_s,
                    u"--governors"_s, u"oracle"_s, u"--format"_s, u"csv"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const Row o = csvRowsBy(r.out, 1).value(u"oracle"_s);
        QCOMPARE(differingCells(o, u"operations=3 duration_ms=0.930 ops_per_s=3225.8 added_latency_mean_us=100.000 "
                                   u"added_latency_p99_us=100.000 energy_J=0.000171 energy_per_op_uJ=57"_s),
                 QString());
        const CliResult bad = runCli(
            {u"compare"_s, u"--table"_s, table, u"--closed-loop"_s, u"io:work_us=10"_s, u"--governors"_s, u"oracle"_s});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(u"--closed-loop: field 'service_us'"_s), qPrintable(bad.err));
        // --per-state and --cpus each add the loop's CPUs' rows below its table (they were refused
        // before a loop had several CPUs); a CSV file holds one table, so they are refused there.
        for (const QStringList &extra : {QStringList{u"--per-state"_s}, QStringList{u"--cpus"_s, u"each"_s}}) {
            const CliResult refused = runCli(QStringList{u"compare"_s, u"--table"_s, table, u"--closed-loop"_s,
                                                         u"io:service_us=200,work_us=10,ops=3"_s, u"--governors"_s,
                                                         u"oracle"_s, u"--format"_s, u"csv"_s}
                                             + extra);
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(refused.err.contains(extra.join(u' ') + u" adds a closed loop's per-CPU rows"_s),
                     qPrintable(refused.err));
        }
    }

    void closedLoopBackgroundNeedsOtherCpus()
    {
        // --table gives the loop a machine of its own CPUs: there is no CPU for --background.
        const CliResult r = runCli({u"compare"_s, u"--table"_s, u"arm-rk3399"_s, u"--closed-loop"_s,
                                    u"io:service_us=200,work_us=10,ops=3"_s, u"--governors"_s, u"oracle"_s,
                                    u"--background"_s, u"idle"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"--background"_s) && r.err.contains(u"outside the loop"_s), qPrintable(r.err));
        // --background none asks for no CPU: taken (a fresh user's script gave it everywhere), and
        // the Markdown the README names is --format markdown as well as md.
        const CliResult noneOnATable = runCli({u"compare"_s, u"--table"_s, u"arm-rk3399"_s, u"--closed-loop"_s,
                                               u"io:service_us=200,work_us=10,ops=3"_s, u"--governors"_s, u"oracle"_s,
                                               u"--background"_s, u"none"_s, u"--format"_s, u"markdown"_s});
        QVERIFY2(noneOnATable.exitCode == 0, qPrintable(noneOnATable.err));
        QVERIFY2(noneOnATable.out.contains(u"| oracle | 3 |"_s), qPrintable(noneOnATable.out));
        // Options a closed loop has no use for are refused, not left unread.
        for (const QStringList &extra : {QStringList{u"--spans"_s, u"100"_s}, QStringList{u"--workload-cpus"_s, u"0"_s},
                                         QStringList{u"--cluster-view"_s}, QStringList{u"--throughput"_s}}) {
            const CliResult refused =
                runCli(QStringList{u"compare"_s, u"--machine"_s, u"rk3399"_s, u"--closed-loop"_s,
                                   u"io:service_us=200,work_us=10,ops=3"_s, u"--governors"_s, u"oracle"_s}
                       + extra);
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(refused.err.contains(extra.front() + u": "_s), qPrintable(refused.err));
        }
        // On rk3399 the five CPUs after the loop's run it (said on stderr), or nothing with none.
        const QStringList loop{u"compare"_s,
                               u"--machine"_s,
                               u"rk3399"_s,
                               u"--closed-loop"_s,
                               u"io:service_us=200,work_us=10,ops=3"_s,
                               u"--governors"_s,
                               u"oracle"_s,
                               u"--format"_s,
                               u"json"_s,
                               u"--cpus"_s,
                               u"each"_s};
        const CliResult idle = runCli(loop);
        QVERIFY2(idle.exitCode == 0, qPrintable(idle.err));
        QVERIFY2(idle.err.contains(u"CPUs 1..5 run the background 'idle'"_s), qPrintable(idle.err));
        const QJsonObject rows = QJsonDocument::fromJson(idle.out.toUtf8()).object()[u"cpu_rows"_s].toObject();
        QCOMPARE(rows[u"runs"_s].toArray()[0].toObject()[u"per_cpu"_s].toArray().size(), 6);
        const CliResult none = runCli(loop + QStringList{u"--background"_s, u"none"_s});
        QVERIFY2(none.exitCode == 0, qPrintable(none.err));
        const QJsonObject one = QJsonDocument::fromJson(none.out.toUtf8()).object()[u"cpu_rows"_s].toObject();
        QCOMPARE(one[u"runs"_s].toArray()[0].toObject()[u"per_cpu"_s].toArray().size(), 1);
    }

    void closedLoopCpuRowsByHand()
    {
        // closedLoopByHand's loop on two CPUs, numjobs=2,irq=local: each CPU runs it alone
        // (930 us, sleep entered 3 times, 3 wakeups costing 100 us each, 171 uJ), and the rows
        // are compare --machine's: CPU 0, CPU 1 and their sum (6 entries, 600 us of latency
        // cost, 342 uJ), with sleep's per-state columns (no above or below for the oracle).
        QTemporaryDir tmp;
        const QString table = tmp.filePath(u"t.json"_s);
        writeFile(table, R"({"id": "two", "tick_hz": 250, "active_power_mw": 500, "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000, "power_mw": 100},
  {"name": "sleep", "exit_latency_ns": 100000, "target_residency_ns": 150000, "power_mw": 10}]})");
        const QStringList args{u"compare"_s,
                               u"--table"_s,
                               table,
                               u"--machine"_s,
                               u"2"_s,
                               u"--closed-loop"_s,
                               u"io:service_us=200,work_us=10,ops=3,numjobs=2,irq=local"_s,
                               u"--governors"_s,
                               u"oracle"_s,
                               u"--per-state"_s};
        const CliResult md = runCli(args + QStringList{u"--cpus"_s, u"each"_s});
        QVERIFY2(md.exitCode == 0, qPrintable(md.err));
        QVERIFY2(md.out.contains(u"| oracle | 6 | 0.930 |"_s), qPrintable(md.out)); // the table of governors
        // run, cpu, misses, entries, spans, usage_WFI, usage_sleep, above, below, ...
        QVERIFY2(md.out.contains(u"| oracle | 1 | simulated | 3 | 3 | 0 | 3 | 0 | 0 |"_s), qPrintable(md.out));
        const CliResult js = runCli(args + QStringList{u"--cpus"_s, u"each"_s, u"--format"_s, u"json"_s});
        QVERIFY2(js.exitCode == 0, qPrintable(js.err));
        const QJsonObject root = QJsonDocument::fromJson(js.out.toUtf8()).object();
        QCOMPARE(root[u"runs"_s].toArray()[0].toObject()[u"operations"_s].toInt(), 6);
        const QJsonObject run = root[u"cpu_rows"_s].toObject()[u"runs"_s].toArray()[0].toObject();
        const QJsonArray cpus = run[u"per_cpu"_s].toArray();
        QCOMPARE(cpus.size(), 2);
        for (const QJsonValue &c : cpus) {
            QCOMPARE(c[u"usage_sleep"_s].toInt(), 3);
            QCOMPARE(c[u"wakeups"_s].toInt(), 3);
            QCOMPARE(c[u"latency_cost_us"_s].toDouble(), 300.0);
            QCOMPARE(c[u"duration_ms"_s].toDouble(), 0.930);
            QCOMPARE(c[u"energy_J"_s].toDouble(), 0.000171);
            QCOMPARE(c[u"above_sleep"_s].toInt(), 0);
        }
        const QJsonObject sum = run[u"sum"_s].toObject();
        QCOMPARE(sum[u"entries"_s].toInt(), 6);
        QCOMPARE(sum[u"latency_cost_us"_s].toDouble(), 600.0);
        QCOMPARE(sum[u"energy_J"_s].toDouble(), 0.000342);
        // --cpus sum with --per-state: the sums only, with the per-state columns.
        const CliResult sums = runCli(args);
        QVERIFY2(sums.exitCode == 0, qPrintable(sums.err));
        QVERIFY2(sums.out.contains(u"| oracle | all | simulated | 6 | 6 | 0 | 6 |"_s), qPrintable(sums.out));
        QVERIFY2(!sums.out.contains(u"| oracle | 0 | simulated"_s), qPrintable(sums.out));
    }

    void closedLoopWithMeasuredWakeDelays()
    {
        // closedLoopByHand's loop with a wult datapoints.csv measuring sleep's wake-up at 30 and
        // 50 us (mean 40 us): each operation is 200 + 40 + 10 us, 750 us for 3 (930 with the
        // exit latency), 4000 ops/s, 40 us added. A state the table lacks is refused by name.
        QTemporaryDir tmp;
        const QString table = tmp.filePath(u"t.json"_s), wult = tmp.filePath(u"w.csv"_s);
        writeFile(table, R"({"id": "two", "tick_hz": 250, "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000},
  {"name": "sleep", "exit_latency_ns": 100000, "target_residency_ns": 150000}]})");
        writeFile(wult, "WakeLatency,SilentTime,ReqCState\n30.0,500.0,sleep\n50.0,700.0,sleep\n");
        const QStringList args{
            u"compare"_s,     u"--table"_s, table,         u"--closed-loop"_s, u"io:service_us=200,work_us=10,ops=3"_s,
            u"--governors"_s, u"oracle"_s,  u"--format"_s, u"csv"_s,           u"--wake-delays"_s};
        const CliResult r = runCli(args + QStringList{wult});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const Row o = csvRowsBy(r.out, 1).value(u"oracle"_s);
        QCOMPARE(o["duration_ms"], u"0.750"_s);
        QCOMPARE(o["ops_per_s"], u"4000.0"_s);
        QCOMPARE(o["added_latency_mean_us"], u"40.000"_s);
        writeFile(wult, "WakeLatency,ReqCState\n30.0,C6\n");
        const CliResult bad = runCli(args + QStringList{wult});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(u"field 'ReqCState'"_s) && bad.err.contains(u"no state named C6"_s),
                 qPrintable(bad.err));
    }

    void oneCpuWithMeasuredWakeDelays()
    {
        // --wake-delays on one CPU (compare's scenario carries it to the table, as --hz): two
        // rows of a stream file, gap 10 us, a device's event after 200 us, through the oracle
        // (sleep: 150 <= 200). Woken 40 us after each event (the wult mean of 30 and 50 us):
        // 2 x (10 + 200 + 40) = 500 us, 2 / 500 us = 4000 wakeups/s, latency cost 2 x 40 =
        // 80 us; without the file the exit latency: 2 x (10 + 200 + 100) = 620 us, 200 us.
        QTemporaryDir tmp;
        const QString table = tmp.filePath(u"t.json"_s), wult = tmp.filePath(u"w.csv"_s),
                      stream = tmp.filePath(u"s.csv"_s);
        writeFile(table, R"({"id": "two", "tick_hz": 250, "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000},
  {"name": "sleep", "exit_latency_ns": 100000, "target_residency_ns": 150000}]})");
        writeFile(wult, "WakeLatency,SilentTime,ReqCState\n30.0,500.0,sleep\n50.0,700.0,sleep\n");
        writeFile(stream, "gap_ns,timer_ns,wake_ns,latency_req_ns\n10000,100000000,200000,-1\n"
                          "10000,100000000,200000,-1\n");
        const QStringList args{u"compare"_s,       u"--table"_s,     table,       u"--workload"_s,
                               u"csv:"_s + stream, u"--governors"_s, u"oracle"_s, u"--throughput"_s,
                               u"--format"_s,      u"csv"_s};
        const CliResult measured = runCli(args + QStringList{u"--wake-delays"_s, wult});
        QVERIFY2(measured.exitCode == 0, qPrintable(measured.err));
        const Row m = csvRowsBy(measured.out, 3).value(u"csv:"_s + stream + u"|oracle|1"_s);
        QCOMPARE(m["usage_sleep"], u"2"_s);
        QCOMPARE(m["duration_ms"], u"0.500"_s);
        QCOMPARE(m["wakeups_per_s"], u"4000.000"_s);
        QCOMPARE(m["latency_cost_us"], u"80.000"_s);
        const CliResult plain = runCli(args);
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
        const Row p = csvRowsBy(plain.out, 3).value(u"csv:"_s + stream + u"|oracle|1"_s);
        QCOMPARE(p["duration_ms"], u"0.620"_s);
        QCOMPARE(p["latency_cost_us"], u"200.000"_s);
    }

    void iopsOfTheIoJobsByHand()
    {
        // The two-state table (WFI 1 us exit, sleep 100 us / 500 us), the oracle, no tail.
        // 1. Two jobs (numjobs=2, CPUs 0 and 1), each I/O 4 device waits of 100 us with 10 us of
        //    CPU before each: 8 spans of 10 + 100 us per CPU, all in WFI (100 < 500), so each
        //    CPU runs 8 x 111 = 888 us and completes 8 / 4 = 2 I/Os: iops = 2 / 888 us =
        //    2252.3; the sum, 4 I/Os over the longest job's 888 us, 4504.5 (wakeups count
        //    every wait: 8 / 888 us = 9009.0 per CPU).
        QTemporaryDir tmp;
        const QString table = writeTwoStateTable(tmp);
        auto run = [&](const QString &workload, const char *spans) {
            return runCli({u"compare"_s, u"--table"_s, table, u"--machine"_s, u"2"_s, u"--workload"_s, workload,
                           u"--background"_s, quietIdle(1000), u"--governors"_s, u"oracle"_s, u"--spans"_s,
                           QString::fromLatin1(spans), u"--cpus"_s, u"each"_s, u"--format"_s, u"csv"_s});
        };
        const CliResult two = run(
            u"io:device=custom,base_us=400,tail_us=0,waits=4,wait_cpu_us=10,submit_us=10,next_timer_us=0,numjobs=2"_s,
            "8");
        QVERIFY2(two.exitCode == 0, qPrintable(two.err));
        const QMap<QString, Row> t = csvRowsBy(two.out, 2);
        for (const QString cpu : {u"0"_s, u"1"_s})
            QCOMPARE(differingCells(t.value(u"oracle|"_s + cpu),
                                    u"spans=8 usage_WFI=8 duration_ms=0.888 wakeups_per_s=9009.0 iops=2252.3"_s),
                     QString());
        QCOMPARE(t.value(u"oracle|all"_s)["iops"], u"4504.5"_s);

        // 2. One job (the default) on CPU 0, one wait of 300 us after 10 us: 4 spans of 310 us
        //    in WFI, 4 x 311 = 1244 us, 4 I/Os: 4 / 1244 us = 3215.4. CPU 1 runs the
        //    background (no io jobs): its cell says so, and its idle periods, 1000 us in sleep
        //    (1100 us with the exit, two of them to cover 1240 us: 2200 us), are not the
        //    duration of the I/Os: the sum is 4 / 1244 us again, not 4 / 2200 us.
        const CliResult one = run(u"io:device=custom,base_us=300,tail_us=0,submit_us=10,next_timer_us=0"_s, "4");
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        const QMap<QString, Row> o = csvRowsBy(one.out, 2);
        QCOMPARE(differingCells(o.value(u"oracle|0"_s), u"spans=4 duration_ms=1.244 iops=3215.4"_s), QString());
        QCOMPARE(o.value(u"oracle|1"_s)["duration_ms"], u"2.200"_s);
        QCOMPARE(o.value(u"oracle|1"_s)["iops"], u"no io jobs"_s);
        QCOMPARE(differingCells(o.value(u"oracle|all"_s), u"duration_ms=2.200 iops=3215.4"_s), QString());

        // Every format carries it: the markdown header and JSON's number.
        const CliResult md =
            runCli({u"compare"_s, u"--table"_s, table, u"--machine"_s, u"2"_s, u"--workload"_s,
                    u"io:device=custom,base_us=300,tail_us=0,submit_us=10,next_timer_us=0"_s, u"--background"_s,
                    quietIdle(1000), u"--governors"_s, u"oracle"_s, u"--spans"_s, u"4"_s, u"--format"_s, u"md"_s});
        QVERIFY2(md.exitCode == 0, qPrintable(md.err));
        QVERIFY2(md.out.contains(u"| iops |"_s) && md.out.contains(u"| 3215.4 |"_s), qPrintable(md.out));
        const CliResult json =
            runCli({u"compare"_s, u"--table"_s, table, u"--machine"_s, u"2"_s, u"--workload"_s,
                    u"io:device=custom,base_us=300,tail_us=0,submit_us=10,next_timer_us=0"_s, u"--background"_s,
                    quietIdle(1000), u"--governors"_s, u"oracle"_s, u"--spans"_s, u"4"_s, u"--format"_s, u"json"_s});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QVERIFY2(json.out.contains(u"\"iops\": 3215.4"_s), qPrintable(json.out));
    }

    void composedIoInterruptsOnCpu0ByHand()
    {
        // tst_machine's completionInterruptsOfAnOverlayByHand and ...OfAMixByHand through the CLI
        // (the same two-state table, seed 1, the oracle): io on CPU 1 inside an overlay or a mix,
        // its single-vector controller's interrupts on CPU 0, which idles to timers 1000 us apart.
        // Overlay `idle + io`, 5 spans: CPU 0 has 4 WFI entries (985 us idle), 3 of them ended
        // by CPU 1's completions, which wake no task on CPU 0 (in-idle wakeups: no wakeups
        // counted), duration 1000 + 4 x 1 = 1004 us (1 us exit each); CPU 1 5 WFI entries,
        // 3 wakeups; all: 9 entries, 3 wakeups.
        // Mix `mix(io | periodic)`, 7 spans: CPU 0 has WFI 3 (533 us) and sleep 2 (1655 us):
        // 533 / 2188 = 24.36 % in WFI; the 3 interrupts wake no task there: no wakeups, no
        // latency cost; duration 2000 + 2 x 100 (sleep) + 3 x 1 (WFI) = 2203 us (every
        // entry's exit latency).
        QTemporaryDir tmp;
        const QString table = writeTwoStateTable(tmp);
        const QString io =
            u"io:device=custom,base_us=300,tail_us=0,submit_us=10,next_timer_us=0,irq=cpu0,hardirq_us=5"_s;
        auto compareOnCpu1 = [&](const QString &workload, const char *spans, const char *format) {
            return runCli({u"compare"_s, u"--table"_s, table, u"--machine"_s, u"2"_s, u"--workload"_s, workload,
                           u"--workload-cpus"_s, u"1"_s, u"--background"_s, quietIdle(1000), u"--governors"_s,
                           u"oracle"_s, u"--spans"_s, QString::fromLatin1(spans), u"--format"_s,
                           QString::fromLatin1(format)});
        };
        const QString overlay = quietIdle(450) + u" + "_s + io;
        const CliResult o = compareOnCpu1(overlay, "5", "csv");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        const QMap<QString, Row> orows = csvRowsBy(o.out, 2);
        QCOMPARE(differingCells(orows.value(u"oracle|0"_s),
                                u"entries=4 usage_WFI=4 wakeups=0 duration_ms=1.004 wakeups_per_s=0.0"_s),
                 QString());
        QCOMPARE(orows.value(u"oracle|1"_s)["entries"], u"5"_s);
        QCOMPARE(orows.value(u"oracle|1"_s)["wakeups"], u"3"_s);
        QCOMPARE(orows.value(u"oracle|all"_s)["entries"], u"9"_s);
        QCOMPARE(orows.value(u"oracle|all"_s)["wakeups"], u"3"_s);
        // The table names the split in its workload line.
        const CliResult md = compareOnCpu1(overlay, "5", "md");
        QVERIFY2(md.out.contains(u"(completion interrupts on CPU 0)"_s), qPrintable(md.out));

        const QString ipi = u"periodic:kind=ipi,interval_us=200,run_us=10,next_timer_us=0"_s;
        const CliResult mix = compareOnCpu1(u"mix("_s + io + u" | "_s + ipi + u")"_s, "7", "csv");
        QVERIFY2(mix.exitCode == 0, qPrintable(mix.err));
        QCOMPARE(differingCells(csvRowsBy(mix.out, 2).value(u"oracle|0"_s),
                                u"usage_WFI=3 usage_sleep=2 time_pct_WFI=24.36 wakeups=0 "
                                u"latency_cost_us=0.000 duration_ms=2.203"_s),
                 QString());
    }

    void durationCoversEveryCpu()
    {
        // tst_machine's durationCoversEveryCpu through the CLI: --duration 0.003 (3 ms) on two
        // CPUs, the workload on CPU 0 (10 us + a 200 us timer: 15 rows reach 3150 us), the
        // background on CPU 1 (a timer every 600 us: 5 rows reach 3000 us exactly). slack_us=0:
        // the test counts rows of exact intervals, not the timer's slack.
        QTemporaryDir tmp;
        const QString table = writeTwoStateTable(tmp);
        auto run = [&](const QStringList &extra) {
            return runCli(QStringList{u"compare"_s, u"--table"_s, table, u"--machine"_s, u"2"_s, u"--workload"_s,
                                      u"periodic:kind=timer,interval_us=200,run_us=10,cpus=1,slack_us=0"_s,
                                      u"--background"_s, quietIdle(600), u"--governors"_s, u"oracle"_s, u"--format"_s,
                                      u"csv"_s}
                          + extra);
        };
        const CliResult r = run({u"--duration"_s, u"0.003"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QMap<QString, Row> rows = csvRowsBy(r.out, 2);
        QCOMPARE(rows.value(u"oracle|0"_s)["spans"], u"15"_s);
        QCOMPARE(rows.value(u"oracle|1"_s)["spans"], u"5"_s);
        // --spans 10 instead: 10 rows (2100 us) on CPU 0, which the background covers with 4.
        const QMap<QString, Row> bySpans = csvRowsBy(run({u"--spans"_s, u"10"_s}).out, 2);
        QCOMPARE(bySpans.value(u"oracle|0"_s)["spans"], u"10"_s);
        QCOMPARE(bySpans.value(u"oracle|1"_s)["spans"], u"4"_s);
        // Refused: not seconds with up to 3 decimals in 0.001..86400, both measures at once.
        for (const char *bad : {"0", "1.2345", "-1", "1.", "2e3", "86400.001"}) {
            const CliResult b = run({u"--duration"_s, QString::fromLatin1(bad)});
            QCOMPARE(b.exitCode, 2);
            QCOMPARE(b.err, u"idlescope-cli: field '--duration': '"_s + QString::fromLatin1(bad)
                                + u"' is not seconds (up to 3 decimals) in 0.001..86400\n"_s);
        }
        const CliResult both = run({u"--duration"_s, u"1"_s, u"--spans"_s, u"10"_s});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains(u"give either --duration or --spans on a machine, not both"_s),
                 qPrintable(both.err));
        const CliResult oneCpu = runCli({u"compare"_s, u"--table"_s, table, u"--workload"_s, u"poisson"_s,
                                         u"--governors"_s, u"oracle"_s, u"--duration"_s, u"1"_s});
        QCOMPARE(oneCpu.exitCode, 2);
        QVERIFY2(oneCpu.err.contains(u"--duration needs a machine"_s), qPrintable(oneCpu.err));
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("tableJson");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        const QByteArray good = R"({"id": "pw", "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000}]})";
        QTest::newRow("power without unit")
            << good << QStringList{u"--power"_s, u"WFI=5"_s} << u"--power: field 'WFI': '5' has no unit"_s;
        QTest::newRow("power of an unknown state")
            << good << QStringList{u"--power"_s, u"C6=5mW"_s} << u"no such state in table pw"_s;
        QTest::newRow("negative power in the file") << QByteArray(R"({"id": "pw", "states": [
  {"name": "WFI", "exit_latency_ns": 1000,
   "target_residency_ns": 1000,
   "power_mw": -3}]})") << QStringList{} << u"t.json:4: field 'power_mw': state 0 (WFI): must not be negative"_s;
        QTest::newRow("power key without unit")
            << QByteArray(R"({"id": "pw", "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000, "power": 3}]})")
            << QStringList{} << u"t.json:2: field 'power': state 0 (WFI): no unit in the key"_s;
        QTest::newRow("power as text") << QByteArray(R"({"id": "pw", "active_power_mw": "300 mW", "states": [
  {"name": "WFI", "exit_latency_ns": 1000, "target_residency_ns": 1000}]})")
                                       << QStringList{}
                                       << u"t.json:1: field 'active_power_mw': table: must be a number"_s;
        QTest::newRow("a CPU the machine lacks")
            << good << QStringList{u"--machine"_s, u"1"_s}
            << u"field '--machine': the trace has events on CPU 1, machine pw x1 has CPUs 0..0"_s;
        QTest::newRow("bad --cpus") << good << QStringList{u"--cpus"_s, u"some"_s} << u"'some' is not each or sum"_s;
    }

    void badInput()
    {
        QFETCH(QByteArray, tableJson);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString table = tmp.filePath(u"t.json"_s);
        writeFile(table, tableJson);
        const CliResult r =
            runCli(QStringList{u"compare"_s, u"--table"_s, table, u"--trace"_s,
                               trace("vm-amd-2cpu-timer500us.ftrace.txt.gz"), u"--governors"_s, u"menu-6.14"_s}
                   + extra);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void builtinMachineOnAWorkload()
    {
        // rk3399: 6 CPUs, two clusters of the arm-rk3399 table; the workload on every CPU (six
        // fio jobs), each completion on its submitter (irq=local; emmc's default also interrupts CPU 0).
        const CliResult r = runCli({u"compare"_s, u"--machine"_s, u"rk3399"_s, u"--workload"_s,
                                    u"io:device=emmc,irq=local,numjobs=6"_s, u"--governors"_s, u"menu-6.14"_s,
                                    u"--spans"_s, u"300"_s, u"--format"_s, u"csv"_s, u"--cluster-view"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QMap<QString, Row> rows = csvRowsBy(r.out, 2);
        // The busiest CPU's 300 spans set the run's time, which the other five cover with spans
        // of their own seeds (synthetic_machine.h): 300 there, at least 300 elsewhere.
        qint64 spans = 0, entries = 0;
        int busiest = 0;
        for (int cpu = 0; cpu < 6; ++cpu) {
            const Row row = rows.value(u"menu-6.14|"_s + QString::number(cpu));
            QVERIFY2(row["spans"].toLongLong() >= 300, qPrintable(row["spans"]));
            busiest += row["spans"] == u"300"_s ? 1 : 0;
            entries += row["entries"].toLongLong();
            spans += row["spans"].toLongLong();
        }
        QVERIFY(busiest >= 1);
        QCOMPARE(rows.value(u"menu-6.14|all"_s)["spans"].toLongLong(), spans);
        QCOMPARE(rows.value(u"menu-6.14|all"_s)["entries"].toLongLong(), entries);
    }

    void sweepOnAMachineByHand()
    {
        // The two-state table, the oracle, no tail: each I/O is 10 us of CPU, then one wait.
        // base_us=100/300 on CPU 0 (numjobs=1), 2 spans: at 100 us, 2 x (10 + 100 + 1 exit
        // from WFI) = 222 us, iops 2 / 222 us = 9009.0; at 300 us, 2 x 311 = 622 us, 3215.4.
        // Each point is a block of rows labelled as a one-CPU sweep labels them.
        QTemporaryDir tmp;
        const QString table = writeTwoStateTable(tmp);
        auto run = [&](const QString &workload, const QStringList &more = {}, const QString &spans = u"2"_s) {
            const bool format = more.contains(u"--format"_s);
            return runCli(QStringList{u"compare"_s, u"--table"_s, table, u"--machine"_s, u"2"_s, u"--workload"_s,
                                      workload, u"--background"_s, quietIdle(1000), u"--governors"_s, u"oracle"_s,
                                      u"--spans"_s, spans}
                          + (format ? QStringList{} : QStringList{u"--format"_s, u"csv"_s}) + more);
        };
        const QString io = u"io:device=custom,tail_us=0,submit_us=10,next_timer_us=0"_s;
        const CliResult base = run(io + u",base_us=100/300"_s);
        QVERIFY2(base.exitCode == 0, qPrintable(base.err));
        QVERIFY2(base.out.startsWith(u"point,run,cpu,"_s), qPrintable(base.out));
        const QMap<QString, Row> b = csvRowsBy(base.out, 3);
        QCOMPARE(differingCells(b.value(u"base_us=100|oracle|0"_s), u"duration_ms=0.222 iops=9009.0"_s), QString());
        QCOMPARE(differingCells(b.value(u"base_us=300|oracle|0"_s), u"duration_ms=0.622 iops=3215.4"_s), QString());
        QCOMPARE(b.size(), 2 * 3); // per point: CPU 0, CPU 1 and all

        // A number sweep of the jobs: numjobs=1 leaves CPU 1 to the background, numjobs=2 runs
        // a job there too (622 us, 2 I/Os each): the sum is 4 I/Os over 622 us, 6430.9.
        const CliResult jobs = run(io + u",base_us=300,numjobs=1/2"_s);
        QVERIFY2(jobs.exitCode == 0, qPrintable(jobs.err));
        const QMap<QString, Row> j = csvRowsBy(jobs.out, 3);
        QCOMPARE(j.value(u"numjobs=1|oracle|1"_s)["iops"], u"no io jobs"_s);
        QCOMPARE(j.value(u"numjobs=2|oracle|1"_s)["iops"], u"3215.4"_s);
        QCOMPARE(j.value(u"numjobs=2|oracle|all"_s)["iops"], u"6430.9"_s);

        // A word sweep's first point is seeded as the same workload unswept (runSeed(seed, 0,
        // CPU)): its rows are those of `io:device=emmc` alone, cell for cell.
        const CliResult words = run(u"io:device=emmc/nvme/sata"_s, {}, u"200"_s);
        QVERIFY2(words.exitCode == 0, qPrintable(words.err));
        const CliResult emmc = run(u"io:device=emmc"_s, {}, u"200"_s);
        QVERIFY2(emmc.exitCode == 0, qPrintable(emmc.err));
        const QMap<QString, Row> w = csvRowsBy(words.out, 3), e = csvRowsBy(emmc.out, 2);
        QCOMPARE(w.size(), 3 * 3);
        for (const QString cpu : {u"0"_s, u"1"_s, u"all"_s}) {
            Row swept = w.value(u"device=emmc|oracle|"_s + cpu);
            swept.remove(u"point"_s);
            QVERIFY(!swept.isEmpty());
            QCOMPARE(swept, e.value(u"oracle|"_s + cpu));
        }
        QVERIFY(w.contains(u"device=sata|oracle|all"_s));

        // Markdown: one table, the point first; JSON: a comparison per point.
        const CliResult md = run(io + u",base_us=100/300"_s, {u"--format"_s, u"md"_s});
        QVERIFY2(md.exitCode == 0 && md.out.contains(u"| point | run | cpu |"_s), qPrintable(md.out + md.err));
        const CliResult json = run(io + u",base_us=100/300"_s, {u"--format"_s, u"json"_s});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        const QJsonDocument doc = QJsonDocument::fromJson(json.out.toUtf8());
        const QJsonArray points = doc.object()[u"points"_s].toArray();
        QCOMPARE(points.size(), 2);
        QCOMPARE(points[1].toObject()[u"point"_s].toString(), u"base_us=300"_s);
        QCOMPARE(points[1]
                     .toObject()[u"comparison"_s]
                     .toObject()[u"runs"_s]
                     .toArray()[0]
                     .toObject()[u"sum"_s]
                     .toObject()[u"iops"_s]
                     .toDouble(),
                 3215.4);

        // Iterations and shards stay one CPU's, with the reason.
        const CliResult it = run(io + u",base_us=100/300"_s, {u"--iterations"_s, u"2"_s});
        QCOMPARE(it.exitCode, 2);
        QVERIFY2(it.err.contains(u"--iterations is for one CPU; a machine compare runs once"_s), qPrintable(it.err));
    }
};

QTEST_GUILESS_MAIN(TestCompareMachine)
#include "tst_compare_machine.moc"
