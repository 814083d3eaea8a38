// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file wake_delay_source.h
 * Where a state's wake delay (core/states/wake_delay.h) comes from, as the
 * Target group's state table says it: a measured file (a wult CSV, the
 * scenario's --wake-delays), an edit in the window, the device tree (a table
 * whose exit latency is its wake delay + entry cost, which is how
 * drivers/cpuidle/dt_idle_states.c sums exit-latency-us and entry-latency-us),
 * the table's own figure otherwise, or none: the exit latency stands in.
 */
#pragma once

#include "core/formats/wult_csv.h"
#include "core/states/idle_state_table.h"

#include <QString>

#include <vector>

namespace idlescope {

enum class WakeDelaySource {
    ExitLatency, ///< the table gives none: the state wakes in its exit latency
    Table,       ///< the table's wake_delay_ns (a documented figure, see its wake_delay_note)
    DeviceTree,  ///< the device tree's exit-latency-us (exit latency = wake delay + entry cost)
    Edited,      ///< typed in the window (wake delay or entry cost differ from the table's source)
    Measured,    ///< the mean of a measured file's samples of the state
};

/// The state of @p measured named @p name, or null.
const MeasuredWakeDelay *measuredFor(const std::vector<MeasuredWakeDelay> &measured, const std::string &name);

/**
 * The source of the wake delay of @p state, a state of the table in force, whose form as
 * its source gives it (before any edit) is @p pristine (null when unknown: a table of
 * another shape). @p measured is the file's sample of the state, if any.
 */
WakeDelaySource wakeDelaySource(const IdleState &state, const IdleState *pristine, const MeasuredWakeDelay *measured);

/// The Target table's short word for @p source ("wult", "DT", "table", "edited", "exit").
QString wakeDelaySourceWord(WakeDelaySource source);

/// One sentence for a tooltip: where the wake delay and the entry cost of @p state come from.
QString wakeDelaySourceText(WakeDelaySource source, const IdleState &state, const MeasuredWakeDelay *measured,
                            const QString &fileName);

} // namespace idlescope
