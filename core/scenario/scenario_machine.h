// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_machine.h
 * A kernel trace replayed on every CPU of a scenario's machine: the one
 * resolution that `idlescope-cli compare --trace` (without --cpu) and the
 * window's CPUs dock both run, so that what reaches the engine (the CPUs
 * replayed, the latency limit on every span, the governors with their
 * settings, the kernel's own run) cannot differ between them.
 */
#pragma once

#include "core/common/error.h"
#include "core/experiments/machine_comparison.h"
#include "core/machine/machine_workload.h"
#include "core/scenario/scenario.h"

#include <optional>
#include <string>

namespace idlescope::trace {
struct TraceImport;
} // namespace idlescope::trace

namespace idlescope::scenario {

/**
 * Every CPU of the trace @p t on the machine of @p s (s.machine must be set): the exported
 * spans of each CPU the machine has, labelled "trace:" + the workload's path, with
 * s.latencyLimitNs on every span when it is >= 0. A CPU the machine lacks is refused when
 * the trace has events on it (field "machine", naming the trace), left out otherwise.
 */
Result<MachineWorkload> traceMachineWorkload(const Scenario &s, const trace::TraceImport &t);

/**
 * What runMachineComparison() runs for the trace scenario @p s: its machine,
 * traceMachineWorkload(), each governor instance with its settings, and, when
 * @p recordedGovernor is given, the kernel's own run first (labelled with that governor;
 * "" when the trace does not say which ran), keeping its entry intervals when
 * @p keepRecordedIntervals.
 */
Result<MachineCompareOptions> traceMachineComparison(const Scenario &s, const trace::TraceImport &t,
                                                     const std::optional<std::string> &recordedGovernor,
                                                     bool keepRecordedIntervals);

} // namespace idlescope::scenario
