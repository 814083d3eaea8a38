// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_agreement.h
 * How far a simulated governor agrees with the kernel that ran: for a trace
 * whose recorded governor is known, replayed on the machine's own table, the
 * share of entries where the simulated variant picked the state the kernel
 * entered, the confusion matrix (recorded state x simulated state) and the
 * first disagreements with their trace timestamps.
 *
 * Entries are paired row by row (trace_stream.h: a row is one stay up to an
 * in-idle wakeup or a task's wakeup, so each row holds one recorded entry
 * unless the tick ended some): the k-th recorded entry of a row with the
 * k-th simulated entry of the same row. Entries one side has and the other
 * has not (a tick kept or stopped differently, a poll cut at its limit) are
 * counted as unpaired, never compared.
 */
#pragma once

#include "core/common/error.h"
#include "core/machine/machine.h"
#include "core/replay/governor_run.h"
#include "core/trace/trace_model.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace idlescope::trace {

/// The counts of one CPU, or of every CPU summed (cpu = -1).
struct CpuAgreement {
    int cpu = -1;
    int stateCount = 0;                ///< rows and columns of the matrix in use
    std::int64_t recordedEntries = 0;  ///< complete recorded entries in the replayed rows
    std::int64_t simulatedEntries = 0; ///< the simulated run's entries
    std::int64_t paired = 0;           ///< entries compared (the k-th of a row on both sides)
    std::int64_t agreed = 0;           ///< of those, the same state
    /// matrix[recorded][simulated]: paired entries by state (recorded states past the
    /// table's deepest are counted in it, as the recorded run draws them).
    std::array<std::array<std::int64_t, CPUIDLE_STATE_MAX>, CPUIDLE_STATE_MAX> matrix{};

    /// agreed / paired, 0 without pairs.
    double share() const { return paired ? static_cast<double>(agreed) / static_cast<double>(paired) : 0.0; }
    void add(const CpuAgreement &o);
};

/// A paired entry whose states differ.
struct Disagreement {
    int cpu = 0;
    std::int32_t row = 0; ///< stream row
    Ns traceNs = 0;       ///< the recorded entry's cpu_idle enter, trace clock
    Ns residencyNs = 0;   ///< its measured residency
    int recordedState = 0;
    int simulatedState = 0;
};

struct TraceAgreement {
    std::string variant;
    std::string recordedGovernor;        ///< as given (TRACE.governor, --recorded-governor)
    std::vector<CpuAgreement> cpus;      ///< CPUs with replayed rows, by number
    CpuAgreement total;                  ///< summed
    std::vector<Disagreement> first;     ///< the earliest disagreements over all CPUs, by trace time
    std::vector<std::string> stateNames; ///< the first CPU's table's names (matrix labels)
    /// The oracle (which knows every wakeup) paired the same way: the baseline a
    /// variant's share is read against. On a trace without timer events every
    /// replayed governor knows the future, and the shares sit near this one.
    CpuAgreement oracle;
    std::vector<std::string> limits; ///< what the trace cannot tell (traceLimitTexts())
};

/**
 * Pairs @p recorded (recordedEntries() of one CPU, its startNs on the trace clock minus
 * @p originNs) with @p simulated (a replay of the same stream rows), row by row. Adds up
 * to @p keep disagreements, in row order, to @p first (may be null).
 */
CpuAgreement compareEntries(const GovernorRun &recorded, const GovernorRun &simulated, int cpu, int stateCount,
                            Ns originNs, std::size_t keep, std::vector<Disagreement> *first);

/**
 * Every CPU of @p trace with replayed rows: its recorded entries against @p variant (with
 * @p settings) replayed on its cluster's table of @p machine. @p keep: disagreements kept
 * over all CPUs. Errors: an unknown variant or setting (field "governor"), a CPU of the
 * trace the machine lacks or a recorded state its table lacks (field "machine": not the
 * machine's own table), a trace whose entries are all in state 1 (field "trace": what the
 * kernel logs with no cpuidle driver, so there are no governor choices to agree with).
 */
Result<TraceAgreement> traceAgreement(const TraceImport &trace, const Machine &machine, const std::string &variant,
                                      const std::vector<TunableSetting> &settings, std::size_t keep = 10);

/// Text for people: the share per CPU and summed, the matrix, the first disagreements.
std::string formatAgreementText(const TraceAgreement &a);
/// The same as one JSON object.
std::string formatAgreementJson(const TraceAgreement &a);

} // namespace idlescope::trace
