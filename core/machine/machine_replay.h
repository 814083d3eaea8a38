// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file machine_replay.h
 * Replays a machine workload through governors: every CPU with its
 * cluster's table and a governor instance of its own, every (governor, CPU)
 * pair a job of its own spread over worker threads (the largest streams
 * first, so that the threads end together). Each job is the reference replay
 * of that CPU's stream, unchanged: a one-CPU machine gives exactly
 * replayStream()'s counters (tst_machine). Results do not depend on the
 * number of threads. Memory: the counters only, unless the cluster view is
 * asked for (keepIntervals: 24 bytes per entry).
 */
#pragma once

#include "core/common/error.h"
#include "core/machine/machine.h"
#include "core/machine/machine_run.h"
#include "core/machine/machine_workload.h"
#include "core/replay/governor_run.h"

#include <atomic>
#include <string>
#include <vector>

namespace idlescope {

struct MachineReplayOptions {
    std::vector<std::string> governors;                ///< variant ids
    std::vector<std::vector<TunableSetting>> settings; ///< per governor (may be shorter: none)
    int threads = 2;
    bool keepIntervals = false;                ///< fill CpuRun::intervals (cluster view)
    const std::atomic<bool> *cancel = nullptr; ///< polled every 4096 spans
};

/// The counters of one CPU's replay (the job of one thread), with @p intervals its entries'
/// intervals of that kind (IntervalKind::InState on the stream's real clock: replayDurationNs()'s,
/// the replay's own less the exits' shift so far) or none.
CpuRun replayCpu(const IdleStateTable &table, const CpuStream &stream, Governor &governor, IntervalKind intervals,
                 const std::atomic<bool> *cancel = nullptr);

/**
 * One MachineRun per governor, in the order given. CPUs with an empty stream
 * are listed in MachineRun::skipped with the stream's emptyReason.
 * Errors: an invalid machine, a stream for a CPU the machine does not have
 * (field "cpu"), an unknown governor or a rejected setting; Error::cancelled() when o.cancel is raised.
 */
Result<std::vector<MachineRun>> replayMachine(const Machine &machine, const MachineWorkload &workload,
                                              const MachineReplayOptions &options);

} // namespace idlescope
