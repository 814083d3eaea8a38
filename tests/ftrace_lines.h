// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file ftrace_lines.h
 * Hand-written kernel traces for the importer's tests, one ftrace text line
 * at a time ("  comm-pid [cpu] flags SECONDS: event: fields"), so that each
 * test can build exactly the events a rule of idle_reconstructor.h reads.
 */
#pragma once

#include <cstdio>
#include <string>

namespace idlescope::test {

/// The line of @p event with @p fields on @p cpu at @p us microseconds.
inline std::string ftraceLine(int cpu, double us, const char *event, const std::string &fields)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, "  task-1 [%03d] d..1. %.6f: %s: %s\n", cpu, us / 1e6, event, fields.c_str());
    return buf;
}

/// A task switches to the idle task on @p cpu.
inline std::string switchToIdle(int cpu, double us)
{
    return ftraceLine(cpu, us, "sched_switch",
                      "prev_comm=a prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 "
                      "next_prio=120");
}

/// The idle task switches to a task on @p cpu.
inline std::string switchFromIdle(int cpu, double us)
{
    return ftraceLine(cpu, us, "sched_switch",
                      "prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=5 "
                      "next_prio=120");
}

/// cpu_idle entering @p state on @p cpu.
inline std::string idleEnter(int cpu, double us, int state)
{
    return ftraceLine(cpu, us, "cpu_idle", "state=" + std::to_string(state) + " cpu_id=" + std::to_string(cpu));
}

/// cpu_idle's exit (PWR_EVENT_EXIT) on @p cpu.
inline std::string idleExit(int cpu, double us)
{
    return ftraceLine(cpu, us, "cpu_idle", "state=4294967295 cpu_id=" + std::to_string(cpu));
}

} // namespace idlescope::test
