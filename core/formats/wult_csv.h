// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file wult_csv.h
 * Measured wake delays from wult's datapoints.csv (intel/wult, "Wake Up
 * Latency Tracer"): one row per measured wakeup, with the Linux idle state
 * that was requested (column ReqCState, a name such as "C6") and the time from
 * the wakeup event to the first instruction after it (column WakeLatency,
 * microseconds, as wult's defs/wult/wult.yml defines it). Other columns are
 * not read.
 *
 * The samples of a state become its wake delay as their mean: the run's time
 * spent waking is a sum of delays, whose expectation is the count times the
 * mean, so the mean is what throughput and energy need from the distribution
 * (its tail, the p99 of an operation's latency, is left out).
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace idlescope {

/// One requested state's samples.
struct MeasuredWakeDelay {
    std::string state;        ///< ReqCState
    std::int64_t samples = 0; ///< rows
    Ns meanNs = 0;            ///< mean WakeLatency, rounded to ns
};

/// Per state in order of first appearance. Errors name @p label, the line and the column:
/// no header, a header without WakeLatency or ReqCState, a row with too few fields, a
/// WakeLatency that is not a finite number >= 0, an empty ReqCState, no rows.
Result<std::vector<MeasuredWakeDelay>> parseWultCsv(std::string_view text, const std::string &label);

/// The same from a file (plain or gzip, at most a few hundred MB of rows read line by line).
Result<std::vector<MeasuredWakeDelay>> readWultCsv(const std::string &path);

/**
 * Sets the wake delay of each state of @p table that @p measured names, and notes the
 * file in wakeDelayNote. Errors (file @p label, field "ReqCState"): a measured state the
 * table has no state of that name for (the table is left unchanged then).
 */
Status applyMeasuredWakeDelays(IdleStateTable &table, const std::vector<MeasuredWakeDelay> &measured,
                               const std::string &label);

/// readWultCsv() of @p path applied to @p table (applyMeasuredWakeDelays()); nothing when @p path
/// is empty. A scenario's --wake-delays (Scenario::wakeDelaysPath), read by every front end here.
Status applyWakeDelaysFile(IdleStateTable &table, const std::string &path);

} // namespace idlescope
