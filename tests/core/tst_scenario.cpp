// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * core/scenario: a scenario's workload source resolved into one CPU's stream,
 * and the trace CPU picked when none is named. The expected values are worked
 * out by hand from the generator's definition (generators_basic.cpp: a timer
 * kind's span is run_us busy, then interval_us idle ended by its timer) and
 * from small hand-written ftrace texts (one stream row per complete idle span).
 * A trace on a machine carries the scenario's latency limit on every CPU.
 */
#include "core/scenario/scenario_closed_loop.h"
#include "core/scenario/scenario_machine.h"
#include "core/scenario/scenario_stream.h"
#include "core/scenario/scenario_trace.h"
#include "core/stream/latency_limit.h"
#include "core/trace/trace_import.h"

#include "tests/ftrace_lines.h"
#include "tests/governor_rig.h"

#include <QTest>

#include <string>
#include <vector>

using namespace idlescope;
using namespace idlescope::scenario;

namespace {

/// One complete idle span of @p cpu from @p us: task out, idle entry, exit, task in (110 us in all).
std::string idleSpan(int cpu, double us)
{
    return test::switchToIdle(cpu, us) + test::idleEnter(cpu, us + 10, 1) + test::idleExit(cpu, us + 100)
           + test::switchFromIdle(cpu, us + 110);
}

WorkloadSource spec(const char *text, std::int64_t spans, std::int64_t seed = 1)
{
    WorkloadSource w;
    w.kind = WorkloadKind::Spec;
    w.text = text;
    w.spans = spans;
    w.seed = seed;
    return w;
}

} // namespace

class TestScenario : public QObject {
    Q_OBJECT

private slots:
    void mostRowsLowestOnATie()
    {
        // CPU 1 and 2 both have 5 rows: the first of them in CPU order, 1.
        const std::vector<CpuRows> some{{0, 3}, {1, 5}, {2, 5}};
        QCOMPARE(cpuWithMostRows(some), 1);
        // No rows anywhere: no CPU.
        const std::vector<CpuRows> none{{0, 0}, {1, 0}};
        QCOMPARE(cpuWithMostRows(none), -1);
        QCOMPARE(cpuWithMostRows({}), -1);
    }

    void traceCpuPickedByRows()
    {
        // CPU 0 has one complete idle span, CPU 1 two: one row each, so CPU 1 (2 rows) is picked.
        const std::string text = idleSpan(0, 1000) + idleSpan(1, 1000) + idleSpan(1, 2000);
        Result<trace::TraceImport> t = trace::importTraceText(text, "two.txt");
        QVERIFY2(t, t ? "" : t.error().toString().c_str());
        Result<TraceCpuExport> best = exportTraceCpu(*t, TRACE_BEST_CPU, "two.txt");
        QVERIFY2(best, best ? "" : best.error().toString().c_str());
        QCOMPARE(best->cpu, 1);
        QCOMPARE(best->exported.stream.size(), std::size_t(2));
        // Named, CPU 0 replays its one span.
        Result<TraceCpuExport> zero = exportTraceCpu(*t, 0, "two.txt");
        QVERIFY(zero);
        QCOMPARE(zero->cpu, 0);
        QCOMPARE(zero->exported.stream.size(), std::size_t(1));
        // A CPU the trace does not have: the file, the field and the CPUs it has.
        Result<TraceCpuExport> nine = exportTraceCpu(*t, 9, "two.txt");
        QVERIFY(!nine);
        QCOMPARE(nine.error().file, std::string("two.txt"));
        QCOMPARE(nine.error().field, std::string("cpu"));
        QCOMPARE(nine.error().message, std::string("CPU 9 is not in the trace (it has CPUs 0..1)"));
    }

    void traceTieGoesToTheLowestCpu()
    {
        // One span on each of CPUs 0 and 1, CPU 1's written first: CPU 0 still wins the tie.
        const std::string text = idleSpan(1, 1000) + idleSpan(0, 1500);
        Result<trace::TraceImport> t = trace::importTraceText(text, "tie.txt");
        QVERIFY2(t, t ? "" : t.error().toString().c_str());
        Result<TraceCpuExport> best = exportTraceCpu(*t, TRACE_BEST_CPU, "tie.txt");
        QVERIFY(best);
        QCOMPARE(best->cpu, 0);
    }

    void generatedSpansByHand()
    {
        // A timer wake every 100 us after 5 us of work, no jitter: every span is gap 5000 ns,
        // timer 100000 ns, wake 100000 ns, no latency limit, whatever the seed (slack_us=0: a
        // sleeper with no hrtimer slack, so the timer is the requested 100 us).
        Result<IdleStream> s = generatedStream(spec("periodic:kind=timer,interval_us=100,run_us=5,slack_us=0", 3, 42));
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        QCOMPARE(s->size(), std::size_t(3));
        for (const IdleSpan &x : *s) {
            QCOMPARE(x.gapNs, Ns(5000));
            QCOMPARE(x.timerNs, Ns(100000));
            QCOMPARE(x.wakeNs, Ns(100000));
            QCOMPARE(x.latencyReqNs, NO_LATENCY_REQ);
        }
        // workloadStream() of a Spec source is the same stream.
        Result<IdleStream> again =
            workloadStream(spec("periodic:kind=timer,interval_us=100,run_us=5,slack_us=0", 3, 42));
        QVERIFY(again);
        QCOMPARE(again->size(), std::size_t(3));
        QCOMPARE((*again)[2].wakeNs, Ns(100000));
    }

    void badSourcesNameTheirField()
    {
        Result<IdleStream> sweep = generatedStream(spec("periodic:interval_us=30..60:2", 10));
        QVERIFY(!sweep);
        QCOMPARE(sweep.error().field, std::string("workload"));
        QCOMPARE(sweep.error().message, std::string("sweeps 2 points of interval_us; give it one value (one stream)"));
        Result<IdleStream> spans = generatedStream(spec("periodic", 0));
        QVERIFY(!spans);
        QCOMPARE(spans.error().field, std::string("spans"));
        QCOMPARE(spans.error().message, std::string("must be 1..10000000"));
        QVERIFY(generatedStream(spec("periodic", MAX_SPANS + 1)).error().field == "spans");
        Result<IdleStream> seed = generatedStream(spec("periodic", 10, -1));
        QVERIFY(!seed);
        QCOMPARE(seed.error().field, std::string("seed"));
        WorkloadSource loop;
        loop.kind = WorkloadKind::ClosedLoop;
        loop.text = "io:service_us=50,work_us=10";
        QVERIFY(!workloadStream(loop));
    }

    void traceMachineCarriesTheLatencyLimit()
    {
        // CPU 0: one span, CPU 1: two. On a two-CPU machine with a 10 us limit, every row of
        // every CPU carries 10000 ns (the CPUs dock once replayed them without it: bd20af8).
        const std::string text = idleSpan(0, 1000) + idleSpan(1, 1000) + idleSpan(1, 2000);
        Result<trace::TraceImport> t = trace::importTraceText(text, "two.txt");
        QVERIFY(t);
        IdleStateTable table;
        table.id = "t";
        table.states.resize(2);
        table.states[1].exitLatencyNs = 2000;
        table.states[1].targetResidencyNs = 20000;
        Scenario s;
        s.machine = Machine::uniform(table, 2);
        s.workload.kind = WorkloadKind::Trace;
        s.workload.path = "two.txt";
        s.latencyLimitNs = 10000;
        s.governors.push_back({"menu-6.14", "", {}});
        s.governors.push_back({"menu-6.14", "m2", {{"INTERVALS", 4}}});
        Result<MachineCompareOptions> o = traceMachineComparison(s, *t, std::nullopt, false);
        QVERIFY2(o, o ? "" : o.error().toString().c_str());
        QCOMPARE(o->workload.label, std::string("trace:two.txt"));
        QCOMPARE(o->workload.cpus.size(), std::size_t(2));
        QCOMPARE(o->workload.cpus[0].stream.size(), std::size_t(1));
        QCOMPARE(o->workload.cpus[1].stream.size(), std::size_t(2));
        for (const CpuStream &c : o->workload.cpus)
            for (const IdleSpan &x : c.stream)
                QCOMPARE(x.latencyReqNs, Ns(10000));
        // Each instance with its own settings, and no recorded run unless asked for.
        QCOMPARE(o->governors, (std::vector<std::string>{"menu-6.14", "menu-6.14"}));
        QCOMPARE(o->tunables.size(), std::size_t(2));
        QVERIFY(o->tunables[0].empty());
        QCOMPARE(o->tunables[1].front().second, std::int64_t(4));
        QVERIFY(!o->recorded);
        // Without a limit the trace's own column stays (the export has none: -1).
        s.latencyLimitNs = -1;
        Result<MachineWorkload> w = traceMachineWorkload(s, *t);
        QVERIFY(w);
        QCOMPARE(w->cpus[1].stream[1].latencyReqNs, NO_LATENCY_REQ);
        // A machine of one CPU cannot replay a trace with events on CPU 1.
        s.machine = Machine::uniform(table, 1);
        Result<MachineWorkload> small = traceMachineWorkload(s, *t);
        QVERIFY(!small);
        QCOMPARE(small.error().field, std::string("machine"));
        QCOMPARE(small.error().message,
                 std::string("the trace has events on CPU 1, machine " + s.machine->id + " has CPUs 0..0"));
    }

    void latencyLimitOnEverySpan()
    {
        IdleStream s(3);
        s[1].latencyReqNs = 7;
        applyLatencyLimit(s, -1); // none: the stream's own column stays
        QCOMPARE(s[0].latencyReqNs, NO_LATENCY_REQ);
        QCOMPARE(s[1].latencyReqNs, Ns(7));
        applyLatencyLimit(s, 2000);
        for (const IdleSpan &x : s)
            QCOMPARE(x.latencyReqNs, Ns(2000));
    }

    void closedLoopRunsEveryInstanceByName()
    {
        // tst_closed_loop's three requests (io:service_us=200,work_us=10,ops=3; WFI 1/1 us,
        // sleep 100/150 us): the oracle sleeps every 200 us wait and pays 100 us, 930 us in all,
        // under either instance's name; the second instance runs under its label.
        Scenario s;
        s.workload.kind = WorkloadKind::ClosedLoop;
        s.workload.text = "io:service_us=200,work_us=10,ops=3";
        s.governors = {{"oracle", "", {}}, {"oracle", "B", {}}};
        const Result<ClosedLoopSpec> loop = closedLoopOf(s);
        QVERIFY(loop.ok());
        const Machine m = Machine::uniform(test::makeTable("two", 250,
                                                           {{"WFI", "", 1000, 1000, false, false},
                                                            {"sleep", "", 100000, 150000, false, false}}),
                                           loop->cpus());
        const Result<std::vector<ClosedLoopRun>> runs = runClosedLoopScenario(s, *loop, m, 1);
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(2));
        QCOMPARE((*runs)[0].governor, std::string("oracle"));
        QCOMPARE((*runs)[1].governor, std::string("B"));
        QCOMPARE((*runs)[0].durationNs, Ns(930000));
        QCOMPARE((*runs)[1].durationNs, Ns(930000));
        // Another kind, or a negative seed, is no closed loop to run.
        Scenario spec = s;
        spec.workload.kind = WorkloadKind::Spec;
        QCOMPARE(closedLoopOf(spec).error().field, std::string("workload"));
        s.workload.seed = -1;
        QCOMPARE(closedLoopOf(s).error().field, std::string("seed"));
    }
};

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
