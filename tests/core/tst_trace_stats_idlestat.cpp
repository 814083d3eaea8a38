// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * What trace-stats prints beyond the sysfs counters, as idlestat does: state
 * names from the table, min/avg/max residency per state, cluster idle (every
 * CPU of a group idle at once), the irq and hrtimer names of wakeups in CSV
 * and JSON, and a baseline trace side by side. All on a hand-made two-CPU
 * trace whose numbers are worked out in the comments.
 */
#include "core/io/table_json.h"
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_stats.h"

#include "tests/test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

// Times in us after 1 s. CPU 0: state 1 [0, 500], state 2 [1000, 3000], state 1 [4000, 4100];
// CPU 1: state 1 [200, 2000], state 2 [3500, 4050]. An irq "eth0" right after CPU 0's first exit.
const char *const kTrace = "  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=1 cpu_id=0\n"
                           "  <idle>-0 [001] d..1. 1.000200: cpu_idle: state=1 cpu_id=1\n"
                           "  <idle>-0 [000] d..1. 1.000500: cpu_idle: state=4294967295 cpu_id=0\n"
                           "  <idle>-0 [000] d.h1. 1.000501: irq_handler_entry: irq=5 name=eth0\n"
                           "  <idle>-0 [000] d..1. 1.001000: cpu_idle: state=2 cpu_id=0\n"
                           "  <idle>-0 [001] d..1. 1.002000: cpu_idle: state=4294967295 cpu_id=1\n"
                           "  <idle>-0 [000] d..1. 1.003000: cpu_idle: state=4294967295 cpu_id=0\n"
                           "  <idle>-0 [001] d..1. 1.003500: cpu_idle: state=2 cpu_id=1\n"
                           "  <idle>-0 [000] d..1. 1.004000: cpu_idle: state=1 cpu_id=0\n"
                           "  <idle>-0 [001] d..1. 1.004050: cpu_idle: state=4294967295 cpu_id=1\n"
                           "  <idle>-0 [000] d..1. 1.004100: cpu_idle: state=4294967295 cpu_id=0\n";

TraceImport load(const char *text, const char *label)
{
    Result<TraceImport> r = importTraceText(text, label);
    if (!r)
        qWarning("%s", r.error().toString().c_str());
    return r ? std::move(*r) : TraceImport{};
}

IdleStateTable junoTable()
{
    // resources/targets/arm-juno-r0.json: WFI, cpu-sleep-0, cluster-sleep-0.
    Result<IdleStateTable> t =
        readTableJson((test::sourceDir() + QStringLiteral("/resources/targets/arm-juno-r0.json")).toStdString());
    return t ? *t : IdleStateTable{};
}

constexpr Ns US = 1000;

} // namespace

class TestTraceStatsIdlestat : public QObject {
    Q_OBJECT

private slots:
    void residencyRangePerState()
    {
        const TraceImport t = load(kTrace, "two.txt");
        QCOMPARE(t.cpus.size(), size_t(2));
        const TraceStats s = computeStats(t, nullptr);
        // CPU 0, state 1: 500 and 100 us; state 2: 2000 us.
        const CpuStats &c0 = s.cpus[0];
        QCOMPARE(c0.states[1].usage, std::int64_t(2));
        QCOMPARE(c0.residency[1].minNs, 100 * US);
        QCOMPARE(c0.residency[1].maxNs, 500 * US);
        QCOMPARE(c0.residency[2].minNs, 2000 * US);
        QCOMPARE(c0.residency[2].maxNs, 2000 * US);
        // All CPUs, state 1: 500, 100, 1800 us -> min 100, max 1800, mean 2400 / 3 = 800;
        // state 2: 2000, 550 us -> min 550, max 2000.
        QCOMPARE(s.total.residency[1].minNs, 100 * US);
        QCOMPARE(s.total.residency[1].maxNs, 1800 * US);
        QCOMPARE(s.total.states[1].timeNs / s.total.states[1].usage, 800 * US);
        QCOMPARE(s.total.residency[2].minNs, 550 * US);
        QCOMPARE(s.total.residency[2].maxNs, 2000 * US);
    }

    void clusterIdle()
    {
        const TraceImport t = load(kTrace, "two.txt");
        const TraceStats s = computeStats(t, nullptr);
        // Both idle: [200, 500] + [1000, 2000] + [4000, 4050] = 300 + 1000 + 50 = 1350 us, within
        // the window both CPUs observed: from CPU 1's first event (200) to its last (4050).
        QCOMPARE(s.clusters.size(), size_t(1));
        QCOMPARE(s.clusters[0].cpus, (std::vector<int>{0, 1}));
        QCOMPARE(s.clusters[0].allIdleNs, 1350 * US);
        QCOMPARE(s.clusters[0].observedNs, 3850 * US);
        // A group of one CPU is that CPU's idle time: 500 + 2000 + 100 us; a CPU the
        // trace lacks is left out of its group.
        const TraceStats one = computeStats(t, nullptr, {{0}, {1, 7}});
        QCOMPARE(one.clusters.size(), size_t(2));
        QCOMPARE(one.clusters[0].allIdleNs, 2600 * US);
        QCOMPARE(one.clusters[1].cpus, std::vector<int>{1});
        QCOMPARE(one.clusters[1].allIdleNs, 2350 * US); // 1800 + 550
    }

    void namesInCsvAndJson()
    {
        const TraceImport t = load(kTrace, "two.txt");
        const IdleStateTable table = junoTable();
        QCOMPARE(table.count(), 3);
        const TraceStats s = computeStats(t, &table);
        const StatsReport report{t, s, nullptr, &table};

        const std::string csv = formatStatsCsv(report);
        QVERIFY(csv.find("\nall,state_name,1,cpu-sleep-0\n") != std::string::npos);
        QVERIFY(csv.find("\nall,state_min_residency_ns,1,100000\n") != std::string::npos);
        QVERIFY(csv.find("\nall,state_avg_residency_ns,1,800000\n") != std::string::npos);
        QVERIFY(csv.find("\nall,state_max_residency_ns,1,1800000\n") != std::string::npos);
        QVERIFY2(csv.find("\n0,cause_irq,eth0,1\n") != std::string::npos, csv.c_str());
        QVERIFY(csv.find("\n0+1,cluster_all_idle_ns,,1350000\n") != std::string::npos);

        const QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(formatStatsJson(report))).object();
        const QJsonArray cpus = root.value(QStringLiteral("cpus")).toArray();
        QCOMPARE(cpus.size(), 3); // 0, 1 and "all"
        const QJsonObject cpu0 = cpus.at(0).toObject();
        QCOMPARE(cpu0.value(QStringLiteral("cause_names"))
                     .toObject()
                     .value(QStringLiteral("irq"))
                     .toObject()
                     .value(QStringLiteral("eth0"))
                     .toInteger(),
                 qint64(1));
        const QJsonObject all1 = cpus.at(2).toObject().value(QStringLiteral("states")).toArray().at(1).toObject();
        QCOMPARE(all1.value(QStringLiteral("name")).toString(), QStringLiteral("cpu-sleep-0"));
        QCOMPARE(all1.value(QStringLiteral("min_residency_ns")).toInteger(), qint64(100000));
        QCOMPARE(all1.value(QStringLiteral("max_residency_ns")).toInteger(), qint64(1800000));
        const QJsonObject cluster = root.value(QStringLiteral("clusters")).toArray().at(0).toObject();
        QCOMPARE(cluster.value(QStringLiteral("all_idle_ns")).toInteger(), qint64(1350000));

        const std::string md = formatStatsMarkdown(report);
        // CPU 0, state 1: 2 entries, 0.600 ms, min 100.0 / avg 300.0 / max 500.0 us.
        QVERIFY2(md.find("| 0 | 1 (cpu-sleep-0) | 2 | 0.600 |") != std::string::npos, md.c_str());
        QVERIFY(md.find("| 100.0 | 300.0 | 500.0 |\n") != std::string::npos);
        QVERIFY(md.find("| 0 1 | 1.350 | 3.850 | 35.1% |") != std::string::npos); // 1350 / 3850
    }

    void baselineSideBySide()
    {
        const TraceImport a = load(kTrace, "a.txt");
        // The baseline: CPU 0's first entry alone (state 1, 500 us).
        const TraceImport b = load("  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=1 cpu_id=0\n"
                                   "  <idle>-0 [000] d..1. 1.000500: cpu_idle: state=4294967295 cpu_id=0\n",
                                   "b.txt");
        const TraceStats sa = computeStats(a, nullptr), sb = computeStats(b, nullptr);
        const StatsReport report{a, sa, nullptr, nullptr, &b, &sb};
        const std::string csv = formatStatsCsv(report);
        QVERIFY(csv.find("\nall,entries,,5\n") != std::string::npos);
        QVERIFY(csv.find("\nbaseline,entries,,1\n") != std::string::npos);
        QVERIFY(csv.find("\nbaseline,state_usage,1,1\n") != std::string::npos);
        QVERIFY(csv.find("\nbaseline,state_time_ns,1,500000\n") != std::string::npos);
        const QJsonObject base = QJsonDocument::fromJson(QByteArray::fromStdString(formatStatsJson(report)))
                                     .object()
                                     .value(QStringLiteral("baseline"))
                                     .toObject();
        QCOMPARE(base.value(QStringLiteral("file")).toString(), QStringLiteral("b.txt"));
        QCOMPARE(base.value(QStringLiteral("entries")).toInteger(), qint64(1));
        const std::string md = formatStatsMarkdown(report);
        QVERIFY(md.find("## Against the baseline b.txt") != std::string::npos);
        QVERIFY(md.find("| idle entries | 5 | 1 | +4 |") != std::string::npos);
        QVERIFY(md.find("| state 1 usage | 3 | 1 | +2 |") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTraceStatsIdlestat)
#include "tst_trace_stats_idlestat.moc"
