// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The window on a real trace (issue 13), the work behind each picture:
 *
 *   open/juno       opening LISA's Juno trace (lisa-juno-sched_load-6cpu.dat, 3.4 MB, 6 CPUs)
 *                   with the table arm-juno-r0 and 4 governors (menu-6.14, menu-6.19,
 *                   teo-6.14, ladder-latest) beside the recorded run: the import (a fresh
 *                   copy each iteration, so that the cache never answers), the busiest CPU's
 *                   snapshot (buildSnapshot()) and the CPUs dock's machine
 *                   comparison of all 6 CPUs (compareTraceMachine), as the window runs them
 *   switch/juno     picking another CPU: that CPU's snapshot from the cached import (the
 *                   previous snapshot given, as the runner does) and the CPUs dock redrawn
 *                   for it (CpuLanesView::setShownCpu), CPUs 0..5 in turn
 *   allcpus/juno    "All CPUs" in the dock after one CPU: the redraw of the 6 lane groups
 *
 *   QT_QPA_PLATFORM=offscreen build/release/bench/bench_trace_gui
 *
 * The first picture also needs the window drawn; the whole-process figure is
 * `idlescope --screenshot` on the same trace (docs/performance.md).
 */
#include "widgets/runner/build_snapshot.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/trace_workload.h"
#include "widgets/trace/cpu_lanes_view.h"
#include "widgets/trace/trace_machine_job.h"

#include "bench/gui_benchmark_main.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>

#include <atomic>
#include <cstdlib>

using namespace idlescope;

namespace {

QString junoPath()
{
    return QStringLiteral(IDLESCOPE_TEST_DATA "/traces/lisa-juno-sched_load-6cpu.dat");
}

ScenarioSpec junoSpec(const QString &path, int cpu)
{
    ScenarioSpec spec;
    spec.target.kind = TargetKind::Builtin;
    spec.target.id = QStringLiteral("arm-juno-r0");
    spec.target.table = builtinTable(spec.target.id).value();
    spec.workload.kind = WorkloadKind::Trace;
    spec.workload.path = path.toStdString();
    spec.workload.cpu = cpu;
    spec.governors = {{"recorded", {}, QColor(Qt::black)},
                      {"menu-6.14", {}, QColor(Qt::red)},
                      {"menu-6.19", {}, QColor(Qt::darkRed)},
                      {"teo-6.14", {}, QColor(Qt::blue)},
                      {"ladder-latest", {}, QColor(Qt::darkGreen)}};
    return spec;
}

SnapshotPtr simulate(const ScenarioSpec &spec, const SnapshotPtr &previous)
{
    const std::atomic<bool> cancel{false};
    SnapshotBuild build = buildSnapshot(spec, previous, cancel);
    if (!build.snapshot) {
        std::fprintf(stderr, "simulate: %s\n", qPrintable(build.error));
        std::exit(1);
    }
    build.snapshot->generation = 1;
    return build.snapshot;
}

void BM_OpenJuno(benchmark::State &state)
{
    QTemporaryDir dir;
    int n = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const QString copy = dir.filePath(QStringLiteral("juno-%1.dat").arg(n++));
        QFile::copy(junoPath(), copy);
        state.ResumeTiming();
        if (!traceSummary(copy)) {
            state.SkipWithError("import failed");
            break;
        }
        const SnapshotPtr snap = simulate(junoSpec(copy, TRACE_BEST_CPU), nullptr);
        Result<MachineComparison> all = compareTraceMachine(*snap, nullptr);
        if (!all) {
            state.SkipWithError("machine comparison failed");
            break;
        }
        benchmark::DoNotOptimize(all->runs.size());
    }
}
BENCHMARK(BM_OpenJuno)->Name("open/juno")->Unit(benchmark::kMillisecond)->UseRealTime();

/// A dock that shows the Juno comparison, computed once.
CpuLanesView &junoDock(SnapshotPtr &first)
{
    // Never destroyed: it would outlive the QApplication at exit.
    static CpuLanesView *view = new CpuLanesView;
    static SnapshotPtr snap;
    if (!snap) {
        snap = simulate(junoSpec(junoPath(), 0), nullptr);
        view->resize(1200, 500);
        view->setSnapshot(snap);
        while (view->isComputing() || !view->comparison())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    first = snap;
    return *view;
}

void BM_SwitchCpu(benchmark::State &state)
{
    SnapshotPtr previous;
    CpuLanesView &view = junoDock(previous);
    int cpu = 0;
    for (auto _ : state) {
        cpu = (cpu + 1) % 6;
        const SnapshotPtr snap = simulate(junoSpec(junoPath(), cpu), previous);
        view.setSnapshot(snap); // the same trace, table and governors: nothing recomputed
        view.setShownCpu(cpu);
        previous = snap;
    }
}
BENCHMARK(BM_SwitchCpu)->Name("switch/juno")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AllCpus(benchmark::State &state)
{
    SnapshotPtr snap;
    CpuLanesView &view = junoDock(snap);
    for (auto _ : state) {
        view.setShownCpu(4);
        view.setShownCpu(TRACE_ALL_CPUS);
    }
}
BENCHMARK(BM_AllCpus)->Name("allcpus/juno")->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

IDLESCOPE_GUI_BENCHMARK_MAIN()
