// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/replay/entry_end.h"

namespace idlescope {

EntryEnd entryEnd(EntryFlags flags)
{
    // A tie of the tick with the wakeup counts as the wakeup: the replay marks both.
    if (flags & ENTRY_WOKEN_BY_WAKEUP)
        return (flags & ENTRY_TIMER_WAKE) ? EntryEnd::Timer : EntryEnd::Wakeup;
    if (flags & ENTRY_IN_IDLE_WAKE)
        return EntryEnd::InIdleIrq;
    if (flags & ENTRY_POLL_TIME_LIMIT)
        return EntryEnd::PollLimit;
    if (flags & ENTRY_GOT_TICK)
        return EntryEnd::Tick;
    return EntryEnd::Other;
}

EntryEnd entryEnd(const EntryRecord &e)
{
    return entryEnd(entryFlags(e));
}

const char *entryEndName(EntryEnd e)
{
    switch (e) {
    case EntryEnd::Timer: return "timer";
    case EntryEnd::Wakeup: return "wakeup";
    case EntryEnd::Tick: return "tick";
    case EntryEnd::PollLimit: return "poll limit";
    case EntryEnd::InIdleIrq: return "in-idle interrupt";
    case EntryEnd::Other: break;
    }
    return "other";
}

const char *entryEndMeaning(EntryEnd e)
{
    switch (e) {
    case EntryEnd::Timer: return "the row's own timer, the wakeup the sleep length announced: a task was woken";
    case EntryEnd::Wakeup: return "a wakeup announced by no timer (IPI or device interrupt): a task was woken";
    case EntryEnd::Tick: return "the scheduler tick: no task was woken, the CPU idles again";
    case EntryEnd::PollLimit: return "the poll time limit: no task was woken, the CPU idles again";
    case EntryEnd::InIdleIrq:
        return "an interrupt whose handler woke no task (need_resched not set): the CPU stayed in the idle loop "
               "and selects again, the tick as it was";
    case EntryEnd::Other: break;
    }
    return "none of the above was marked (the tick or an interrupt the trace does not name)";
}

} // namespace idlescope
