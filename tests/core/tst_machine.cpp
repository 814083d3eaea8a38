// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A machine of CPUs (core/machine): per-CPU replays with a governor instance
 * each, their sum as the sysfs files summed, the CPU x state matrices, the
 * cluster view and energy, checked against hand computations on a two-state
 * table, and the one-CPU machine against the reference replay itself.
 */
#include "core/energy/energy.h"
#include "core/energy/idlestat_energy_model.h"
#include "core/experiments/synthetic_machine.h"
#include "core/machine/cluster_view.h"
#include "core/machine/machine_replay.h"
#include "core/machine/state_matrices.h"
#include "core/replay/governor_factory.h"
#include "core/targets/builtin_machines.h"
#include "core/targets/builtin_targets.h"
#include "core/workloads/io_interrupts.h"
#include "core/workloads/workload_spec.h"
#include "tests/governor_rig.h"

#include <QTest>

#include <array>
#include <cmath>
#include <initializer_list>
#include <string>

using namespace idlescope;

namespace {

/// WFI: exit 1 us, target 1 us; sleep: exit 100 us, target 500 us; HZ 250.
IdleStateTable twoStates()
{
    return test::makeTable("two", 250,
                           {{"WFI", "", 1000, 1000, false, false}, {"sleep", "", 100000, 500000, false, false}});
}

IdleSpan span(Ns gap, Ns timer, Ns wake)
{
    IdleSpan s;
    s.gapNs = gap;
    s.timerNs = timer;
    s.wakeNs = wake;
    return s;
}

/*
 * The hand example, replayed through the oracle (it enters the deepest state
 * whose target residency fits the time to the wakeup and stops the tick, so
 * every entry lasts until the wakeup; residency = wake + exit latency):
 *   CPU 0 span 1: gap 10 us, timer = wake = 200 us -> WFI (sleep's 500 us does not fit),
 *                 residency 201 us, a timer wakeup; CPU 0 runs [10, 211) us in WFI.
 *   CPU 0 span 2: gap 10 us, timer 2 ms, wake 800 us -> sleep, residency 900 us,
 *                 a non-timer wakeup costing sleep's 100 us exit latency; [221, 1121) us.
 *   CPU 1 span 1: gap 0, timer = wake = 600 us -> sleep, residency 700 us; [0, 700) us.
 * No entry is above or below (200 < 500 - 1 and 900 >= 500).
 */
MachineWorkload handWorkload()
{
    MachineWorkload w;
    w.label = "hand";
    w.cpus.push_back({0, {span(10000, 200000, 200000), span(10000, 2000000, 800000)}, 0, {}});
    w.cpus.push_back({1, {span(0, 600000, 600000)}, 0, {}});
    w.cpus.push_back({2, {}, 0, "no complete idle span"});
    return w;
}

/// The submitter of completionInterruptsOnCpu0ByHand: a custom device of exactly 300 us, 10 us of
/// CPU per I/O, no other timer; its controller's one interrupt goes to CPU 0, 5 us a handler.
constexpr const char *kIoOnCpu0 =
    "io:device=custom,base_us=300,tail_us=0,submit_us=10,next_timer_us=0,irq=cpu0,hardirq_us=5";

/// @p workload on CPU 1 of a two-CPU machine of the two-state table (@p spans spans), CPU 0 running
/// the idle system with one timer 1000 us away (the cap: the 100 s mean makes every draw longer).
MachineWorkload onCpu1WithIdleCpu0(const Machine &m, const std::string &workload, std::size_t spans)
{
    SyntheticMachineSpec spec;
    spec.workload = workloads::parseWorkloadSpec(workload).value();
    spec.background = workloads::parseWorkloadSpec(
                          "idle:timer_us=100000000,max_idle_us=1000,irq_us=0,callback_us=0,rcu_ticks=0,run_us=0")
                          .value();
    spec.workloadCpus = {1};
    spec.spans = spans;
    return syntheticMachineWorkload(m, spec).value();
}

/// Compares @p s with the (gap, timer, wake) triples of @p expected, in us.
void compareSpans(const IdleStream &s, std::initializer_list<std::array<Ns, 3>> expectedUs)
{
    QCOMPARE(s.size(), expectedUs.size());
    size_t i = 0;
    for (const std::array<Ns, 3> &e : expectedUs) {
        QCOMPARE(s[i].gapNs, e[0] * 1000);
        QCOMPARE(s[i].timerNs, e[1] * 1000);
        QCOMPARE(s[i].wakeNs, e[2] * 1000);
        ++i;
    }
}

/// Compares the need_resched of each row of @p s with @p expected.
void compareNeedResched(const IdleStream &s, std::initializer_list<bool> expected)
{
    QCOMPARE(s.size(), expected.size());
    size_t i = 0;
    for (bool e : expected)
        QCOMPARE(s[i++].needResched, e);
}

/// Compares @p run's usage and time (us) of each state with @p expected, and its wakeups.
void compareUsageAndTime(const CpuRun &run, std::initializer_list<std::array<Ns, 2>> expected, std::int64_t wakeups)
{
    size_t i = 0;
    for (const std::array<Ns, 2> &e : expected) {
        QCOMPARE(run.states[i].usage, e[0]);
        QCOMPARE(run.states[i].timeNs, e[1] * 1000);
        ++i;
    }
    QCOMPARE(run.wakeups, wakeups);
}

MachineReplayOptions oracleOnly(bool intervals = false)
{
    MachineReplayOptions o;
    o.governors = {"oracle"};
    o.keepIntervals = intervals;
    return o;
}

} // namespace

class TestMachine : public QObject {
    Q_OBJECT

private slots:
    void perCpuCountsSumByHand()
    {
        const Machine m = Machine::uniform(twoStates(), 3);
        Result<std::vector<MachineRun>> r = replayMachine(m, handWorkload(), oracleOnly());
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(int(r->size()), 1);
        const MachineRun &run = r->front();
        QCOMPARE(int(run.cpus.size()), 2);
        QCOMPARE(int(run.skipped.size()), 1);
        QCOMPARE(run.skipped[0].cpu, 2);
        QCOMPARE(QString::fromStdString(run.skipped[0].reason), u"no complete idle span"_qs);

        const CpuRun &c0 = run.cpus[0];
        QCOMPARE(c0.cpu, 0);
        QCOMPARE(c0.states[0].usage, 1);
        QCOMPARE(c0.states[0].timeNs, 201000);
        QCOMPARE(c0.states[1].usage, 1);
        QCOMPARE(c0.states[1].timeNs, 900000);
        QCOMPARE(c0.wakeups, 1);
        QCOMPARE(c0.latencyCostNs, 100000);
        QCOMPARE(c0.durationNs, 10000 + 201000 + 10000 + 900000);
        const CpuRun &c1 = run.cpus[1];
        QCOMPARE(c1.states[0].usage, 0);
        QCOMPARE(c1.states[1].usage, 1);
        QCOMPARE(c1.states[1].timeNs, 700000);
        QCOMPARE(c1.wakeups, 0);

        // Summed as the sysfs files: WFI 1 entry, 201 us; sleep 1 + 1 entries, 900 + 700 us.
        const CpuRun t = run.total();
        QCOMPARE(t.cpu, -1);
        QCOMPARE(t.entries, 3);
        QCOMPARE(t.spans, 3);
        QCOMPARE(t.states[0].usage, 1);
        QCOMPARE(t.states[0].timeNs, 201000);
        QCOMPARE(t.states[1].usage, 2);
        QCOMPARE(t.states[1].timeNs, 1600000);
        QCOMPARE(t.above() + t.below(), 0);
        QCOMPARE(t.wakeups, 1);
        QCOMPARE(t.latencyCostNs, 100000);
        QCOMPARE(t.durationNs, 1121000); // the longer CPU's

        // The same numbers as CPU x state matrices; their column sums are the sum above.
        const StateMatrices mx = stateMatrices(run, 2);
        QCOMPARE(mx.usage.rows(), 2);
        QCOMPARE(mx.usage(0, 0), 1);
        QCOMPARE(mx.usage(1, 1), 1);
        QCOMPARE(mx.usage.colwise().sum()(1), 2);
        QCOMPARE(mx.timeNs.colwise().sum()(1), 1600000);
        QCOMPARE(mx.rowOf(1), 1);
        QCOMPARE(mx.rowOf(2), -1);
    }

    void missesPerCpuSumByHand()
    {
        // Two CPUs, two spans each, every one timer-ended at 300 us with a 50 us PM QoS
        // limit, on the two-state table with sleep's target lowered to 250 us: the limit
        // keeps the oracle in WFI (sleep's 100 us exit latency is over it), residency
        // 301 us, and since 301 - 1 = 300 >= 250 (sleep's target) every entry is "below".
        IdleStateTable t = twoStates();
        QVERIFY(t.setTargetResidencyNs(1, 250000).ok());
        MachineWorkload w;
        IdleSpan s = span(1000, 300000, 300000);
        s.latencyReqNs = 50000;
        w.cpus.push_back({0, {s, s}, 0, {}});
        w.cpus.push_back({1, {s, s}, 0, {}});
        Result<std::vector<MachineRun>> r = replayMachine(Machine::uniform(t, 2), w, oracleOnly());
        QVERIFY(r.ok());
        const MachineRun &run = r->front();
        QCOMPARE(run.cpus[0].states[0].below, 2);
        QCOMPARE(run.cpus[1].states[0].below, 2);
        const CpuRun tot = run.total();
        QCOMPARE(tot.states[0].usage, 4); // 2 + 2
        QCOMPARE(tot.states[0].below, 4); // 2 + 2
        QCOMPARE(tot.states[0].timeNs, 4 * 301000);
        QCOMPARE(tot.missRatio(), 1.0); // 4 misses / 4 entries
    }

    void oneCpuMachineIsTheReferenceReplay()
    {
        // The one-CPU case is replayStream() itself, governor for governor.
        const IdleStateTable table = builtinTarget("intel-skx").value();
        const workloads::WorkloadSpec spec = workloads::parseWorkloadSpec("server").value();
        const IdleStream stream = workloads::generateStream(spec, 0, 7, 3000);
        MachineWorkload w;
        w.cpus.push_back({0, stream, 0, {}});
        MachineReplayOptions o;
        o.governors = {"menu-6.14", "teo-6.14", "ladder-latest"};
        Result<std::vector<MachineRun>> r = replayMachine(Machine::uniform(table, 1), w, o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        for (size_t g = 0; g < o.governors.size(); ++g) {
            std::unique_ptr<Governor> gov = createGovernor(o.governors[g]);
            QVERIFY(gov);
            const ReplaySummary ref = replayStream(table, stream, *gov);
            const CpuRun &c = (*r)[g].cpus.front();
            QCOMPARE(c.entries, ref.entries);
            QCOMPARE(c.spans, ref.spans);
            // On the real clock: intel-skx's C6 wakes in 92 us, not its 133 us exit latency (the
            // other states' wake delay is their exit latency, and no state has an entry cost).
            QCOMPARE(c.durationNs, ref.endNowNs - REPLAY_START_NS - ref.states[3].usage * (133000 - 92000));
            for (int s = 0; s < table.count(); ++s) {
                QCOMPARE(c.states[size_t(s)].usage, ref.states[size_t(s)].usage);
                QCOMPARE(c.states[size_t(s)].timeNs, ref.states[size_t(s)].timeNs);
                QCOMPARE(c.states[size_t(s)].above, ref.states[size_t(s)].above);
                QCOMPARE(c.states[size_t(s)].below, ref.states[size_t(s)].below);
            }
        }
    }

    void resultsDoNotDependOnThreads()
    {
        const IdleStateTable table = builtinTarget("arm-rk3399").value();
        const workloads::WorkloadSpec spec = workloads::parseWorkloadSpec("io:device=emmc").value();
        MachineWorkload w;
        for (int cpu = 0; cpu < 6; ++cpu)
            w.cpus.push_back(
                {cpu, workloads::generateStream(spec, 0, 100 + std::uint64_t(cpu), 500 + 100 * size_t(cpu)), 0, {}});
        MachineReplayOptions o;
        o.governors = {"menu-6.14", "teo-6.14"};
        o.threads = 1;
        const std::vector<MachineRun> one = replayMachine(Machine::uniform(table, 6), w, o).value();
        o.threads = 3;
        const std::vector<MachineRun> three = replayMachine(Machine::uniform(table, 6), w, o).value();
        for (size_t g = 0; g < 2; ++g)
            for (size_t c = 0; c < 6; ++c) {
                QCOMPARE(three[g].cpus[c].cpu, int(c));
                QCOMPARE(three[g].cpus[c].entries, one[g].cpus[c].entries);
                QCOMPARE(three[g].cpus[c].states[1].below, one[g].cpus[c].states[1].below);
                QCOMPARE(three[g].cpus[c].durationNs, one[g].cpus[c].durationNs);
            }
    }

    void clusterViewByHand()
    {
        // CPU 0: WFI [10, 211) us, sleep [221, 1121) us; CPU 1 (offset 5 us): sleep [5, 705) us.
        // Both idle: [10, 211) with CPU 0 in WFI -> the cluster in WFI for 201 us;
        // [221, 705) both in sleep -> 484 us in sleep. One period each.
        MachineWorkload w = handWorkload();
        w.cpus[1].offsetNs = 5000;
        w.cpus.pop_back();
        const Machine m = Machine::uniform(twoStates(), 2);
        const MachineRun run = replayMachine(m, w, oracleOnly(true)).value().front();
        QCOMPARE(int(run.cpus[0].intervals.size()), 2);
        QCOMPARE(run.cpus[1].intervals[0].startNs, 5000);
        const std::vector<ClusterIdle> v = clusterView(m, run);
        QCOMPARE(int(v.size()), 1);
        QVERIFY(v[0].complete);
        QCOMPARE(v[0].timeNs[0], 201000);
        QCOMPARE(v[0].timeNs[1], 484000);
        QCOMPARE(v[0].usage[0], 1);
        QCOMPARE(v[0].usage[1], 1);
        QCOMPARE(v[0].idleNs, 685000);
    }

    void energyByHand()
    {
        // Power: WFI 100 mW, sleep 10 mW and 50 uJ per entry+exit, active 500 mW. The table has
        // no wake delays of its own: each wake-up takes the exit latency (WFI 1 us, sleep 100 us),
        // spent waking at the active power, not in the state (core/energy/energy.h).
        // CPU 0: in WFI 200 us x 0.1 W = 20 uJ, in sleep 800 us x 0.01 W = 8 uJ (idle 28 uJ); one
        //        sleep entry 50 uJ; waking 1 + 100 = 101 us x 0.5 W = 50.5 uJ; busy
        //        1121 - 1000 - 101 = 20 us (the two gaps) x 0.5 W = 10 uJ; 138.5 uJ in all.
        // CPU 1: in sleep 600 us x 0.01 W = 6 uJ; 50 uJ; waking 100 us x 0.5 W = 50 uJ; busy 0;
        //        106 uJ.
        // Machine: idle 34 uJ, entry/exit 100 uJ, waking 100.5 uJ, active 10 uJ, total 244.5 uJ.
        Machine m = Machine::uniform(twoStates(), 2);
        PowerModel &p = m.clusters[0].power;
        for (const char *item : {"WFI=100mW", "sleep=10mW", "sleep=50uJ", "active=500mW"})
            QVERIFY(applyPowerOption(p, m.clusters[0].table, item).ok());
        MachineWorkload w = handWorkload();
        w.cpus.pop_back();
        const MachineRun run = replayMachine(m, w, oracleOnly()).value().front();
        const RunEnergy e = runEnergy(m, run);
        QVERIFY(e.available);
        QVERIFY(e.hasActive);
        QCOMPARE(int(e.cpus.size()), 2);
        QVERIFY(qAbs(e.cpus[0].idleJ - 28e-6) < 1e-12);
        QVERIFY(qAbs(e.cpus[0].entryExitJ - 50e-6) < 1e-12);
        QVERIFY(qAbs(e.cpus[0].wakingJ - 50.5e-6) < 1e-12);
        QVERIFY(qAbs(e.cpus[0].activeJ - 10e-6) < 1e-12);
        QVERIFY(qAbs(e.cpus[1].idleJ - 6e-6) < 1e-12);
        QVERIFY(qAbs(e.cpus[1].wakingJ - 50e-6) < 1e-12);
        QVERIFY(qAbs(e.cpus[1].activeJ) < 1e-15);
        QVERIFY(qAbs(e.idleJ - 34e-6) < 1e-12);
        QVERIFY(qAbs(e.wakingJ - 100.5e-6) < 1e-12);
        QVERIFY(qAbs(e.totalJ() - 244.5e-6) < 1e-12);

        // Without sleep's power there is no energy, and the reason names the state.
        Machine bare = Machine::uniform(twoStates(), 2);
        QVERIFY(applyPowerOption(bare.clusters[0].power, bare.clusters[0].table, "WFI=100mW").ok());
        const RunEnergy none = runEnergy(bare, run);
        QVERIFY(!none.available);
        QCOMPARE(QString::fromStdString(none.missing), u"no power data for two state sleep"_qs);
    }

    void clusterEnergyByHand()
    {
        // The hand example without offsets: both CPUs idle over [10, 211) us with the cluster
        // in WFI (201 us) and over [221, 700) us in sleep (479 us). Cluster power WFI 50 mW,
        // sleep 20 mW: 201 us x 0.05 W + 479 us x 0.02 W = 10.05 + 9.58 = 19.63 uJ.
        Machine m = Machine::uniform(twoStates(), 2);
        m.clusters[0].clusterIdlePowerMw = {50, 20};
        MachineWorkload w = handWorkload();
        w.cpus.pop_back();
        const MachineRun run = replayMachine(m, w, oracleOnly(true)).value().front();
        const std::vector<ClusterIdle> v = clusterView(m, run);
        QCOMPARE(v[0].timeNs[1], 479000);
        QVERIFY(qAbs(clusterIdleEnergyJ(m.clusters[0], v[0]) - 19.63e-6) < 1e-12);
        m.clusters[0].clusterIdlePowerMw.clear();
        QVERIFY(std::isnan(clusterIdleEnergyJ(m.clusters[0], v[0])));
    }

    void completionInterruptsOnCpu0ByHand()
    {
        // CPU 1 submits (kIoOnCpu0). CPU 1: 3 spans of 10 us busy + 300 us -> WFI (300 < 500),
        // completions at 310, 620, 930 us. CPU 0 runs the idle system with one timer 1000 us
        // away (the cap), which covers CPU 1's 930 us in one span; the interrupts cut it:
        //   [0, 310) idle -> event at 310; handler to 315; [315, 620) -> 305 us; handler to
        //   625; [625, 930) -> 305 us; handler to 935; [935, 1000) -> 65 us, the timer.
        // So CPU 0's spans are (gap, timer, wake) = (0, 1000, 310), (5, 685, 305),
        // (5, 375, 305), (5, 65, 65), all WFI: 4 entries, 985 us + 4 x 1 us exit = 989 us.
        // The interrupts wake no task on CPU 0 (the submitter is CPU 1): the first three rows
        // are in-idle wakeups (need_resched = 0, the 5 us handler as the next row's gap), and
        // CPU 0 has no wakeup of a task but its timer's. Sum: WFI 7 entries, 989 + 903 us,
        // CPU 1's 3 wakeups.
        const Machine m = Machine::uniform(twoStates(), 2);
        const MachineWorkload w = onCpu1WithIdleCpu0(m, kIoOnCpu0, 3);
        compareSpans(w.cpus[0].stream, {{0, 1000, 310}, {5, 685, 305}, {5, 375, 305}, {5, 65, 65}});
        compareNeedResched(w.cpus[0].stream, {false, false, false, true});
        const MachineRun run = replayMachine(m, w, oracleOnly()).value().front();
        QCOMPARE(run.cpus[0].states[0].usage, 4);
        QCOMPARE(run.cpus[0].states[0].timeNs, 989000);
        QCOMPARE(run.cpus[0].wakeups, 0);
        const CpuRun t = run.total();
        QCOMPARE(t.states[0].usage, 7);
        QCOMPARE(t.states[0].timeNs, 989000 + 903000);
        QCOMPARE(t.wakeups, 3);

        // irq=local (NVMe's per-queue vectors): CPU 0 sees only its own timer.
        const MachineWorkload local =
            onCpu1WithIdleCpu0(m, "io:device=custom,base_us=300,tail_us=0,submit_us=10,next_timer_us=0,irq=local", 3);
        QCOMPARE(local.cpus[0].stream.size(), size_t(1));
        // irq=auto: eMMC's one vector goes to CPU 0, NVMe's stay local; numjobs is the CPU count.
        QVERIFY(workloads::ioInterruptRoute(workloads::parseWorkloadSpec("io:device=emmc")->root).has_value());
        QVERIFY(!workloads::ioInterruptRoute(workloads::parseWorkloadSpec("io:device=nvme")->root).has_value());
        QCOMPARE(workloads::ioInterruptCpu(workloads::parseWorkloadSpec("tick + io:device=emmc")->root), 0);
        QVERIFY(!workloads::ioInterruptCpu(workloads::parseWorkloadSpec("mix(io:device=nvme | tick)")->root));
        QCOMPARE(workloads::parseWorkloadSpec("io:device=sata,numjobs=4")->cpuCount(), 4);
    }

    void ioRunsOnItsOneJobByDefault()
    {
        // io's help says numjobs=1 (fio's one job), but a machine ran io on every CPU unless
        // numjobs=1 was written (a fresh user's finding). On three CPUs, an I/O of 300 us
        // (wake 300 us) against the background's 1000 us timer (wake 1000 us): io runs on
        // CPU 0 alone by default, on CPUs 0 and 1 with numjobs=2, and on the CPUs
        // --workload-cpus lists when it lists them (numjobs unwritten does not count them).
        const Machine m = Machine::uniform(twoStates(), 3);
        const auto ioCpus = [&](const std::string &workload, std::vector<int> listed) {
            SyntheticMachineSpec spec;
            spec.workload = workloads::parseWorkloadSpec(workload).value();
            spec.background =
                workloads::parseWorkloadSpec(
                    "idle:timer_us=100000000,max_idle_us=1000,irq_us=0,callback_us=0,rcu_ticks=0,run_us=0")
                    .value();
            spec.workloadCpus = std::move(listed);
            spec.spans = 2;
            const MachineWorkload w = syntheticMachineWorkload(m, spec).value();
            std::vector<int> io;
            for (const CpuStream &c : w.cpus)
                if (!c.stream.empty() && c.stream.front().wakeNs == 300000)
                    io.push_back(c.cpu);
            return io;
        };
        const std::string io = "io:device=custom,base_us=300,tail_us=0,submit_us=10,next_timer_us=0,irq=local";
        QCOMPARE(ioCpus(io, {}), std::vector<int>({0}));
        QCOMPARE(ioCpus(io + ",numjobs=2", {}), std::vector<int>({0, 1}));
        QCOMPARE(ioCpus(io, {1, 2}), std::vector<int>({1, 2}));
        // A generator that counts no CPUs of its own still runs on every CPU.
        QCOMPARE(ioCpus("periodic:kind=ipi,interval_us=300,run_us=10,next_timer_us=0", {}),
                 std::vector<int>({0, 1, 2}));
    }

    void completionInterruptsOfAnOverlayByHand()
    {
        // CPU 1 runs `idle + io` (kIoOnCpu0 beside the idle system with a timer every 450 us,
        // no work per timer). The overlay keeps each component's events in place: io
        // completes at 310, 620, 930 us (10 us of CPU after each), idle's timers fire at
        // 450 and 900 us. CPU 1's spans (gap, timer, wake), the timer the earliest pending one:
        //   (0, 450, 310)    idle from 0, the completion at 310, idle's timer pending at 450
        //   (10, 130, 130)   from 320, idle's timer at 450
        //   (0, 450, 170)    from 450 to the completion at 620, the timer pending at 900
        //   (10, 270, 270)   from 630 to the timer at 900
        //   (0, 450, 30)     from 900 to the completion at 930
        // all WFI (< 500 us): 5 entries, 310+130+170+270+30 + 5 x 1 us = 915 us, 3 non-timer
        // wakeups. Only io's completions reach CPU 0 (idle's timers are CPU 1's own), at the
        // same times as io alone, so CPU 0's spans are completionInterruptsOnCpu0ByHand's:
        // 4 WFI entries, 989 us, three in-idle wakeups and no task's. Sum: 9 WFI entries,
        // 989 + 915 us, CPU 1's 3 wakeups.
        const Machine m = Machine::uniform(twoStates(), 2);
        const std::string idle = "idle:timer_us=100000000,max_idle_us=450,irq_us=0,callback_us=0,rcu_ticks=0,run_us=0";
        const MachineWorkload w = onCpu1WithIdleCpu0(m, idle + " + " + kIoOnCpu0, 5);
        compareSpans(w.cpus[1].stream, {{0, 450, 310}, {10, 130, 130}, {0, 450, 170}, {10, 270, 270}, {0, 450, 30}});
        compareSpans(w.cpus[0].stream, {{0, 1000, 310}, {5, 685, 305}, {5, 375, 305}, {5, 65, 65}});
        compareNeedResched(w.cpus[0].stream, {false, false, false, true});
        QVERIFY(QString::fromStdString(w.label).endsWith(u"(completion interrupts on CPU 0)"_qs));
        const MachineRun run = replayMachine(m, w, oracleOnly()).value().front();
        QCOMPARE(run.cpus[0].states[0].usage, 4);
        QCOMPARE(run.cpus[0].states[0].timeNs, 989000);
        QCOMPARE(run.cpus[0].wakeups, 0);
        QCOMPARE(run.cpus[1].states[0].usage, 5);
        QCOMPARE(run.cpus[1].states[0].timeNs, 915000);
        const CpuRun t = run.total();
        QCOMPARE(t.states[0].usage, 9);
        QCOMPARE(t.states[0].timeNs, 989000 + 915000);
        QCOMPARE(t.wakeups, 3);
    }

    void completionInterruptsOfAMixByHand()
    {
        // CPU 1 runs mix(io | periodic): kIoOnCpu0 (10 us + 300 us, the completion at the end)
        // or an IPI every 200 us after 10 us of work (no timer), one span per draw. The draws of
        // this seed (CPU 1's spans say which: 300 us is io, 200 us periodic) are periodic x3,
        // io, io, periodic, io. The mix plays io's spans where it draws them, so io's own
        // completions at 310, 620, 930 us land at the ends of CPU 1's spans 4, 5 and 7:
        // 3 x 210 + 310 = 940, 1250, 1250 + 210 + 310 = 1770 us; the IPIs at 210, 420, 630
        // and 1460 us are CPU 1's own. CPU 0 idles to timers at 1000 and 2000 us (the cap:
        // two spans cover CPU 1's 1770 us); the interrupts cut them:
        //   [0, 940) -> event; handler to 945; [945, 1000) -> 55 us, the timer;
        //   [1000, 1250) -> event; handler to 1255; [1255, 1770) -> 515 us, event; handler
        //   to 1775; [1775, 2000) -> 225 us, the timer.
        // Through the oracle: 940 and 515 us -> sleep (>= 500 us), 1040 + 615 = 1655 us;
        // 55, 250, 225 us -> WFI, 56 + 251 + 226 = 533 us. The 3 interrupts wake no task on
        // CPU 0 (in-idle wakeups): no wakeup of a task and no latency cost there.
        // CPU 1: 7 WFI entries, 4 x 201 + 3 x 301 = 1707 us, 7 wakeups. Sum: WFI 10 entries,
        // 533 + 1707 = 2240 us, sleep 2 entries 1655 us, 7 wakeups.
        const Machine m = Machine::uniform(twoStates(), 2);
        const MachineWorkload w = onCpu1WithIdleCpu0(
            m, std::string("mix(") + kIoOnCpu0 + " | periodic:kind=ipi,interval_us=200,run_us=10,next_timer_us=0)", 7);
        constexpr Ns NONE = 1000000000; // next_timer_us=0: no timer (NO_TIMER_NS), in us
        compareSpans(w.cpus[1].stream, {{10, NONE, 200},
                                        {10, NONE, 200},
                                        {10, NONE, 200},
                                        {10, NONE, 300},
                                        {10, NONE, 300},
                                        {10, NONE, 200},
                                        {10, NONE, 300}});
        compareSpans(w.cpus[0].stream, {{0, 1000, 940}, {5, 55, 55}, {0, 1000, 250}, {5, 745, 515}, {5, 225, 225}});
        compareNeedResched(w.cpus[0].stream, {false, true, false, false, true});
        const MachineRun run = replayMachine(m, w, oracleOnly()).value().front();
        // CPU 0 and the sum: (usage, time in us) of WFI and sleep, wakeups.
        compareUsageAndTime(run.cpus[0], {{3, 533}, {2, 1655}}, 0);
        QCOMPARE(run.cpus[0].latencyCostNs, 0);
        compareUsageAndTime(run.total(), {{10, 2240}, {2, 1655}}, 7);
    }

    void idlestatEnergyModelByHand()
    {
        // idlestat's format on the two-state table: core powers WFI 100, sleep 10 (the numbers
        // of energyByHand), cluster powers 50 and 20 (clusterEnergyByHand's), and the core
        // power of the fastest P-state (1200 MHz: 500) as the active power. The wakeup line
        // is read, not used: no entry/exit energy. By hand, as in energyByHand without its
        // 2 x 50 uJ of entries: idle 28 + 6 uJ, waking 100.5 uJ, busy 10 uJ: 144.5 uJ;
        // the cluster view's 19.63 uJ as in clusterEnergyByHand.
        const char *text = "# two states\n"
                           "clusters 1\n"
                           "clusterA: 2 cap states 2 C states\n"
                           "\n"
                           "P-states:\n"
                           "800\t0\t300\n"
                           "1200\t0\t500\n"
                           "C-states:\n"
                           "WFI\t50\t100\n"
                           "sleep\t20\t10\n"
                           "wakeup\t210\t6\n";
        const IdlestatEnergyModel em = parseIdlestatEnergyModel(text, "em").value();
        QCOMPARE(int(em.clusters.size()), 1);
        QCOMPARE(em.clusters[0].pStates[1].speedMhz, 1200);
        QCOMPARE(em.clusters[0].wakeupCore, 6.0);
        Machine m = Machine::uniform(twoStates(), 2);
        QVERIFY(applyIdlestatEnergyModel(em, m.clusters).ok());
        QCOMPARE(m.clusters[0].power.states[0].powerMw, 100.0);
        QCOMPARE(m.clusters[0].power.states[1].powerMw, 10.0);
        QCOMPARE(m.clusters[0].power.states[1].entryExitUj, 0.0);
        QCOMPARE(m.clusters[0].power.activeMw, 500.0);
        QCOMPARE(m.clusters[0].clusterIdlePowerMw, (std::vector<double>{50, 20}));
        MachineWorkload w = handWorkload();
        w.cpus.pop_back();
        const MachineRun run = replayMachine(m, w, oracleOnly(true)).value().front();
        const RunEnergy e = runEnergy(m, run);
        QVERIFY(e.available);
        QVERIFY(qAbs(e.cpus[0].idleJ - 28e-6) < 1e-12);
        QVERIFY(qAbs(e.cpus[1].idleJ - 6e-6) < 1e-12);
        QVERIFY(qAbs(e.totalJ() - 144.5e-6) < 1e-12);
        QVERIFY(qAbs(clusterIdleEnergyJ(m.clusters[0], clusterView(m, run)[0]) - 19.63e-6) < 1e-12);

        // A state the file does not list keeps no power data.
        const char *one = "clusters 1\nclusterA: 0 cap states 1 C states\nC-states:\nWFI 50 100\nwakeup 0 0\n";
        Machine partial = Machine::uniform(twoStates(), 1);
        QVERIFY(applyIdlestatEnergyModel(parseIdlestatEnergyModel(one, "em").value(), partial.clusters).ok());
        QVERIFY(!partial.clusters[0].power.hasIdlePower());
        QVERIFY(!partial.clusters[0].power.hasActivePower());
    }

    void idlestatEnergyModelErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString head = "clusters 1\nclusterA: 1 cap states 2 C states\nP-states:\n1000 5 3\nC-states:\n";
        QTest::newRow("template placeholder") << head + "WFI ? 1\nsleep 1 1\n"
                                              << "em:6: field 'cluster_power': '?' is idlestat's template placeholder";
        QTest::newRow("negative") << head + "WFI 1 -2\nsleep 1 1\n"
                                  << "em:6: field 'core_power': must not be negative";
        QTest::newRow("nan") << head + "WFI nan 1\nsleep 1 1\n"
                             << "em:6: field 'cluster_power': must be a finite number";
        QTest::newRow("word") << head + "WFI 1 lots\nsleep 1 1\n"
                              << "em:6: field 'core_power': 'lots' is not a number";
        QTest::newRow("too few C states") << head + "WFI 1 1\n"
                                          << "em:2: field 'clusterA': announces 2 C states, 1 C-state lines follow";
        QTest::newRow("too many C states") << head + "WFI 1 1\nsleep 1 1\ndeep 1 1\n"
                                           << "em:8: field 'C-states': more than the 2 C states clusterA announces";
        QTest::newRow("unknown state") << head + "WFI 1 1\nC6 1 1\n"
                                       << "em:7: field 'C-states': no state C6 in table two";
        QTest::newRow("repeated state") << head + "WFI 1 1\nWFI 1 1\n"
                                        << "em:7: field 'C-states': state WFI given twice";
        QTest::newRow("speed") << "clusters 1\nclusterA: 1 cap states 1 C states\nP-states:\n1.5GHz 5 3\n"
                               << "em:4: field 'speed': '1.5GHz' is not a speed in MHz";
        QTest::newRow("missing column") << head + "WFI 1\n"
                                        << "em:6: field 'C-states': expected 'NAME CLUSTER_POWER CORE_POWER'";
        QTest::newRow("no clusters line") << "clusterA: 1 cap states 1 C states\n"
                                          << "em:1: field 'clusterA': before the 'clusters N' line";
        QTest::newRow("cluster count") << "clusters 2\nclusterA: 0 cap states 1 C states\nC-states:\nWFI 1 1\n"
                                       << "em:1: field 'clusters': says 2 clusters, the file describes 1";
        QTest::newRow("clusters out of order") << "clusters 2\nclusterB: 0 cap states 1 C states\n"
                                               << "em:2: field 'clusterB': expected clusterA";
        QTest::newRow("stray line") << "clusters 1\nhello 1 2\n"
                                    << "em:2: field 'hello': not a line of an idlestat energy model";
        QTest::newRow("machine of two clusters")
            << "clusters 1\nclusterA: 0 cap states 1 C states\nC-states:\nWFI 1 1\n"
            << "em:1: field 'clusters': 1 clusters, the machine has 2";
        QTest::newRow("empty") << "# nothing\n"
                               << "em: field 'clusters': no 'clusters N' line";
    }

    void idlestatEnergyModelErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const std::string t = text.toStdString();
        Result<IdlestatEnergyModel> em = parseIdlestatEnergyModel(t, "em");
        std::string got;
        if (!em) {
            got = em.error().toString();
        } else {
            // Read well: the error is the mapping's (the two-state table; two clusters for that row).
            Machine m = Machine::uniform(twoStates(), 1);
            if (QTest::currentDataTag() == QByteArray("machine of two clusters")) {
                m.clusters.push_back(m.clusters[0]);
                m.clusters[1].cpus = {1};
            }
            const Status s = applyIdlestatEnergyModel(*em, m.clusters);
            QVERIFY2(!s.ok(), "no error");
            got = s.error().toString();
        }
        QVERIFY2(QString::fromStdString(got).contains(message), got.c_str());
    }

    void builtinMachines()
    {
        // rk3399-base.dtsi: cpu_l0..3 (Cortex-A53) are CPUs 0-3, cpu_b0..1 (Cortex-A72) 4-5.
        const Machine rk = builtinMachine("rk3399").value();
        QVERIFY(rk.validate().ok());
        QCOMPARE(rk.cpuCount(), 6);
        QCOMPARE(rk.clusters[0].cpus, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(rk.clusters[1].cpus, (std::vector<int>{4, 5}));
        QCOMPARE(QString::fromStdString(rk.tableOf(5).id), u"arm-rk3399"_qs);
        QVERIFY(!rk.clusters[0].power.hasIdlePower()); // no public energy model
        // LISA juno_r0_energy.py: a53s = [0, 3, 4, 5], a57s = [1, 2]; per-CPU WFI 6 and 15,
        // the sleep states 0; cluster idle 56/56/17 and 65/65/24; active at the top OPP 93 and 616.
        const Machine juno = builtinMachine("juno-r0").value();
        QVERIFY(juno.validate().ok());
        QCOMPARE(juno.clusters[0].cpus, (std::vector<int>{0, 3, 4, 5}));
        QCOMPARE(juno.clusters[1].cpus, (std::vector<int>{1, 2}));
        QCOMPARE(juno.clusterOf(2), 1);
        QCOMPARE(juno.clusters[0].power.states[0].powerMw, 6.0);
        QCOMPARE(juno.clusters[1].power.states[0].powerMw, 15.0);
        QCOMPARE(juno.clusters[1].power.states[2].powerMw, 0.0);
        QCOMPARE(juno.clusters[0].power.activeMw, 93.0);
        QCOMPARE(juno.clusters[1].power.activeMw, 616.0);
        QCOMPARE(juno.clusters[0].clusterIdlePowerMw, (std::vector<double>{56, 56, 17}));
        QCOMPARE(juno.clusters[1].clusterIdlePowerMw, (std::vector<double>{65, 65, 24}));
        QVERIFY(!builtinMachine("nope").ok());
        QCOMPARE(QString::fromStdString(builtinMachine("nope").error().field), u"machine"_qs);
    }

    void interruptsInAnIdleStayByHand()
    {
        // Rows (gap, timer, wake, need_resched) in us: an in-idle wakeup at 1000 (a kept tick),
        // then a task's wakeup 5 us of handler and 500 us later. Interrupts at 300 (5 us) and
        // 1004 (10 us):
        //   [0, 300) idle, the interrupt: in-idle                           (0, 1000, 300, 0)
        //   its handler to 305; [305, 1000) the rest of the row, still in-idle (5, 695, 695, 0)
        //   the row's handler to 1005 absorbs the interrupt at 1004: busy to 1015;
        //   [1015, 1505) the task's wakeup                                   (15, 490, 490, 1)
        const IdleSpan tick{0, 1000000, 1000000, NO_LATENCY_REQ, 0, false};
        const IdleSpan task{5000, 500000, 500000, NO_LATENCY_REQ, 0};
        const workloads::IoInterrupt irqs[] = {{300000, 5000}, {1004000, 10000}};
        const IdleStream out = withInterrupts({tick, task}, irqs);
        compareSpans(out, {{0, 1000, 300}, {5, 695, 695}, {15, 490, 490}});
        compareNeedResched(out, {false, false, true});
        // A task woken inside the interrupt's handler ends the stay there: at 998 us an
        // interrupt cuts a 1000 us idle, its 5 us handler covers the task's wakeup at 1000,
        // so the one row left wakes a task (its work then joins the busy time).
        const IdleSpan one{0, 1000000, 1000000, NO_LATENCY_REQ, 0};
        const workloads::IoInterrupt late[] = {{998000, 5000}};
        const IdleStream cut = withInterrupts({one}, late);
        compareSpans(cut, {{0, 1000, 998}});
        compareNeedResched(cut, {true});
    }

    void durationCoversEveryCpu()
    {
        // Three CPUs of the two-state table; the workload (cpus=2) is 10 us busy + 200 us to a
        // timer, 210 us a span; the background an idle system with one timer every 600 us and
        // nothing else (600 us a span). --duration 1 ms: every CPU generates rows until its
        // busy + idle time reaches 1000 us, the row that crosses it the last: 5 x 210 = 1050
        // (4 x 210 = 840 is short) on CPUs 0 and 1, 2 x 600 = 1200 on CPU 2. The spans setting
        // is not read then.
        const Machine m = Machine::uniform(twoStates(), 3);
        SyntheticMachineSpec spec;
        // slack_us=0: the sums below are of exact 200 us timers, not of the timer's slack.
        spec.workload =
            workloads::parseWorkloadSpec("periodic:kind=timer,interval_us=200,run_us=10,cpus=2,slack_us=0").value();
        spec.background = workloads::parseWorkloadSpec(
                              "idle:timer_us=100000000,max_idle_us=600,irq_us=0,callback_us=0,rcu_ticks=0,run_us=0")
                              .value();
        spec.durationNs = 1000000;
        spec.spans = 1;
        const MachineWorkload w = syntheticMachineWorkload(m, spec).value();
        QCOMPARE(w.cpus[0].stream.size(), size_t(5));
        QCOMPARE(w.cpus[1].stream.size(), size_t(5));
        QCOMPARE(w.cpus[2].stream.size(), size_t(2));
        // 3 ms: 15 rows (3150 us) on the workload CPUs; 5 rows (3000 us, reached exactly) on
        // CPU 2, which covers the duration, not the busiest workload CPU's 3150 us (6 rows).
        spec.durationNs = 3000000;
        const MachineWorkload longer = syntheticMachineWorkload(m, spec).value();
        QCOMPARE(longer.cpus[0].stream.size(), size_t(15));
        QCOMPARE(longer.cpus[2].stream.size(), size_t(5));
        // Without a duration, 14 spans per workload CPU (2940 us) set it: the background covers
        // 2940 us with 5 rows too, and 10 spans (2100 us) with 4.
        spec.durationNs = 0;
        spec.spans = 14;
        QCOMPARE(syntheticMachineWorkload(m, spec).value().cpus[2].stream.size(), size_t(5));
        spec.spans = 10;
        const MachineWorkload bySpans = syntheticMachineWorkload(m, spec).value();
        QCOMPARE(bySpans.cpus[0].stream.size(), size_t(10));
        QCOMPARE(bySpans.cpus[2].stream.size(), size_t(4));
    }

    void backgroundCoversTheBenchmark()
    {
        // rk3399 with the benchmark on CPUs 0 and 4 (one per cluster) and the tick generator's
        // idle system (idle_us=3000: 20 us of work, then 3 ms to the next timer) on the others.
        // Every CPU covers the time of the busiest benchmark CPU's 500 spans.
        const Machine m = builtinMachine("rk3399").value();
        SyntheticMachineSpec spec;
        // irq=local: each completion wakes its submitter only (emmc's default sends them all
        // to CPU 0, completionInterruptsOnCpu0ByHand).
        spec.workload = workloads::parseWorkloadSpec("io:device=emmc,irq=local").value();
        spec.background = workloads::parseWorkloadSpec("tick:idle_us=3000").value();
        spec.workloadCpus = {4, 0};
        spec.spans = 500;
        const MachineWorkload w = syntheticMachineWorkload(m, spec).value();
        QCOMPARE(int(w.cpus.size()), 6);
        auto time = [](const IdleStream &s, size_t n) {
            Ns t = 0;
            for (size_t i = 0; i < n; ++i)
                t += s[i].gapNs + s[i].wakeNs;
            return t;
        };
        const Ns busiest = std::max(time(w.cpus[0].stream, 500), time(w.cpus[4].stream, 500));
        for (int cpu = 0; cpu < 6; ++cpu) {
            const IdleStream &s = w.cpus[size_t(cpu)].stream;
            QCOMPARE(w.cpus[size_t(cpu)].cpu, cpu);
            if (cpu == 0 || cpu == 4) {
                // The busiest benchmark CPU makes its 500 spans, whose time is the run's; the
                // other, with a seed of its own, goes on until it covers that time too (its
                // first 500 spans are the ones it would make alone: the same generator and seed).
                QVERIFY(s.size() >= 500);
                if (time(s, 500) == busiest) {
                    QCOMPARE(int(s.size()), 500);
                } else {
                    QVERIFY(time(s, s.size()) >= busiest);
                    QVERIFY(time(s, s.size() - 1) < busiest);
                }
                continue;
            }
            // Every background span is 20 us + 3000 us; the last one crosses the busiest's time.
            QCOMPARE(s.front().gapNs, 20000);
            QCOMPARE(s.front().wakeNs, 3000000);
            QVERIFY(time(s, s.size()) >= busiest);
            QVERIFY(time(s, s.size() - 1) < busiest);
            QCOMPARE(Ns(s.size()), (busiest + 3020000 - 1) / 3020000);
        }
        spec.workloadCpus = {6};
        Result<MachineWorkload> bad = syntheticMachineWorkload(m, spec);
        QVERIFY(!bad.ok());
        QCOMPARE(QString::fromStdString(bad.error().field), u"workload-cpus"_qs);
    }

    void workloadCpusAndIdleBackgroundSumByHand()
    {
        // Four CPUs of the two-state table; the workload says cpus=2, so CPUs 0 and 1 run it:
        // 3 spans each of 10 us busy, then a 200 us timer -> the oracle picks WFI (sleep's
        // 500 us does not fit), residency 201 us; 3 x 210 us = 630 us of stream each.
        // CPUs 2 and 3 run the idle system with a timer every 600 us (the cap: the 100 s
        // mean makes every draw of this seed longer), no interrupts, no handler time:
        // spans of 600 us -> sleep, residency 700 us, until they cover 630 us: 2 spans.
        const Machine m = Machine::uniform(twoStates(), 4);
        SyntheticMachineSpec spec;
        // slack_us=0: the sums below are of exact 200 us timers, not of the timer's slack.
        spec.workload =
            workloads::parseWorkloadSpec("periodic:kind=timer,interval_us=200,run_us=10,cpus=2,slack_us=0").value();
        spec.background = workloads::parseWorkloadSpec(
                              "idle:timer_us=100000000,max_idle_us=600,irq_us=0,callback_us=0,rcu_ticks=0,run_us=0")
                              .value();
        spec.spans = 3;
        const MachineWorkload w = syntheticMachineWorkload(m, spec).value();
        QCOMPARE(int(w.cpus.size()), 4);
        QCOMPARE(w.cpus[0].stream.size(), size_t(3));
        QCOMPARE(w.cpus[1].stream.size(), size_t(3));
        QCOMPARE(w.cpus[2].stream.size(), size_t(2));
        QCOMPARE(w.cpus[3].stream.size(), size_t(2));
        const MachineRun run = replayMachine(m, w, oracleOnly()).value().front();
        for (int cpu : {0, 1}) {
            const CpuRun &c = run.cpus[size_t(cpu)];
            QCOMPARE(c.states[0].usage, 3);
            QCOMPARE(c.states[0].timeNs, 3 * 201000);
            QCOMPARE(c.states[1].usage, 0);
        }
        for (int cpu : {2, 3}) {
            const CpuRun &c = run.cpus[size_t(cpu)];
            QCOMPARE(c.states[0].usage, 0);
            QCOMPARE(c.states[1].usage, 2);
            QCOMPARE(c.states[1].timeNs, 2 * 700000);
        }
        // Summed as sysfs: WFI 3 + 3 entries, 1206 us; sleep 2 + 2 entries, 2800 us; no misses.
        const CpuRun t = run.total();
        QCOMPARE(t.entries, 10);
        QCOMPARE(t.states[0].usage, 6);
        QCOMPARE(t.states[0].timeNs, 1206000);
        QCOMPARE(t.states[1].usage, 4);
        QCOMPARE(t.states[1].timeNs, 2800000);
        QCOMPARE(t.above() + t.below(), 0);

        // --workload-cpus picks which CPUs, but as many as cpus= says.
        spec.workloadCpus = {3, 1};
        const MachineWorkload picked = syntheticMachineWorkload(m, spec).value();
        QCOMPARE(picked.cpus[3].stream.size(), size_t(3));
        QCOMPARE(picked.cpus[0].stream.size(), size_t(2));
        spec.workloadCpus = {1};
        QCOMPARE(QString::fromStdString(syntheticMachineWorkload(m, spec).error().field), u"workload-cpus"_qs);

        // A background that needs more spans than allowed is refused, not cut: CPUs 2 and 3
        // need 2 spans of 600 us to cover the workload's 630 us (above); with 1 allowed,
        // CPU 2's one span covers 0.600 ms of them.
        spec.workloadCpus = {};
        spec.maxBackgroundSpans = 1;
        const Error cut = syntheticMachineWorkload(m, spec).error();
        QCOMPARE(QString::fromStdString(cut.field), u"background"_qs);
        QCOMPARE(QString::fromStdString(cut.message),
                 u"CPU 2: 1 spans cover 0.600 ms of the 0.630 ms the busiest workload CPU runs; give a background "
                 u"with longer idle periods, or fewer --spans"_qs);
        spec.maxBackgroundSpans = 2;
        QCOMPARE(syntheticMachineWorkload(m, spec).value().cpus[2].stream.size(), size_t(2));
        spec.maxBackgroundSpans = MAX_BACKGROUND_SPANS;

        // --workload-cpus: each CPU once, at least one (both were taken before: "0,0" ran CPU 0
        // once, "" ran the default CPUs).
        QCOMPARE(parseWorkloadCpus("3,1").value(), (std::vector<int>{3, 1}));
        QCOMPARE(QString::fromStdString(parseWorkloadCpus("0,0").error().message), u"CPU 0 is listed twice"_qs);
        QVERIFY(QString::fromStdString(parseWorkloadCpus("").error().message).startsWith(u"is empty"_qs));
        QVERIFY(!parseWorkloadCpus("0,").ok());
        QVERIFY(!parseWorkloadCpus("4096").ok());
        spec.workloadCpus = {};
        spec.workload = workloads::parseWorkloadSpec("io:cpus=5").value();
        const Error tooMany = syntheticMachineWorkload(m, spec).error();
        QCOMPARE(QString::fromStdString(tooMany.field), u"workload"_qs);
        QVERIFY(QString::fromStdString(tooMany.message).contains(u"cpus=5 but machine"_qs));
    }

    void badPowerOptions_data()
    {
        QTest::addColumn<QString>("item");
        QTest::addColumn<QString>("message");
        QTest::newRow("no unit") << u"WFI=100"_qs << u"has no unit"_qs;
        QTest::newRow("negative") << u"WFI=-5mW"_qs << u"must not be negative"_qs;
        QTest::newRow("nan") << u"WFI=nanmW"_qs << u"finite"_qs;
        QTest::newRow("unknown state") << u"C6=5mW"_qs << u"no such state in table two"_qs;
        QTest::newRow("not a number") << u"WFI=fivemW"_qs << u"not a number"_qs;
        QTest::newRow("no equals") << u"WFI"_qs << u"expected STATE=VALUEmW"_qs;
    }

    void badPowerOptions()
    {
        QFETCH(QString, item);
        QFETCH(QString, message);
        PowerModel p;
        const Status s = applyPowerOption(p, twoStates(), item.toStdString());
        QVERIFY(!s.ok());
        QCOMPARE(QString::fromStdString(s.error().file), u"power"_qs);
        QVERIFY2(QString::fromStdString(s.error().message).contains(message), s.error().message.c_str());
    }

    void badMachines()
    {
        Machine m = Machine::uniform(twoStates(), 2);
        m.clusters.push_back(m.clusters[0]);
        m.clusters[1].name = "second";
        m.clusters[1].cpus = {1, 3};
        Status s = m.validate();
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.find("CPU 1 is already in cluster all") != std::string::npos,
                 s.error().message.c_str());
        m.clusters[1].cpus = {3};
        s = m.validate();
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message == "CPU 2 has no table (no cluster lists it)", s.error().message.c_str());

        MachineWorkload w;
        w.label = "w.csv";
        w.cpus.push_back({5, {span(0, 1000, 1000)}, 0, {}});
        Result<std::vector<MachineRun>> r = replayMachine(Machine::uniform(twoStates(), 2), w, oracleOnly());
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().field), u"cpu"_qs);
        QVERIFY(r.error().message.find("CPU 5 is not a CPU") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestMachine)
#include "tst_machine.moc"
