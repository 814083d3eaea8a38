// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file machine_workload.h
 * A workload on a machine: one idle-span stream per CPU (the reference
 * replay's stream model, core/stream/idle_span.h), placed on a common time
 * axis by a per-CPU offset, so that the cluster view can tell when every CPU
 * of a cluster was idle at once. CPUs with nothing to replay keep the reason.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/stream/idle_span.h"

#include <string>
#include <vector>

namespace idlescope {

struct CpuStream {
    int cpu = 0;
    IdleStream stream;
    /// Where this CPU's replay time 0 (REPLAY_START_NS) lies on the machine's axis.
    Ns offsetNs = 0;
    /// Why the stream is empty (e.g. a trace CPU with no complete idle span).
    std::string emptyReason;
    /// When not empty, the start of every stream row on the machine's axis (a trace's own
    /// clock, placeOnTraceClock()): kept entry intervals are then drawn there, each at its
    /// offset within its span, instead of on the replay's own clock (which every exit
    /// latency and every span the stream leaves out moves away from the trace).
    std::vector<Ns> spanStartNs;
    /// The I/Os the stream's io generators complete (the completions this CPU handles as the
    /// submitter, core/workloads/io_interrupts.h); -1 when its workload has no io generator.
    std::int64_t ioOps = -1;
};

struct MachineWorkload {
    std::string label;           ///< e.g. "trace:FILE"
    std::vector<CpuStream> cpus; ///< by CPU number, every CPU of the machine at most once
};

} // namespace idlescope
