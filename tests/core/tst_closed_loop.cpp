// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Closed-loop workloads (core/experiments/closed_loop.h): durations, ops/s and
 * added latency per operation computed by hand on three requests and on a
 * two-message ping-pong, through the oracle on a two-state table, and the
 * parameter errors.
 */
#include "core/experiments/closed_loop.h"
#include "core/experiments/closed_loop_format.h"
#include "tests/governor_rig.h"

#include <QTest>

using namespace idlescope;

namespace {

/// WFI: exit 1 us, target 1 us; sleep: exit 100 us, target 150 us; HZ 250.
IdleStateTable table()
{
    return test::makeTable("two", 250,
                           {{"WFI", "", 1000, 1000, false, false}, {"sleep", "", 100000, 150000, false, false}});
}

ClosedLoopRun runOne(const Machine &m, const char *spec)
{
    const ClosedLoopSpec s = parseClosedLoopSpec(spec).value();
    Result<std::vector<ClosedLoopRun>> r = runClosedLoop(m, s, {"oracle"}, {}, 1, 1);
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return r->front();
}

} // namespace

class TestClosedLoop : public QObject {
    Q_OBJECT

private slots:
    void threeRequestsByHand()
    {
        // io:service_us=200,work_us=10,ops=3 (one request in flight), times in us from the start:
        //   request 1 completes at 200; the CPU idles [0, 200): the oracle enters sleep
        //   (150 <= 200), wakes at 200 + 100 (exit latency) = 300, handles until 310 and
        //   submits request 2 -> completes 510; idle [310, 510) in sleep, woke 610, done 620;
        //   request 3 completes 820, woke 920, done 930.
        // Duration 930 us, 3 / 930 us = 3225.8 ops/s, 100 us added to every operation.
        const ClosedLoopRun deep = runOne(Machine::uniform(table(), 1), "io:service_us=200,work_us=10,ops=3");
        QCOMPARE(deep.operations, 3);
        QCOMPARE(deep.durationNs, 930000);
        QVERIFY(qAbs(deep.opsPerSecond() - 3.0 / 930e-6) < 1e-6);
        QCOMPARE(deep.meanAddedNs, 100000.0);
        QCOMPARE(deep.p99AddedNs, 100000);
        QCOMPARE(deep.counters.cpus.front().states[1].usage, 3);
        QCOMPARE(deep.counters.cpus.front().wakeups, 3);
        QCOMPARE(deep.counters.cpus.front().latencyCostNs, 300000);
        // With sleep disabled the oracle stays in WFI: each wait costs 1 us, 3 x (200 + 1 + 10) = 633 us.
        IdleStateTable shallow = table();
        QVERIFY(shallow.setDisabled(1, true).ok());
        const ClosedLoopRun wfi = runOne(Machine::uniform(shallow, 1), "io:service_us=200,work_us=10,ops=3");
        QCOMPARE(wfi.durationNs, 633000);
        QCOMPARE(wfi.meanAddedNs, 1000.0);
        QCOMPARE(wfi.counters.cpus.front().states[0].usage, 3);
    }

    void aLabelWithABarOrACommaStaysInItsColumn()
    {
        // The table wrote labels as they were: "x|y,z" split the markdown row at '|' and the
        // CSV row at ','. The three requests of threeRequestsByHand (3 ops, 0.930 ms).
        ClosedLoopRun r = runOne(Machine::uniform(table(), 1), "io:service_us=200,work_us=10,ops=3");
        r.governor = "x|y,z";
        const Machine m = Machine::uniform(table(), 1);
        const ClosedLoopSpec spec = parseClosedLoopSpec("io:service_us=200,work_us=10,ops=3").value();
        const std::string md = formatClosedLoop(m, spec, {r}, experiments::CompareFormat::Markdown);
        QVERIFY2(md.find("\n| x\\|y,z | 3 | 0.930 |") != std::string::npos, md.c_str());
        const std::string csv = formatClosedLoop(m, spec, {r}, experiments::CompareFormat::Csv);
        QVERIFY2(csv.find("\n\"x|y,z\",3,0.930,") != std::string::npos, csv.c_str());
    }

    void queueDepthTwoByHand()
    {
        // iodepth=2, service 200, work 10, ops=3, sleep disabled (WFI, 1 us exit):
        //   both requests complete at 200; woke 201; handle #1 [201, 211) -> #3 completes 411;
        //   handle #2 [211, 221) (added 11 us: 1 us exit + 10 us behind #1), submits nothing
        //   (3 submitted); idle [221, 411), woke 412, handled [412, 422). Duration 422 us;
        //   added 1, 11, 1 -> mean 13/3 us, p99 (nearest rank, 3rd smallest) 11 us.
        IdleStateTable shallow = table();
        QVERIFY(shallow.setDisabled(1, true).ok());
        const ClosedLoopRun r = runOne(Machine::uniform(shallow, 1), "io:service_us=200,work_us=10,ops=3,iodepth=2");
        QCOMPARE(r.operations, 3);
        QCOMPARE(r.durationNs, 422000);
        QVERIFY(qAbs(r.meanAddedNs - 13000.0 / 3.0) < 1e-6);
        QCOMPARE(r.p99AddedNs, 11000);
        QCOMPARE(r.maxAddedNs, 11000);
    }

    void pingPongByHand()
    {
        // pingpong:work_us=10,peer_work_us=300,ops=2 on CPUs 0 (A) and 1 (B):
        //   A sends at 10; B idles [0, 10) in WFI, woke 11, replies at 311; A idles [10, 311):
        //   sleep (301 >= 150), woke 411 -> round trip added (11-10) + (411-311) = 101 us;
        //   A sends at 421; B idles [311, 421) (110 < 150: WFI), woke 422, replies 722;
        //   A idles [421, 722) in sleep, woke 822, done 832. Duration 832 us, 101 us per op.
        const ClosedLoopRun r = runOne(Machine::uniform(table(), 2), "pingpong:work_us=10,peer_work_us=300,ops=2");
        QCOMPARE(r.operations, 2);
        QCOMPARE(r.durationNs, 832000);
        QCOMPARE(r.meanAddedNs, 101000.0);
        QCOMPARE(r.p99AddedNs, 101000);
        QCOMPARE(int(r.counters.cpus.size()), 2);
        QCOMPARE(r.counters.cpus[0].states[1].usage, 2); // A in sleep twice
        QCOMPARE(r.counters.cpus[1].states[0].usage, 2); // B in WFI twice
        QCOMPARE(r.counters.total().entries, 4);
    }

    void badSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("field");
        QTest::newRow("unknown model") << "disk:work_us=1"
                                       << "disk";
        QTest::newRow("no work") << "io:service_us=100"
                                 << "work_us";
        QTest::newRow("no service") << "io:work_us=10"
                                    << "service_us";
        QTest::newRow("bad duration") << "io:service_us=1.2345,work_us=1"
                                      << "service_us";
        QTest::newRow("iodepth 0") << "io:service_us=1,work_us=1,iodepth=0"
                                   << "iodepth";
        QTest::newRow("pingpong iodepth") << "pingpong:work_us=1,iodepth=2"
                                          << "iodepth";
        QTest::newRow("unknown key") << "pingpong:work_us=1,service_us=3"
                                     << "service_us";
    }

    void badSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(QString, field);
        Result<ClosedLoopSpec> s = parseClosedLoopSpec(spec.toStdString());
        QVERIFY(!s.ok());
        QCOMPARE(QString::fromStdString(s.error().field), field);
        QCOMPARE(QString::fromStdString(s.error().file), u"closed-loop"_qs);
    }

    void pingPongNeedsTwoCpus()
    {
        const ClosedLoopSpec s = parseClosedLoopSpec("pingpong:work_us=5").value();
        Result<std::vector<ClosedLoopRun>> r = runClosedLoop(Machine::uniform(table(), 1), s, {"oracle"}, {}, 1, 1);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().field), u"machine"_qs);
    }
};

QTEST_GUILESS_MAIN(TestClosedLoop)
#include "tst_closed_loop.moc"
