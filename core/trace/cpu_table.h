// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cpu_table.h
 * The window's CPUs dock as a table, every text of it made here: for each
 * CPU of a trace's machine comparison (core/experiments/machine_comparison.h)
 * a row per run (the kernel's recorded run, then each governor) over the
 * CPU's replayed rows, each run summed over its CPUs ("all CPUs", as sysfs
 * sums them), and the whole trace's every complete entry as a line of its own;
 * beside each run its agreement with the kernel (trace_agreement.h). The dock
 * shows these cells; its export writes them, as CSV or Markdown, under a
 * header that says what the table is (trace, machine and tables, runs, what
 * each row covers, where energy comes from), so that the file stands alone.
 */
#pragma once

#include "core/experiments/machine_comparison.h"
#include "core/trace/trace_agreement.h"

#include <string>
#include <vector>

namespace idlescope::trace {

/// One governor's agreement with the recorded run, under the run's name in the comparison.
struct RunAgreement {
    std::string name;
    TraceAgreement agreement;
};

/// A column: its title on screen and its name in an export (CSV header, Markdown).
struct CpuTableColumn {
    std::string title; ///< "idle energy mJ"
    std::string key;   ///< "idle_energy_mJ"
};

struct CpuTableRow {
    std::string cpu;                ///< "cpu4", "all CPUs", "whole trace" or "whole trace, cpu4"
    std::string run;                ///< the run's label
    int cpuNumber = -1;             ///< the CPU, -1 for a sum over CPUs
    std::vector<std::string> cells; ///< one per column; "" where there is no value (the notes say why)
    std::string energyNote;         ///< why the energy cell is empty ("" when it is not)
    std::string agreementNote;      ///< the agreement's counts, confusion matrix and first disagreements
};

struct CpuTable {
    std::vector<CpuTableColumn> columns;
    std::vector<CpuTableRow> rows;
};

/// Column indices of cpuTable()'s cells.
enum CpuTableCol {
    CpuCol,
    RunCol,
    EntriesCol,
    AboveCol,
    BelowCol,
    MissPctCol,
    IdleMsCol,
    WakeupsCol,
    EnergyCol,
    AgreesCol
};

/// cpuTable()'s shownCpu for every CPU (each CPU's rows, the sums, the whole trace).
inline constexpr int CPU_TABLE_ALL = -1;

/**
 * The rows of @p c for @p shownCpu (CPU_TABLE_ALL: every CPU, then the sums, then the whole
 * trace; a CPU: its rows and its whole-trace line). @p agreement: the governors' agreement
 * with the recorded run (may be empty: the agrees cells stay empty).
 */
CpuTable cpuTable(const MachineComparison &c, const std::vector<RunAgreement> &agreement, int shownCpu);

/// What each row covers, the whole trace's line and the agrees column: the dock says it above
/// the table and an export in its header.
std::vector<std::string> cpuTableNotes(const MachineComparison &c);

/**
 * @p table as CSV (@p markdown false: "# " header lines, then the columns' keys and the rows)
 * or Markdown ("- " header lines, then a table). The header: the trace, the machine with its
 * tables, the runs, which CPUs are shown, cpuTableNotes(), where the energy comes from, and
 * @p extra (e.g. what the trace cannot tell).
 */
std::string formatCpuTable(const MachineComparison &c, const CpuTable &table, int shownCpu,
                           const std::vector<std::string> &extra, bool markdown);

} // namespace idlescope::trace
