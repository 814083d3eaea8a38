// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/closed_loop_workload.h"

#include "core/scenario/scenario_closed_loop.h"
#include "core/source_governor/source_governor.h"
#include "core/stats/governor_totals.h"
#include "core/stats/run_throughput.h"
#include "core/targets/builtin_machines.h"
#include "core/trace/recorded_entries.h"
#include "core/workloads/workload_spec.h"
#include "widgets/runner/simulation_runner.h"

#include <QThread>

#include <algorithm>
#include <optional>

namespace idlescope {

namespace {

/// Run @p g's summary from its loop's counters: what the comparison table reads of a run.
GovernorRun summaryRun(const GovernorSpec &g, const ClosedLoopRun &loop)
{
    GovernorRun run;
    run.variant = g.variant;
    run.settings = g.settings;
    const CpuRun sum = loop.counters.total();
    run.summary.entries = sum.entries;
    run.summary.spans = sum.spans;
    run.summary.stateCount = sum.stateCount;
    run.summary.states = sum.states;
    run.summary.endNowNs = REPLAY_START_NS + loop.durationNs;
    return run;
}

/// The governors a closed loop runs. The kernel's recorded choices exist only in a trace; a
/// governor built from source replays a recorded stream. Both are said and left out.
std::vector<const GovernorSpec *> loopGovernors(SimulationSnapshot &snap)
{
    std::vector<const GovernorSpec *> runnable;
    for (const GovernorSpec &g : snap.spec.governors) {
        if (g.variant == trace::RECORDED_VARIANT)
            snap.errors << QStringLiteral("recorded: only a kernel trace has the kernel's recorded choices");
        else if (isSourceGovernorId(g.variant))
            snap.errors << QString::fromStdString(g.variant)
                               + QStringLiteral(": a governor built from source replays "
                                                "a recorded stream, not a closed loop");
        else
            runnable.push_back(&g);
    }
    return runnable;
}

/// One governor's loop as the window's result: its summary run, counts, totals and the
/// machine's throughput and energy, from core's counters.
GovernorResult loopResult(const GovernorSpec &spec, const ClosedLoopRun &loop, const Machine &machine)
{
    GovernorResult g;
    g.replayed = true;
    g.run = std::make_shared<const GovernorRun>(summaryRun(spec, loop));
    g.counts = RunCounts(*g.run);
    g.lod = RunLod(*g.run, g.counts);
    g.totals = counterTotals(loop.counters.total());
    g.throughput = machineRunThroughput(machine, loop.counters, loop.durationNs, loop.energyWindowNs);
    g.color = spec.color;
    g.name = spec.name();
    auto gov = makeConfiguredGovernor(spec.variant, spec.settings);
    g.atDefaults = gov && (*gov)->atKernelDefaults();
    g.closedLoop = loop;
    return g;
}

} // namespace

bool simulateClosedLoop(SimulationSnapshot &snap, const std::atomic<bool> &cancel, JobProgress *progress,
                        QString *error)
{
    // core's scenario of the window's, with the governors a closed loop can run.
    scenario::Scenario s = scenarioOf(snap.spec);
    const std::vector<const GovernorSpec *> runnable = loopGovernors(snap);
    s.governors.clear();
    for (const GovernorSpec *g : runnable)
        s.governors.push_back(*g);
    const Result<ClosedLoopSpec> spec = scenario::closedLoopOf(s);
    if (!spec) {
        *error = QString::fromStdString(spec.error().toString());
        return false;
    }
    // The table on as many CPUs as the loop needs, with its power data: compare --table's machine;
    // a built-in table of a board with an energy model is that board (compare --machine juno-r0),
    // whose CPU layout and cluster powers price the loop as the command line does. A loop that
    // needs more CPUs than the board has is refused as compare --machine refuses it (not run on
    // a table of as many CPUs as it asks for: numjobs=4096 was a 4096-CPU machine).
    const std::string builtinId = snap.spec.target.kind == TargetKind::Builtin ? snap.spec.target.id.toStdString() : "";
    std::optional<Machine> board = builtinMachineOfTable(builtinId, snap.table);
    if (board)
        if (Status fits = closedLoopFits(*board, *spec); !fits) {
            *error = QString::fromStdString(fits.error().toString());
            return false;
        }
    auto machine = std::make_shared<Machine>(board ? std::move(*board)
                                                   : machineOfTable(builtinId, snap.table, snap.power, spec->cpus()));

    if (progress) {
        std::vector<std::string> names;
        for (const scenario::GovernorInstance &g : s.governors)
            names.push_back(g.variant);
        progress->begin(names, spec->totalOperations());
    }
    ClosedLoopWatch watch;
    watch.cancel = &cancel;
    // The loop counts the operations of all its jobs (numjobs x ops for io): progress is of those.
    if (progress)
        watch.progress = [progress, total = spec->totalOperations()](std::size_t g, std::int64_t done) {
            progress->update(g, total - done);
        };
    // A board's other CPUs run compare's default background, as on the command line, and the
    // comparison says so in compare's words.
    std::optional<workloads::WorkloadSpec> background;
    if (machine->cpuCount() > spec->cpus()) {
        background = workloads::parseWorkloadSpec(scenario::DEFAULT_CLOSED_LOOP_BACKGROUND).value();
        snap.closedLoopBackground =
            QString::fromStdString(scenario::backgroundNote(*machine, *spec, scenario::DEFAULT_CLOSED_LOOP_BACKGROUND));
    }
    Result<std::vector<ClosedLoopRun>> runs =
        scenario::runClosedLoopScenario(s, *spec, *machine, std::max(1, QThread::idealThreadCount()), &watch,
                                        background ? &*background : nullptr);
    if (cancel.load()) {
        *error = QStringLiteral("cancelled");
        return false;
    }
    if (!runs) {
        *error = QString::fromStdString(runs.error().toString());
        return false;
    }

    auto stream = std::make_shared<const IdleStream>();
    snap.stream = stream;
    snap.streamSpanStartNs = std::make_shared<const std::vector<Ns>>();
    snap.spanClockNs = snap.streamSpanStartNs;
    snap.durations = DurationHistogram(*stream);
    snap.closedLoopMachine = machine;
    for (std::size_t k = 0; k < runs->size(); ++k)
        snap.governors.push_back(loopResult(*runnable[k], (*runs)[k], *machine));
    return true;
}

} // namespace idlescope
