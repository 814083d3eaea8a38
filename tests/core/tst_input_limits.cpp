// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Inputs that used to crash, hang, exhaust memory or be accepted wrongly
 * (issue 15, items 5-10 and 14): overflowing unit conversions, a 6000-deep
 * mix(, a grid of runs past int, a generated stream past the ns clock,
 * FIFOs and devices as files, endless lines, 200 MB fields in messages,
 * and keys of the wrong kind. Each is a clear error naming the field.
 */
#include "core/common/input_file.h"
#include "core/experiments/comparison.h"
#include "core/formats/line_reader.h"
#include "core/formats/stream_csv.h"
#include "core/io/power_json.h"
#include "core/io/table_json.h"
#include "core/targets/cpupower_import.h"
#include "core/targets/sysfs_cpuidle.h"
#include "core/trace/table_proposal.h"
#include "core/workloads/workload_spec.h"

#include "tests/test_files.h"
#include "tests/test_paths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <zlib.h>

using namespace idlescope;

namespace {

using idlescope::test::writeFile;

std::string repro(const char *name)
{
    return (test::testDataDir() + QStringLiteral("/reliability/") + QString::fromLatin1(name)).toStdString();
}

std::string slurp(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

experiments::CompareOptions oneStateComparison()
{
    experiments::CompareOptions o;
    o.table = parseTableJson(R"({"id":"t","states":[{"name":"C1","exit_latency_ns":1,"target_residency_ns":1}]})", "t")
                  .value();
    return o;
}

bool contains(const std::string &s, const char *part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

class TestInputLimits : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

private slots:
    // Item 7: 2305843009213694852 us * 1000 wraps (mod 2^64) to exactly 900,000 ns.
    void cpupowerResidencyOverflowIsRefused()
    {
        const Result<CpupowerIdleInfo> bad = readCpupowerIdleInfo(repro("cpupower-residency-overflow.txt"));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().field, std::string("Residency"));
        QCOMPARE(bad.error().line, std::int64_t{28}); // C3's Residency line (grep -n)
        QVERIFY2(contains(bad.error().message, "does not fit in 64-bit nanoseconds"), bad.error().message.c_str());
        const Result<CpupowerIdleInfo> good = readCpupowerIdleInfo(repro("cpupower-residency-900.txt"));
        QVERIFY(good.ok());
        QCOMPARE(good->table[3].targetResidencyNs, Ns{900000});
    }

    void sysfsOverflowAndFifoAreRefused()
    {
        const QString root = m_tmp.filePath(QStringLiteral("sys"));
        writeFile(root + "/cpuidle/current_driver", "intel_idle\n");
        writeFile(root + "/cpu0/cpuidle/state0/name", "C1\n");
        writeFile(root + "/cpu0/cpuidle/state0/latency", "2\n");
        writeFile(root + "/cpu0/cpuidle/state0/residency", "9223372036854776\n"); // * 1000 > INT64_MAX
        Result<SysfsCpuidle> s = readSysfsCpuidle(root.toStdString(), 0);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().field, std::string("residency"));
        QVERIFY2(contains(s.error().message, "does not fit"), s.error().message.c_str());

        // A FIFO in a copied tree: open() would wait for a writer for ever.
        QFile::remove(root + "/cpu0/cpuidle/state0/residency");
        QVERIFY(::mkfifo((root + "/cpu0/cpuidle/state0/residency").toLocal8Bit().constData(), 0600) == 0);
        s = readSysfsCpuidle(root.toStdString(), 0);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().field, std::string("residency"));
        QVERIFY2(contains(s.error().message, "FIFO"), s.error().message.c_str());
    }

    void fifoAndDevicesAreNotRead()
    {
        const std::string fifo = m_tmp.filePath(QStringLiteral("t.json")).toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        const std::string link = m_tmp.filePath(QStringLiteral("zero-link.json")).toStdString();
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), QString::fromStdString(link)));
        struct Case {
            std::string path;
            const char *what;
        };
        for (const Case &c : {Case{fifo, "FIFO"}, Case{"/dev/zero", "device"}, Case{link, "device"}}) {
            const Result<IdleStateTable> t = readTableJson(c.path);
            QVERIFY(!t.ok());
            QVERIFY2(contains(t.error().message, c.what), t.error().toString().c_str());
            const Result<CpupowerIdleInfo> cp = readCpupowerIdleInfo(c.path);
            QVERIFY(!cp.ok());
            QVERIFY2(contains(cp.error().message, c.what), cp.error().toString().c_str());
            LineReader r(c.path);
            QVERIFY(!r.ok());
            QVERIFY2(contains(r.error().message, c.what), r.error().toString().c_str());
            // A session's table file is read again for its power data: a FIFO there held a
            // thread in open() for good (a hostile tester's session, Dec 6 2026).
            const Result<PowerModel> power = readTablePower(c.path, IdleStateTable{});
            QVERIFY(!power.ok());
            QVERIFY2(contains(power.error().message, c.what), power.error().toString().c_str());
        }
        // A FIFO named like the machine description beside a trace is no description
        // (machineBesideTrace() read it with an ifstream, blocked until a writer came).
        const std::string besideFifo = m_tmp.filePath(QStringLiteral("run.machine.txt")).toStdString();
        QVERIFY(::mkfifo(besideFifo.c_str(), 0600) == 0);
        QCOMPARE(trace::machineBesideTrace(m_tmp.filePath(QStringLiteral("run-1.dat")).toStdString()).path,
                 std::string());
        // Caps by kind: a 5 KiB "sysfs attribute" is over its 4 KiB.
        const std::string big = m_tmp.filePath(QStringLiteral("big")).toStdString();
        writeFile(QString::fromStdString(big), QByteArray(5000, '1'));
        const Result<std::string> capped = readInputFile(big, 4096, "a sysfs attribute");
        QVERIFY(!capped.ok());
        QCOMPARE(capped.error().message, std::string("too large for a sysfs attribute (over 4 KiB)"));
        QCOMPARE(readInputFile(big, 5000, "x").value().size(), size_t{5000});
    }

    // Item 10: 3 MiB without a newline, gzip'd: an error naming line 2, not 3 MiB held.
    void endlessLineIsAnError()
    {
        const std::string p = m_tmp.filePath(QStringLiteral("bomb.gz")).toStdString();
        gzFile gz = gzopen(p.c_str(), "wb");
        QVERIFY(gz);
        gzwrite(gz, "header\n", 7);
        const std::string chunk(1 << 16, 'a');
        for (int i = 0; i < 48; ++i)
            gzwrite(gz, chunk.data(), static_cast<unsigned>(chunk.size()));
        gzclose(gz);
        LineReader r(p);
        std::string_view line;
        QVERIFY(r.next(line));
        QCOMPARE(line, std::string_view("header"));
        QVERIFY(!r.next(line));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().line, std::int64_t{2});
        QVERIFY2(contains(r.error().message, "longer than 1 MiB"), r.error().message.c_str());
    }

    void badFieldIsQuotedShort()
    {
        const std::string text = "gap_ns,timer_ns,wake_ns,latency_req_ns\n" + std::string(100000, 'x') + ",1,1,-1\n";
        const Result<IdleStream> s = parseStreamCsv(text, "long.csv");
        QVERIFY(!s.ok());
        QCOMPARE(s.error().field, std::string("gap_ns"));
        // 80 characters of the field, then its size.
        QVERIFY2(contains(s.error().message, "... (100000 bytes)"), s.error().message.substr(0, 200).c_str());
        QVERIFY(s.error().message.size() < 200);
    }

    void duplicateColumnIsRefused()
    {
        const Result<IdleStream> s = readStreamCsv(repro("stream-duplicate-column.csv"));
        QVERIFY(!s.ok());
        QCOMPARE(s.error().line, std::int64_t{1});
        QCOMPARE(s.error().field, std::string("gap_ns"));
        QCOMPARE(s.error().message, std::string("the column is named twice (fields 1 and 2)"));
    }

    void tableKeysOfTheWrongKind()
    {
        const Result<IdleStateTable> bom = readTableJson(repro("table-with-bom.json"));
        QVERIFY2(bom.ok(), bom.ok() ? "" : bom.error().toString().c_str());
        QVERIFY(bom->count() >= 1);
        const Result<IdleStateTable> polling = readTableJson(repro("table-polling-string.json"));
        QVERIFY(!polling.ok());
        QCOMPARE(polling.error().field, std::string("polling"));
        QCOMPARE(polling.error().message, std::string("state 0: must be true or false"));
        const Result<IdleStateTable> name =
            parseTableJson(R"({"id":"t","states":[{"name":1234,"exit_latency_ns":1,"target_residency_ns":1}]})",
                           "n.json");
        QVERIFY(!name.ok());
        QCOMPARE(name.error().field, std::string("name"));
        QCOMPARE(name.error().message, std::string("state 0: must be a string"));
    }

    // Item 6: 6000 nested mix( overflowed the stack.
    void deepMixIsBounded()
    {
        const std::string deep = slurp(repro("deep-mix-6000.spec"));
        QVERIFY(deep.size() > 40000);
        const Result<workloads::WorkloadSpec> s = workloads::parseWorkloadSpec(deep);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().field, std::string("workload"));
        // The 65th "mix(" starts at column 64 * 4 + 1.
        QCOMPARE(s.error().message, std::string("column 257: mix(...) nested more than 64 deep"));
        // 64 levels are fine.
        std::string ok;
        for (int i = 0; i < workloads::MAX_MIX_DEPTH; ++i)
            ok += "mix(io|";
        ok += "io" + std::string(workloads::MAX_MIX_DEPTH, ')');
        QVERIFY(workloads::parseWorkloadSpec(ok).ok());
    }

    // Item 5: 1000 points x 4295 governors x 1000 iterations = 4,295,000,000 runs,
    // past INT_MAX (the run count wrapped and the vector was written past its end).
    void hugeGridIsRefused()
    {
        experiments::CompareOptions o = oneStateComparison();
        o.workload = workloads::parseWorkloadSpec("periodic:interval_us=1..1000:1000").value();
        const std::string list = slurp(repro("governors-4295.txt"));
        for (size_t b = 0, c; b < list.size(); b = c + 1) {
            c = list.find_first_of(",\n", b);
            if (c == std::string::npos)
                c = list.size();
            if (c > b)
                o.governors.push_back(list.substr(b, c - b));
        }
        QCOMPARE(o.governors.size(), size_t{4295});
        o.iterations = 1000;
        o.spans = 1;
        const Result<experiments::CompareResult> r = experiments::runComparison(o);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().field, std::string("runs"));
        QCOMPARE(r.error().message, std::string("1000 points x 4295 governors x 1000 iterations = 4295000000 runs; "
                                                "at most 1000000 (split the comparison)"));
    }

    // Item 8: 9,300,000 spans of 1000 s each pass the 3e9 s stream limit at span 3,000,001.
    void generatedStreamHasTheStreamLimit()
    {
        experiments::CompareOptions o = oneStateComparison();
        o.workload = workloads::parseWorkloadSpec("duty:hz=0.001,busy_pct=0").value();
        o.governors = {"menu-6.14"};
        o.iterations = 1;
        o.spans = 3000001;
        const Result<experiments::CompareResult> r = experiments::runComparison(o);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().field, std::string("spans")); // the CLI prints it as --spans
        QVERIFY2(contains(r.error().message, "by span 3000001"), r.error().message.c_str());
        // Exactly 3e9 s is allowed; one span more is not (the index of span 3,000,001).
        const IdleStream at = workloads::generateStream(o.workload, 0, 1, 3000000);
        QCOMPARE(firstSpanPastStreamLimit(at), std::int64_t{-1});
        const IdleStream past = workloads::generateStream(o.workload, 0, 1, 3000001);
        QCOMPARE(firstSpanPastStreamLimit(past), std::int64_t{3000000});
    }
};

QTEST_GUILESS_MAIN(TestInputLimits)
#include "tst_input_limits.moc"
