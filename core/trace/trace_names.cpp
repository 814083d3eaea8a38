// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_names.h"

#include <algorithm>

namespace idlescope::trace {

const char *eventKindName(EventKind k)
{
    switch (k) {
    case EventKind::CpuIdle: return "cpu_idle";
    case EventKind::CpuIdleMiss: return "cpu_idle_miss";
    case EventKind::HrtimerStart: return "hrtimer_start";
    case EventKind::HrtimerExpire: return "hrtimer_expire_entry";
    case EventKind::HrtimerCancel: return "hrtimer_cancel";
    case EventKind::TimerExpire: return "timer_expire_entry";
    case EventKind::TickStop: return "tick_stop";
    case EventKind::IrqHandler: return "irq_handler_entry";
    case EventKind::Softirq: return "softirq_entry";
    case EventKind::IpiSend: return "ipi_send";
    case EventKind::IpiEntry: return "ipi_entry";
    case EventKind::SchedWakeup: return "sched_wakeup";
    case EventKind::SchedSwitch: return "sched_switch";
    case EventKind::CpuFrequency: return "cpu_frequency";
    }
    return "?";
}

const char *wakeCauseName(WakeCause c)
{
    switch (c) {
    case WakeCause::Tick: return "tick";
    case WakeCause::HrTimer: return "hrtimer";
    case WakeCause::Irq: return "irq";
    case WakeCause::Ipi: return "ipi";
    case WakeCause::RemoteWakeup: return "remote_wakeup";
    case WakeCause::Unknown: return "unknown";
    }
    return "?";
}

const char *warningKindName(WarningKind k)
{
    switch (k) {
    case WarningKind::Malformed: return "malformed";
    case WarningKind::UnknownLine: return "unknown_line";
    case WarningKind::OutOfOrder: return "out_of_order";
    case WarningKind::ExitWithoutEnter: return "exit_without_enter";
    case WarningKind::EnterWhileIdle: return "enter_while_idle";
    case WarningKind::TruncatedEntry: return "truncated_entry";
    case WarningKind::TruncatedSpan: return "truncated_span";
    case WarningKind::ClockNotMono: return "clock_not_mono";
    case WarningKind::LostEvents: return "lost_events";
    case WarningKind::BadCpu: return "bad_cpu";
    case WarningKind::NoSwitchEvents: return "no_switch_events";
    case WarningKind::TimerFallback: return "timer_fallback";
    case WarningKind::TimerClamped: return "timer_clamped";
    case WarningKind::EmptyCpu: return "empty_cpu";
    case WarningKind::NoIdleEvents: return "no_idle_events";
    case WarningKind::MissingSwitch: return "missing_switch";
    }
    return "?";
}

const char *traceFormatName(TraceFormat f)
{
    switch (f) {
    case TraceFormat::Unknown: return "unknown";
    case TraceFormat::FtraceText: return "ftrace text";
    case TraceFormat::TraceCmdReport: return "trace-cmd report text";
    case TraceFormat::PerfScript: return "perf script text";
    case TraceFormat::TraceCmdDat: return "trace-cmd .dat";
    }
    return "?";
}

std::string ImportWarning::toString() const
{
    std::string s = file;
    if (line > 0)
        s += ":" + std::to_string(line);
    s += ": ";
    s += warningKindName(kind);
    if (!field.empty())
        s += " (field '" + field + "')";
    s += ": " + detail;
    return s;
}

std::int64_t TraceImport::totalEntries() const
{
    std::int64_t n = 0;
    for (const CpuTrace &c : cpus)
        n += static_cast<std::int64_t>(c.entries.size());
    return n;
}

std::int64_t TraceImport::totalSpans() const
{
    std::int64_t n = 0;
    for (const CpuTrace &c : cpus)
        n += static_cast<std::int64_t>(c.spans.size());
    return n;
}

int TraceImport::cpusWithEvents() const
{
    return static_cast<int>(std::count_if(cpus.begin(), cpus.end(), [](const CpuTrace &c) { return c.events > 0; }));
}

int TraceImport::cpusWithIdleEntries() const
{
    return static_cast<int>(
        std::count_if(cpus.begin(), cpus.end(), [](const CpuTrace &c) { return !c.entries.empty(); }));
}

std::string cpuCountText(const TraceImport &t)
{
    // Three counts that differ on real traces (a header announcing idle-less CPUs, CPUs whose
    // cpu_idle events were filtered out): say all three, each with what it counts.
    const auto cpus = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " CPU" : " CPUs"); };
    std::string s = cpus(t.cpus.size()) + " in the trace";
    if (t.declaredCpus == 0)
        s += " (highest CPU number + 1; the header gives no count)";
    else if (t.declaredCpus != static_cast<int>(t.cpus.size()))
        s += " (header: " + std::to_string(t.declaredCpus) + ")";
    return s + ", " + std::to_string(t.cpusWithEvents()) + " with events, " + std::to_string(t.cpusWithIdleEntries())
           + " with idle entries";
}

} // namespace idlescope::trace
