// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file machine_comparison.h
 * A comparison on a whole machine: the kernel threads' question "on this
 * machine, with this workload, what does the patch change in misses and
 * energy?". Every listed governor replays every CPU of the workload
 * (machine_replay.h); a recorded run (a trace's kernel choices,
 * trace_machine.h) may stand beside them; each run gets its energy
 * (energy.h) and, when asked, its cluster view (cluster_view.h). The CLI's
 * compare --trace and, later, the GUI read this one result.
 */
#pragma once

#include "core/common/error.h"
#include "core/energy/energy.h"
#include "core/machine/cluster_view.h"
#include "core/machine/machine.h"
#include "core/machine/machine_run.h"
#include "core/machine/machine_workload.h"
#include "core/replay/governor_run.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace idlescope {

struct MachineCompareOptions {
    Machine machine;
    MachineWorkload workload;
    std::vector<std::string> governors; ///< variant ids
    std::vector<std::string> settings;  ///< compare's --set items (governor_settings.h)
    /// Parsed settings per governor (the window's governors carry them parsed); used
    /// instead of settings when not empty.
    std::vector<std::vector<TunableSetting>> tunables;
    std::optional<MachineRun> recorded; ///< shown first when given
    bool clusterView = false;           ///< keep entry intervals and compute the cluster view
    /// Keep every run's entry intervals (CpuRun::intervals) after the cluster view: the
    /// window draws them as per-CPU lanes. Implies the intervals are recorded.
    bool keepIntervals = false;
    int threads = 2;
    const std::atomic<bool> *cancel = nullptr;
};

/// The name of the run that holds a trace's every complete entry (MachineRun::wholeTrace of the
/// recorded run), listed right after the recorded run: a separate, labelled line.
inline constexpr const char *WHOLE_TRACE_RUN = "recorded-whole-trace";

struct MachineComparison {
    Machine machine;
    std::string workloadLabel;
    /// The recorded run (if any; its replayed rows), the whole trace's (WHOLE_TRACE_RUN), then the governors.
    std::vector<MachineRun> runs;
    std::vector<RunEnergy> energy;                  ///< per run
    std::vector<std::vector<ClusterIdle>> clusters; ///< per run, empty without clusterView
    std::vector<std::vector<double>> clusterIdleJ;  ///< per run and cluster, NaN without cluster power data
};

/// Errors: those of settingsPerGovernor() and replayMachine().
Result<MachineComparison> runMachineComparison(const MachineCompareOptions &options);

} // namespace idlescope
