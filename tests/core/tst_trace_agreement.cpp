// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Agreement with the kernel's choices (core/trace/trace_agreement.h): a tiny
 * recorded and simulated run written by hand, paired row by row, with the
 * share, the confusion matrix and the disagreements worked out in the
 * comments; and the recorded entries of a trace fragment keeping the stream
 * row of each entry (three entries of one span in three rows).
 */
#include "core/trace/recorded_entries.h"
#include "core/trace/trace_agreement.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_stream.h"

#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

void add(GovernorRun &run, std::int32_t row, int state, Ns startNs, Ns residencyNs = 1000)
{
    run.startNs.push_back(startNs);
    run.residencyNs.push_back(residencyNs);
    run.predictedNs.push_back(-1);
    run.sleepLengthNs.push_back(-1);
    run.span.push_back(row);
    run.state.push_back(static_cast<std::int8_t>(state));
    run.flags.push_back(0);
}

std::string line(double us, const char *event, const std::string &fields)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, "  task-1 [000] d..1. %.6f: %s: %s\n", us / 1e6, event, fields.c_str());
    return buf;
}

} // namespace

class TestTraceAgreement : public QObject {
    Q_OBJECT

private slots:
    void pairsRowByRow()
    {
        // Recorded (row: states): 0: [2], 1: [1, 2] (the tick split it), 2: [0], 3: [].
        // Simulated:              0: [2], 1: [1],                          2: [1], 3: [0].
        // Pairs: (2,2) yes, (1,1) yes, (0,1) no; row 1's second recorded entry and row 3's
        // simulated one have no partner. paired 3, agreed 2, share 2/3.
        GovernorRun rec;
        add(rec, 0, 2, 100);
        add(rec, 1, 1, 200);
        add(rec, 1, 2, 250);
        add(rec, 2, 0, 300, 7000);
        GovernorRun sim;
        add(sim, 0, 2, 10);
        add(sim, 1, 1, 20);
        add(sim, 2, 1, 30);
        add(sim, 3, 0, 40);
        std::vector<Disagreement> first;
        const CpuAgreement a = compareEntries(rec, sim, 4, 3, 1'000'000, 10, &first);
        QCOMPARE(a.cpu, 4);
        QCOMPARE(a.recordedEntries, std::int64_t(4));
        QCOMPARE(a.simulatedEntries, std::int64_t(4));
        QCOMPARE(a.paired, std::int64_t(3));
        QCOMPARE(a.agreed, std::int64_t(2));
        QCOMPARE(a.share(), 2.0 / 3.0);
        QCOMPARE(a.matrix[2][2], std::int64_t(1));
        QCOMPARE(a.matrix[1][1], std::int64_t(1));
        QCOMPARE(a.matrix[0][1], std::int64_t(1));
        QCOMPARE(a.matrix[1][2] + a.matrix[2][1] + a.matrix[0][0], std::int64_t(0));
        // The one disagreement: row 2, the recorded start 300 ns + origin 1 ms.
        QCOMPARE(first.size(), size_t(1));
        QCOMPARE(first[0].cpu, 4);
        QCOMPARE(first[0].row, 2);
        QCOMPARE(first[0].traceNs, Ns(1'000'300));
        QCOMPARE(first[0].residencyNs, Ns(7000));
        QCOMPARE(first[0].recordedState, 0);
        QCOMPARE(first[0].simulatedState, 1);
        // Kept up to the limit only.
        std::vector<Disagreement> none;
        compareEntries(rec, sim, 4, 3, 0, 0, &none);
        QVERIFY(none.empty());
        // Summed: two CPUs alike add up.
        CpuAgreement total;
        total.add(a);
        total.add(a);
        QCOMPARE(total.paired, std::int64_t(6));
        QCOMPARE(total.agreed, std::int64_t(4));
        QCOMPARE(total.matrix[0][1], std::int64_t(2));
        QCOMPARE(total.stateCount, 3);
    }

    void recordedEntriesKeepTheirRow()
    {
        // One span, 1000..2510 us, three entries each ended by an in-idle wakeup (irq, the
        // hrtimer b armed by the irq's handler, a remote wakeup): three rows, 0, 1, 2. The
        // first two end in the CPU staying idle (ENTRY_IN_IDLE_WAKE), the second at its own
        // timer (ENTRY_TIMER_WAKE), the last at a task's wakeup.
        const std::string hw = "function=hrtimer_wakeup";
        const std::string t =
            line(1000, "sched_switch",
                 "prev_comm=a prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120")
            + line(1010, "cpu_idle", "state=2 cpu_id=0") + line(1200, "irq_handler_entry", "irq=36 name=virtio")
            + line(1202, "cpu_idle", "state=4294967295 cpu_id=0")
            + line(1203, "hrtimer_start", "hrtimer=b " + hw + " expires=2000000 softexpires=2000000 mode=ABS")
            + line(1210, "cpu_idle", "state=1 cpu_id=0")
            + line(2000, "hrtimer_expire_entry", "hrtimer=b " + hw + " now=2000000")
            + line(2001, "cpu_idle", "state=4294967295 cpu_id=0") + line(2005, "cpu_idle", "state=0 cpu_id=0")
            + line(2502, "cpu_idle", "state=4294967295 cpu_id=0")
            + line(2510, "sched_switch",
                   "prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=5 next_prio=120");
        Result<TraceImport> r = importTraceText(t, "t.txt");
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        const CpuTrace &c = r->cpus[0];
        const StreamExport ex = toReplayStream(c);
        QCOMPARE(ex.stream.size(), size_t(3));
        IdleStateTable table;
        table.id = "t";
        for (int i = 0; i < 3; ++i) {
            IdleState s;
            s.name = "S" + std::to_string(i);
            s.exitLatencyNs = (i + 1) * 1000;
            s.targetResidencyNs = (i + 1) * 10000;
            table.states.push_back(s);
        }
        // On the trace clock less 1000 us: the enters at 10, 210 and 1005 us.
        const GovernorRun run = recordedEntries(c, ex.rows, table, false, 1'000'000);
        QCOMPARE(run.span, (std::vector<std::int32_t>{0, 1, 2}));
        QCOMPARE(run.state, (std::vector<std::int8_t>{2, 1, 0}));
        QCOMPARE(run.startNs, (std::vector<Ns>{10'000, 210'000, 1'005'000}));
        QCOMPARE(run.flags[0] & (ENTRY_IN_IDLE_WAKE | ENTRY_WOKEN_BY_WAKEUP | ENTRY_TIMER_WAKE), ENTRY_IN_IDLE_WAKE);
        QCOMPARE(run.flags[1] & (ENTRY_IN_IDLE_WAKE | ENTRY_WOKEN_BY_WAKEUP | ENTRY_TIMER_WAKE),
                 ENTRY_IN_IDLE_WAKE | ENTRY_TIMER_WAKE);
        QCOMPARE(run.flags[2] & (ENTRY_IN_IDLE_WAKE | ENTRY_WOKEN_BY_WAKEUP | ENTRY_TIMER_WAKE), ENTRY_WOKEN_BY_WAKEUP);
        QCOMPARE(run.summary.spans, std::int64_t(3));
        QCOMPARE(run.summary.entries, std::int64_t(3));
    }

    /// What cannot be compared is refused: a trace whose states the table lacks (not the
    /// machine's own table), and one whose every entry is in state 1 (no cpuidle driver:
    /// no governor's choices). Otherwise the oracle's share comes with the variant's.
    void agreementRefusesWhatItCannotCompare()
    {
        auto fragment = [](int a, int b) {
            return line(1000, "sched_switch",
                        "prev_comm=a prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 "
                        "next_prio=120")
                   + line(1010, "cpu_idle", "state=" + std::to_string(a) + " cpu_id=0")
                   + line(1200, "irq_handler_entry", "irq=36 name=virtio")
                   + line(1202, "cpu_idle", "state=4294967295 cpu_id=0")
                   + line(1210, "cpu_idle", "state=" + std::to_string(b) + " cpu_id=0")
                   + line(2502, "cpu_idle", "state=4294967295 cpu_id=0")
                   + line(2510, "sched_switch",
                          "prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=5 "
                          "next_prio=120");
        };
        IdleStateTable two;
        two.id = "two";
        two.tickHz = 250;
        two.states = {{.name = "POLL", .polling = true},
                      {.name = "C1", .exitLatencyNs = 2000, .targetResidencyNs = 2000}};
        IdleStateTable three = two;
        three.id = "three";
        three.states.push_back({.name = "C6", .exitLatencyNs = 100000, .targetResidencyNs = 400000});

        Result<TraceImport> deep = importTraceText(fragment(2, 0), "deep.txt");
        QVERIFY(deep.ok());
        Result<TraceAgreement> a = traceAgreement(*deep, Machine::uniform(two, 1), "menu-6.14", {});
        QVERIFY(!a.ok());
        QCOMPARE(a.error().field, std::string("machine"));
        QVERIFY2(a.error().message.find("not the machine's own table") != std::string::npos, a.error().message.c_str());

        Result<TraceImport> driverless = importTraceText(fragment(1, 1), "vm.txt");
        QVERIFY(driverless.ok());
        Result<TraceAgreement> b = traceAgreement(*driverless, Machine::uniform(three, 1), "menu-6.14", {});
        QVERIFY(!b.ok());
        QCOMPARE(b.error().field, std::string("trace"));

        // Two rows, one recorded entry each (states 2 and 0): both paired for the oracle too.
        Result<TraceAgreement> c = traceAgreement(*deep, Machine::uniform(three, 1), "menu-6.14", {});
        QVERIFY2(c.ok(), c ? "" : c.error().toString().c_str());
        QCOMPARE(c->total.recordedEntries, std::int64_t(2));
        QCOMPARE(c->oracle.recordedEntries, std::int64_t(2));
        QVERIFY(c->oracle.paired > 0);
        QVERIFY(formatAgreementText(*c).find("The oracle, which knows every wakeup, agrees on") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTraceAgreement)
#include "tst_trace_agreement.moc"
