// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file compare_machine.h
 * compare on a whole machine: every CPU of a trace (the default of
 * compare --trace) or a synthetic workload on every CPU of --machine, with
 * the kernel's recorded choices beside the governors for a trace. The work
 * is core/experiments/machine_comparison.h; this file reads options.
 */
#pragma once

#include "app/cli/cli_args.h"
#include "core/experiments/comparison.h"
#include "core/scenario/scenario.h"
#include "core/states/power_model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace idlescope::cli {

/// The options cmd_compare.cpp has already read and checked.
struct MachineCliOptions {
    experiments::CompareFormat format = experiments::CompareFormat::Markdown;
    int threads = 2;
    /// What compare's options name (core/scenario/scenario_command.h): the workload with its
    /// spans or duration and seed, the governors with their settings (labels only reach a
    /// closed loop), the latency limit and --hz. Its machine is resolved here, from --machine,
    /// --table or the trace.
    scenario::Scenario scenario;
};

/// The power data of --table @p table: a table file's power fields (core/io/power_json.h),
/// then every --power item applied over them.
Result<PowerModel> tablePower(const Args &args, const IdleStateTable &table);

/// True when compare should run on a machine: --machine, or --trace without --cpu.
bool wantsMachineCompare(const Args &args);

int runMachineCompare(const Args &args, const MachineCliOptions &options);

/// compare --closed-loop SPEC (core/experiments/closed_loop.h) on --table or --machine.
int runClosedLoopCompare(const Args &args, const MachineCliOptions &options);

} // namespace idlescope::cli
