// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file entry_end.h
 * What ended an idle entry, read from the marks the replay (or a trace's
 * recorded run) left in its flags, and the one word every view uses for it:
 * the entries list's "ended by" column and filter, the inspector's "what ended
 * it" and its trace section. Named once here, so that the list and the
 * inspector never call the same entry "wakeup" in one place and "unknown" in
 * another.
 */
#pragma once

#include "core/replay/governor_run.h"

#include <cstdint>

namespace idlescope {

/// What ended an entry. InIdleIrq: an interrupt that woke no task (need_resched = 0); the CPU
/// stayed in the idle loop.
enum class EntryEnd : std::uint8_t { Timer, Wakeup, Tick, PollLimit, Other, InIdleIrq };
inline constexpr int ENTRY_END_COUNT = 6;

/// From GovernorRun::flags: the row's wakeup (its timer or not) first, then an in-idle
/// interrupt, the poll time limit, the tick; Other when none is marked.
EntryEnd entryEnd(EntryFlags flags);
/// The same for one replayed entry (the inspector's EntryRecord), by the same marks.
EntryEnd entryEnd(const EntryRecord &e);

/// The word for @p e: "timer", "wakeup", "tick", "poll limit", "other", "in-idle interrupt".
const char *entryEndName(EntryEnd e);

/// What the word means, for the inspector: "a wakeup announced by no timer (IPI or device
/// interrupt): a task was woken".
const char *entryEndMeaning(EntryEnd e);

} // namespace idlescope
