// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file same_wakeup.h
 * The same moment of a stream in two runs of it. Entry indices do not carry
 * over from one run to another: a governor that stops the tick, or polls to
 * its time limit, takes another number of entries for the same span, so
 * entry 1000 of one run is another wakeup in the next. The stream row does
 * carry over, and with it the position within the row.
 */
#pragma once

#include "core/replay/governor_run.h"

#include <cstdint>

namespace idlescope {

/**
 * The entry of @p now that is the same wakeup as entry @p entry of @p before (both runs of
 * the same stream): as many entries into the same stream span as @p entry is into its span,
 * or the span's last entry when the span takes fewer entries in @p now. -1 when @p entry is
 * not an entry of @p before, or @p now has no entry in that span.
 */
std::int64_t sameWakeupEntry(const GovernorRun &before, std::int64_t entry, const GovernorRun &now);

} // namespace idlescope
