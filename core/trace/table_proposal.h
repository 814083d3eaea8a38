// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file table_proposal.h
 * Which idle-state table a trace was recorded with, as far as the trace and
 * its directory tell: the table `idlescope-cli record` saves beside the trace
 * (TRACE.table.json, read from the machine's sysfs when it recorded), and the
 * number of states its power:cpu_idle events enter, and a description of the
 * machine kept beside it (uname, lscpu and the cpuidle sysfs lines, as
 * tests/data/traces/vm-amd-2cpu.machine.txt: its architecture, whether it is a
 * virtual machine, its cpuidle driver). The window proposes a table from this
 * when a trace is opened, saying why, instead of replaying it silently with
 * whatever table was chosen before.
 *
 * No trace format names the driver or the state names, and a machine without a
 * cpuidle driver still writes cpu_idle events (the default idle call's, state
 * 1): an x86 KVM guest traced that way entered "two states" and was offered
 * an Arm table. With the machine described, a table of another architecture is
 * never proposed, the machine's own driver comes first, and an x86 virtual
 * machine without a driver is offered the haltpoll guest's table.
 */
#pragma once

#include "core/trace/trace_model.h"

#include <string>
#include <utility>
#include <vector>

namespace idlescope::trace {

struct TableProposal {
    std::string sidecarPath; ///< "<trace>.table.json" when that file exists, else ""
    int statesSeen = 0;      ///< deepest cpu_idle state entered + 1 (0: no entry)
};

/// The proposal for the trace read from @p tracePath.
TableProposal tableProposal(const std::string &tracePath, const TraceImport &trace);

/// The ids of @p tables (id, state count) with exactly @p statesSeen states, in the order given.
std::vector<std::string> tablesWithStates(const std::vector<std::pair<std::string, int>> &tables, int statesSeen);

/// What a machine description says (every field "" when it does not say).
struct TracedMachine {
    std::string path;        ///< the file read ("" when there is none)
    std::string arch;        ///< "x86", "arm64", "powerpc" (from uname or lscpu's Architecture)
    std::string driver;      ///< cpuidle current_driver: "intel_idle", "none"
    bool hypervisor = false; ///< a virtual machine: lscpu's "hypervisor" flag or "Hypervisor vendor"
};

/// The fields of a machine description's text: a uname line ("Linux vm 6.18 … x86_64
/// GNU/Linux"), lscpu's "Architecture:", "Flags:" and "Hypervisor vendor:" lines, and a
/// "current_driver:" line (the sysfs file's name, a ':' and its value).
TracedMachine parseMachineDescription(const std::string &text);

/// The description beside the trace at @p tracePath: "<trace>.machine.txt", else a
/// "<prefix>.machine.txt" in its folder whose prefix begins the trace's file name
/// (vm-amd-2cpu.machine.txt for vm-amd-2cpu-pipe100us.ftrace.txt.gz); empty when none.
TracedMachine machineBesideTrace(const std::string &tracePath);

/// The architecture a cpuidle driver runs on ("x86", "arm64", "powerpc"; "" unknown).
std::string driverArch(const std::string &driver);

/// A built-in table as proposeTables() weighs it.
struct TableCandidate {
    std::string id;
    std::string driver; ///< the cpuidle driver the table is that of
    int stateCount = 0;
};

/// A proposed table and why, in a sentence's words.
struct TableChoice {
    std::string id;
    std::string why; ///< e.g. "the machine's driver, intel_idle; 4 states, as the trace enters"
};

/**
 * The tables of @p tables that fit a trace entering @p statesSeen states on @p machine,
 * best first: none of another architecture than the machine's; the machine's driver
 * first (an x86 virtual machine without one: the haltpoll guest's driver, "haltpoll"),
 * then the state count. Without a description: the tables with @p statesSeen states.
 */
std::vector<TableChoice> proposeTables(const std::vector<TableCandidate> &tables, int statesSeen,
                                       const TracedMachine &machine);

} // namespace idlescope::trace
