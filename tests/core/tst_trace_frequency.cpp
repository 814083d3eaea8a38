// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * power:cpu_frequency in trace-stats, as idlestat's P-state table: the
 * running time at each frequency (idle entries left out), hits, min/avg/max
 * stretch, per CPU and for all CPUs; the events touch neither CPU's idle
 * statistics; the .dat and the text report of one recording agree.
 */
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_stats.h"

#include "tests/test_paths.h"
#include "tests/test_require.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

constexpr Ns US = 1000;

// Times in us after 1 s. CPU 0: 500 MHz from 0 (logged by CPU 1, as a sugov thread
// elsewhere would), idle [100, 300], 1000 MHz from 400, idle [700, 1000] during which it
// is set back to 500 MHz, and an enter at 1200 that the trace ends inside.
// CPU 1: 800 MHz from 50 (logged by CPU 0), idle [200, 600], an irq at 900 (its last event).
const char *const kTrace = "  sugov:1-10 [001] d..1. 1.000000: cpu_frequency: state=500000 cpu_id=0\n"
                           "  sugov:0-11 [000] d..1. 1.000050: cpu_frequency: state=800000 cpu_id=1\n"
                           "  <idle>-0 [000] d..1. 1.000100: cpu_idle: state=1 cpu_id=0\n"
                           "  <idle>-0 [001] d..1. 1.000200: cpu_idle: state=1 cpu_id=1\n"
                           "  <idle>-0 [000] d..1. 1.000300: cpu_idle: state=4294967295 cpu_id=0\n"
                           "  sugov:0-11 [000] d..1. 1.000400: cpu_frequency: state=1000000 cpu_id=0\n"
                           "  <idle>-0 [001] d..1. 1.000600: cpu_idle: state=4294967295 cpu_id=1\n"
                           "  <idle>-0 [000] d..1. 1.000700: cpu_idle: state=2 cpu_id=0\n"
                           "  sugov:1-10 [001] d..1. 1.000800: cpu_frequency: state=500000 cpu_id=0\n"
                           "    bash-99 [001] d.h1. 1.000900: irq_handler_entry: irq=5 name=eth0\n"
                           "  <idle>-0 [000] d..1. 1.001000: cpu_idle: state=4294967295 cpu_id=0\n"
                           "  <idle>-0 [000] d..1. 1.001200: cpu_idle: state=1 cpu_id=0\n";

TraceImport load(const char *text)
{
    Result<TraceImport> r = importTraceText(text, "freq.txt");
    if (!r)
        qWarning("%s", r.error().toString().c_str());
    return r ? std::move(*r) : TraceImport{};
}

} // namespace

class TestTraceFrequency : public QObject {
    Q_OBJECT

private slots:
    void runningTimePerFrequency()
    {
        const TraceImport t = load(kTrace);
        QCOMPARE(t.eventCounts.at("cpu_frequency"), std::int64_t(4));
        const TraceStats s = computeStats(t, nullptr);
        QCOMPARE(s.cpus.size(), size_t(2));
        // CPU 0 at 500 MHz: [0, 100) + [300, 400) + [1000, 1200) = 100 + 100 + 200 us, 3 hits
        // (the change at 800 falls inside the idle entry and opens nothing); the truncated
        // enter at 1200 ends its trace. At 1000 MHz: [400, 700), one hit of 300 us.
        const std::vector<FrequencyResidency> &f0 = s.cpus[0].frequencies;
        QCOMPARE(f0.size(), size_t(2));
        QCOMPARE(f0[0].khz, std::int64_t(500000));
        QCOMPARE(f0[0].hits, std::int64_t(3));
        QCOMPARE(f0[0].timeNs, 400 * US);
        QCOMPARE(f0[0].minNs, 100 * US);
        QCOMPARE(f0[0].maxNs, 200 * US);
        QCOMPARE(f0[0].meanNs(), Ns(133333)); // 400000 / 3
        QCOMPARE(f0[1].khz, std::int64_t(1000000));
        QCOMPARE(f0[1].hits, std::int64_t(1));
        QCOMPARE(f0[1].timeNs, 300 * US);
        // CPU 1 at 800 MHz: [50, 200) + [600, 900) = 150 + 300 us.
        const std::vector<FrequencyResidency> &f1 = s.cpus[1].frequencies;
        QCOMPARE(f1.size(), size_t(1));
        QCOMPARE(f1[0].hits, std::int64_t(2));
        QCOMPARE(f1[0].timeNs, 450 * US);
        QCOMPARE(f1[0].minNs, 150 * US);
        QCOMPARE(f1[0].maxNs, 300 * US);
        // All CPUs, lowest frequency first: 500 (3 hits, 400 us), 800 (2, 450), 1000 (1, 300).
        const std::vector<FrequencyResidency> &all = s.total.frequencies;
        QCOMPARE(all.size(), size_t(3));
        QCOMPARE(all[0].khz, std::int64_t(500000));
        QCOMPARE(all[1].khz, std::int64_t(800000));
        QCOMPARE(all[1].timeNs, 450 * US);
        QCOMPARE(all[2].khz, std::int64_t(1000000));
        QCOMPARE(all[2].minNs, 300 * US);
    }

    void idleStatisticsUntouched()
    {
        // The frequency events are facts about cpu_id, logged elsewhere: CPU 0's own events are
        // its 5 cpu_idle lines, observed from 100 to 1200 us; CPU 1's are 2 cpu_idle + the irq.
        const TraceImport t = load(kTrace);
        QCOMPARE(t.cpus[0].events, std::int64_t(5));
        QCOMPARE(t.cpus[0].lastNs - t.cpus[0].firstNs, 1100 * US);
        QCOMPARE(t.cpus[1].events, std::int64_t(3));
        QCOMPARE(t.cpus[1].firstNs, Ns(1'000'200'000));
        QCOMPARE(t.cpus[0].frequencies.size(), size_t(3));
        QCOMPARE(t.cpus[1].frequencies.size(), size_t(1));
    }

    void malformedFrequencyIsWarned()
    {
        const TraceImport t = load("  sugov:0-11 [000] d..1. 1.000050: cpu_frequency: state=fast cpu_id=1\n"
                                   "  <idle>-0 [000] d..1. 1.000100: cpu_idle: state=1 cpu_id=0\n");
        QCOMPARE(t.warningCount(WarningKind::Malformed), std::int64_t(1));
        QCOMPARE(t.warnings.at(0).line, std::int64_t(1));
        QCOMPARE(t.warnings.at(0).field, std::string("state"));
        QVERIFY(t.cpus.at(0).frequencies.empty());
    }

    void csvJsonAndMarkdown()
    {
        const TraceImport t = load(kTrace);
        const TraceStats s = computeStats(t, nullptr);
        const StatsReport report{t, s};
        const std::string csv = formatStatsCsv(report);
        QVERIFY2(csv.find("\n0,freq_hits,500000,3\n") != std::string::npos, csv.c_str());
        QVERIFY(csv.find("\n0,freq_time_ns,500000,400000\n") != std::string::npos);
        QVERIFY(csv.find("\n0,freq_avg_ns,500000,133333\n") != std::string::npos);
        QVERIFY(csv.find("\nall,freq_max_ns,800000,300000\n") != std::string::npos);

        const QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(formatStatsJson(report))).object();
        const QJsonArray f1 = root.value(QStringLiteral("cpus"))
                                  .toArray()
                                  .at(1)
                                  .toObject()
                                  .value(QStringLiteral("frequencies"))
                                  .toArray();
        QCOMPARE(f1.size(), 1);
        QCOMPARE(f1.at(0).toObject().value(QStringLiteral("khz")).toInteger(), qint64(800000));
        QCOMPARE(f1.at(0).toObject().value(QStringLiteral("time_ns")).toInteger(), qint64(450000));

        // CPU 0 ran 700 us at a known frequency: 400 / 700 = 57.1% at 500 MHz.
        const std::string md = formatStatsMarkdown(report);
        QVERIFY2(md.find("| 0 | 500 | 3 | 0.400 | 57.1% | 100.0 | 133.3 | 200.0 |") != std::string::npos, md.c_str());
        // Without cpu_frequency events there is no section at all.
        const TraceImport plain = load("  <idle>-0 [000] d..1. 1.000100: cpu_idle: state=1 cpu_id=0\n"
                                       "  <idle>-0 [000] d..1. 1.000300: cpu_idle: state=4294967295 cpu_id=0\n");
        const TraceStats ps = computeStats(plain, nullptr);
        QVERIFY(formatStatsMarkdown({plain, ps}).find("CPU frequency") == std::string::npos);
    }

    void datAndReportAgree()
    {
        // One recording read two ways: the Juno .dat through libtracecmd and its trace-cmd
        // report text (tests/data/traces/SOURCES.md); hits agree, times to the report's us. `grep -c cpu_frequency` on the report: 16.
        IDLESCOPE_REQUIRE_OK(dat, importTrace(
                                      test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat")).toStdString()));
        IDLESCOPE_REQUIRE_OK(
            txt, importTrace(test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.report.txt")).toStdString()));
        QCOMPARE(dat.eventCounts.at("cpu_frequency"), std::int64_t(16));
        QCOMPARE(txt.eventCounts.at("cpu_frequency"), std::int64_t(16));
        const TraceStats a = computeStats(dat, nullptr);
        const TraceStats b = computeStats(txt, nullptr);
        QCOMPARE(a.total.frequencies.size(), size_t(3)); // 450, 800 and 850 MHz
        for (size_t i = 0; i < a.total.frequencies.size(); ++i) {
            QCOMPARE(a.total.frequencies[i].khz, b.total.frequencies[i].khz);
            QCOMPARE(a.total.frequencies[i].hits, b.total.frequencies[i].hits);
            // The report prints us, the .dat has ns: each stretch's two ends may round by < 1 us.
            const Ns slack = 2 * US * a.total.frequencies[i].hits;
            QVERIFY(std::abs(a.total.frequencies[i].timeNs - b.total.frequencies[i].timeNs) < slack);
        }
        // The report's first change sets CPUs 0, 3, 4, 5 to 850 MHz and a later one CPUs 1, 2
        // to 800 MHz: CPUs 1 and 2 never run at 850.
        for (const CpuStats &c : a.cpus)
            for (const FrequencyResidency &f : c.frequencies)
                QVERIFY(!((c.cpu == 1 || c.cpu == 2) && f.khz == 850000));
    }
};

QTEST_GUILESS_MAIN(TestTraceFrequency)
#include "tst_trace_frequency.moc"
