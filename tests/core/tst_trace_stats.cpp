// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Recorded statistics and their renderings, recorded vs simulated, on the
 * Juno trace (three states) and on small hand-made traces. The Juno numbers
 * come from awk over lisa-juno-sched_load-6cpu.report.txt (see each case),
 * with the arm-juno-r0 table (resources/targets): WFI TR 1 us / EL 1 us,
 * cpu-sleep-0 TR 2000 us / EL 1500 us, cluster-sleep-0 TR 2500 us / EL 1600 us.
 */
#include "core/formats/stream_csv.h"
#include "core/io/table_json.h"
#include "core/scenario/trace_simulate.h"
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_machine.h"
#include "core/trace/trace_stats.h"
#include "core/trace/trace_stream.h"

#include "tests/test_paths.h"
#include "tests/test_require.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

Result<TraceImport> loadTrace(const char *name)
{
    return importTrace((test::tracesDir() + QStringLiteral("/") + QString::fromUtf8(name)).toStdString());
}

Result<IdleStateTable> junoTable()
{
    return readTableJson((test::sourceDir() + QStringLiteral("/resources/targets/arm-juno-r0.json")).toStdString());
}

} // namespace

class TestTraceStats : public QObject {
    Q_OBJECT

private slots:
    void histogramBins()
    {
        QCOMPARE(histogramBin(999), 0);
        QCOMPARE(histogramBin(1000), 1);
        QCOMPARE(histogramBin(1999), 1);
        QCOMPARE(histogramBin(2000), 2);
        QCOMPARE(histogramBin(4'000'000), 12); // 4000 us: [2048, 4096)
        QCOMPARE(histogramBin(Ns(1) << 50), HIST_BINS - 1);
        QCOMPARE(histogramLowerNs(12), Ns(2048000));
    }

    void junoRecomputedMisses()
    {
        // awk over the report (ENTRIES program of tst_trace_real with, at each complete entry of
        // duration d in state st: st==0 && d>1000 && d-1000>=2000000 -> below0; st==1 && d<2000000 -> above1,
        // else st==1 && d>1500000 && d-1500000>=2500000 -> below1; st==2 && d<2500000 -> above2)
        // -> below0 27, above1 9, below1 16, above2 27
        IDLESCOPE_REQUIRE_OK(t, loadTrace("lisa-juno-sched_load-6cpu.report.txt"));
        IDLESCOPE_REQUIRE_OK(table, junoTable());
        const TraceStats s = computeStats(t, &table);
        QCOMPARE(s.missSource, MissSource::Recomputed);
        QCOMPARE(s.tableId, std::string("arm-juno-r0"));
        QCOMPARE(s.total.states[0].above, std::int64_t(0));
        QCOMPARE(s.total.states[0].below, std::int64_t(27));
        QCOMPARE(s.total.states[1].above, std::int64_t(9));
        QCOMPARE(s.total.states[1].below, std::int64_t(16));
        QCOMPARE(s.total.states[2].above, std::int64_t(27));
        QCOMPARE(s.total.states[2].below, std::int64_t(0));
        // Without a table there is nothing to say.
        const TraceStats none = computeStats(t, nullptr);
        QCOMPARE(none.missSource, MissSource::None);
        QCOMPARE(none.total.states[1].above, std::int64_t(0));
        // Histogram: same awk, k = number of binary digits of the duration in whole us ->
        // 2 1;4 2;5 4;6 28;7 12;8 37;9 15;10 17;11 15;12 68;13 12;14 3;15 4;16 5;17 8
        const std::int64_t hist[HIST_BINS] = {0, 0, 1, 0, 2, 4, 28, 12, 37, 15, 17, 15, 68, 12, 3, 4, 5, 8, 0, 0, 0, 0};
        for (int k = 0; k < HIST_BINS; ++k)
            QCOMPARE(s.total.histogram[static_cast<size_t>(k)], hist[k]);
        QCOMPARE(s.total.truncatedEntries, std::int64_t(6));
    }

    void recordedMissesWin()
    {
        const char *text = "  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=1 cpu_id=0\n"
                           "  <idle>-0 [000] d..1. 1.000500: cpu_idle: state=4294967295 cpu_id=0\n"
                           "  <idle>-0 [000] d..1. 1.000500: cpu_idle_miss: cpu_id=0 state=1 type=below\n";
        Result<TraceImport> t = importTraceText(text, "m.txt");
        QVERIFY(t);
        IDLESCOPE_REQUIRE_OK(table, junoTable());
        // 500 us in cpu-sleep-0 would be "above" by the rule; the trace says "below": the trace wins.
        const TraceStats s = computeStats(*t, &table);
        QCOMPARE(s.missSource, MissSource::Recorded);
        QCOMPARE(s.total.states[1].below, std::int64_t(1));
        QCOMPARE(s.total.states[1].above, std::int64_t(0));
    }

    void stateBeyondTable()
    {
        const char *text = "  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=5 cpu_id=0\n"
                           "  <idle>-0 [000] d..1. 1.000500: cpu_idle: state=4294967295 cpu_id=0\n";
        Result<TraceImport> t = importTraceText(text, "b.txt");
        QVERIFY(t);
        IDLESCOPE_REQUIRE_OK(table, junoTable());
        const TraceStats s = computeStats(*t, &table);
        QCOMPARE(s.total.statesBeyondTable, std::int64_t(1));
        QCOMPARE(s.total.states[5].usage, std::int64_t(1));
    }

    void renderings()
    {
        IDLESCOPE_REQUIRE_OK(t, loadTrace("lisa-juno-sched_load-6cpu.report.txt"));
        IDLESCOPE_REQUIRE_OK(table, junoTable());
        const TraceStats s = computeStats(t, &table);
        Result<SimulatedTrace> sim = scenario::simulateTrace(traceWorkload(t, ""), table, "menu-6.14");
        QVERIFY(sim);
        // 193 rows in 89 complete spans (JUNO ROWS awk of tst_trace_real: 92 + 12 + 18 + 37 + 20 + 14).
        QCOMPARE(sim->total.spans, std::int64_t(193));
        QCOMPARE(sim->cpus.size(), size_t(6));
        QVERIFY(sim->total.entries >= sim->total.spans);
        QVERIFY(!scenario::simulateTrace(traceWorkload(t, ""), table, "no-such-governor"));

        const StatsReport report{t, s, &*sim};
        const std::string md = formatStatsMarkdown(report);
        QVERIFY(md.find("recomputed (cpuidle_enter_state rule against the table) 'arm-juno-r0'") != std::string::npos);
        QVERIFY(md.find("| all | 1 | 60 |") != std::string::npos);
        QVERIFY(md.find("Recorded vs simulated (menu-6.14 on 'arm-juno-r0'") != std::string::npos);
        const std::string csv = formatStatsCsv(report);
        QVERIFY(csv.starts_with("cpu,metric,key,value\n"));
        QVERIFY(csv.find("\nall,state_above,1,9\n") != std::string::npos);
        QVERIFY(csv.find("\n0,state_usage,0,68\n") != std::string::npos);
        QVERIFY(csv.find("\nall,cause,unknown,231\n") != std::string::npos);
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(formatStatsJson(report)));
        QVERIFY(doc.isObject());
        const QJsonArray cpus = doc.object().value(QStringLiteral("cpus")).toArray();
        QCOMPARE(cpus.size(), 7); // six CPUs and "all"
        const QJsonObject all = cpus.last().toObject();
        QCOMPARE(all.value(QStringLiteral("cpu")).toString(), QStringLiteral("all"));
        QCOMPARE(all.value(QStringLiteral("entries")).toInteger(), qint64(231));
        QCOMPARE(
            all.value(QStringLiteral("states")).toArray().at(2).toObject().value(QStringLiteral("above")).toInteger(),
            qint64(27));
        // The simulated run's "spans" are its stream rows (193, above).
        QCOMPARE(doc.object().value(QStringLiteral("simulated")).toObject().value(QStringLiteral("spans")).toInteger(),
                 qint64(193));
    }

    void streamIsLoadable()
    {
        // The exported stream passes the conformance reader's checks row by row.
        IDLESCOPE_REQUIRE_OK(t, loadTrace("vm-amd-2cpu-pipe100us.ftrace.txt.gz"));
        const StreamExport ex = toReplayStream(t.cpus[0]);
        const std::string csv = formatStreamCsv(ex.stream);
        Result<IdleStream> back = parseStreamCsv(csv, "exported");
        QVERIFY(back);
        QCOMPARE(back->size(), ex.stream.size());
    }
};

QTEST_GUILESS_MAIN(TestTraceStats)
#include "tst_trace_stats.moc"
