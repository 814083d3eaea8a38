// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * One line of trace text -> one TraceEvent.
 *
 * The three layouts differ in the columns before the timestamp and in how a
 * few events print their fields, so the parser anchors on what they share:
 *
 *   1. the CPU column "[NNN]" (the first "[digits]" preceded by a blank);
 *   2. an optional latency-flags word ("d..1", "dN.1.", "d.h2.") that does not end in ':';
 *   3. the timestamp word "SECONDS.FRACTION:";
 *   4. the event name up to the first ':' followed by a blank or the end of the
 *      line; perf script prefixes it with the subsystem ("power:cpu_idle"),
 *      which is dropped;
 *   5. the fields, read by "key=" where the kernel prints key=value, and by
 *      position for the sched_switch / sched_wakeup layouts of trace-cmd's
 *      plugins ("comm:pid [prio] S ==> comm:pid [prio]", "comm:pid [prio] CPU:NNN").
 *
 * The task column is never needed (the idle task is recognised from
 * sched_switch's pids), which is why comms with blanks, dashes or brackets do
 * not matter as long as they precede the CPU column.
 */
#include "core/trace/text_line_parser.h"

#include "core/trace/text_fields.h"

#include <array>
#include <cstring>

namespace idlescope::trace {

using namespace text;

namespace {

struct KnownEvent {
    std::string_view name;
    int id;
};

// Ids used by parseFields' switch.
enum : int {
    E_CPU_IDLE,
    E_CPU_IDLE_MISS,
    E_HRTIMER_START,
    E_HRTIMER_EXPIRE,
    E_HRTIMER_CANCEL,
    E_TIMER_EXPIRE,
    E_TICK_STOP,
    E_IRQ,
    E_SOFTIRQ,
    E_IPI_SEND_CPU,
    E_IPI_SEND_MASK,
    E_IPI_RAISE,
    E_IPI_ENTRY,
    E_VECTOR_IPI,
    E_WAKEUP,
    E_SWITCH,
    E_CPU_FREQUENCY,
};

constexpr std::array<KnownEvent, 20> KNOWN = {{
    {"cpu_idle", E_CPU_IDLE},
    {"cpu_idle_miss", E_CPU_IDLE_MISS},
    {"hrtimer_start", E_HRTIMER_START},
    {"hrtimer_expire_entry", E_HRTIMER_EXPIRE},
    {"hrtimer_cancel", E_HRTIMER_CANCEL},
    {"timer_expire_entry", E_TIMER_EXPIRE},
    {"tick_stop", E_TICK_STOP},
    {"irq_handler_entry", E_IRQ},
    {"softirq_entry", E_SOFTIRQ},
    {"ipi_send_cpu", E_IPI_SEND_CPU},
    {"ipi_send_cpumask", E_IPI_SEND_MASK},
    {"ipi_raise", E_IPI_RAISE},
    {"ipi_entry", E_IPI_ENTRY},
    {"reschedule_entry", E_VECTOR_IPI},
    {"call_function_entry", E_VECTOR_IPI},
    {"call_function_single_entry", E_VECTOR_IPI},
    {"sched_wakeup", E_WAKEUP},
    {"sched_wakeup_new", E_WAKEUP},
    {"sched_switch", E_SWITCH},
    {"cpu_frequency", E_CPU_FREQUENCY},
}};

int lookupEvent(std::string_view name)
{
    for (const KnownEvent &k : KNOWN)
        if (k.name.size() == name.size() && k.name == name)
            return k.id;
    return -1;
}

// Position of the CPU column "[digits]" preceded by a blank, or npos.
size_t findCpuColumn(std::string_view line, int &cpu)
{
    size_t pos = 0;
    while ((pos = line.find('[', pos)) != std::string_view::npos) {
        if (pos > 0 && isBlank(line[pos - 1])) {
            size_t k = pos + 1;
            int v = 0;
            while (k < line.size() && line[k] >= '0' && line[k] <= '9' && k - pos <= 6)
                v = v * 10 + (line[k++] - '0');
            if (k > pos + 1 && k < line.size() && line[k] == ']') {
                cpu = v;
                return k + 1;
            }
        }
        ++pos;
    }
    return std::string_view::npos;
}

// "comm:pid [prio]..." layout: the pid just before the last " [" of @p part.
std::optional<std::int64_t> pluginPid(std::string_view part)
{
    const size_t br = part.rfind(" [");
    if (br == std::string_view::npos)
        return std::nullopt;
    const std::string_view head = part.substr(0, br);
    const size_t colon = head.rfind(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    const std::string_view digits = head.substr(colon + 1);
    const auto v = parseDec(digits);
    if (!v || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    return static_cast<std::int64_t>(*v);
}

// A function name as printed by %ps ("tick_nohz_handler") or trace-cmd ("tick_nohz_handler/0x0").
std::string_view functionName(std::string_view v)
{
    const size_t slash = v.find('/');
    return slash == std::string_view::npos ? v : v.substr(0, slash);
}

} // namespace

bool isTickFunction(std::string_view f)
{
    return f == "tick_nohz_handler" || f == "tick_sched_timer" || f == "tick_nohz_highres_handler"
           || f == "tick_handle_periodic" || f == "tick_nohz_lowres_handler";
}

LineKind TextLineParser::malformed(std::string_view field, std::string detail)
{
    m_issueField = field;
    m_issueDetail = std::move(detail);
    return LineKind::Malformed;
}

LineKind TextLineParser::parseHeader(std::string_view line)
{
    if (line.starts_with("#")) {
        if (line.starts_with("# tracer:"))
            m_hint = TraceFormat::FtraceText;
        if (const size_t p = line.find("#P:"); p != std::string_view::npos)
            if (const auto n = parseDec(line.substr(p + 3)); n && *n <= 65536)
                m_declaredCpus = static_cast<int>(*n);
        return LineKind::Header;
    }
    if (line.starts_with("cpus=")) {
        if (const auto n = parseDec(line.substr(5)); n && *n <= 65536)
            m_declaredCpus = static_cast<int>(*n);
        m_hint = TraceFormat::TraceCmdReport;
        return LineKind::Header;
    }
    if (line.starts_with("version = ")) {
        m_hint = TraceFormat::TraceCmdReport;
        return LineKind::Header;
    }
    // "CPU:1 [LOST 42 EVENTS]" (kernel and trace-cmd), "CPU 3 is empty" (trace-cmd).
    if (line.starts_with("CPU")) {
        const size_t lost = line.find("[LOST ");
        if (lost != std::string_view::npos) {
            const auto cpu = parseDec(trimLeft(line.substr(line[3] == ':' ? 4 : 3)));
            const auto n = parseDec(line.substr(lost + 6));
            m_lostCpu = cpu ? static_cast<int>(*cpu % 1000000) : -1;
            m_lostCount = n ? static_cast<std::int64_t>(*n) : 0;
            return LineKind::Lost;
        }
        if (line.ends_with(" is empty"))
            return LineKind::Header;
    }
    return LineKind::NotEvent;
}

LineKind TextLineParser::parse(std::string_view line, TraceEvent &event)
{
    line = trimLeft(line);
    while (!line.empty() && (isBlank(line.back()) || line.back() == '\r'))
        line.remove_suffix(1);
    if (line.empty())
        return LineKind::Blank;
    if (line[0] == '#' || line[0] == 'c' || line[0] == 'v' || line[0] == 'C') {
        const LineKind k = parseHeader(line);
        if (k != LineKind::NotEvent)
            return k;
    }

    int cpu = -1;
    size_t pos = findCpuColumn(line, cpu);
    if (pos == std::string_view::npos)
        return LineKind::NotEvent;
    std::string_view rest = trimLeft(line.substr(pos));

    // Optional latency flags, then "SECONDS.FRACTION:".
    size_t word = 0;
    while (word < rest.size() && !isBlank(rest[word]))
        ++word;
    if (word == 0)
        return LineKind::NotEvent;
    if (rest[word - 1] != ':') {
        rest = trimLeft(rest.substr(word));
        word = 0;
        while (word < rest.size() && !isBlank(rest[word]))
            ++word;
        if (word == 0 || rest[word - 1] != ':')
            return LineKind::NotEvent;
    }
    const auto ts = parseTimestamp(rest.substr(0, word - 1));
    if (!ts)
        return LineKind::NotEvent;
    rest = trimLeft(rest.substr(word));

    // Event name: up to the first ':' that ends a word.
    size_t colon = 0;
    for (;; ++colon) {
        colon = rest.find(':', colon);
        if (colon == std::string_view::npos)
            return malformed("event", "no event name after the timestamp");
        if (colon + 1 == rest.size() || isBlank(rest[colon + 1]))
            break;
    }
    std::string_view name = rest.substr(0, colon);
    if (const size_t sub = name.rfind(':'); sub != std::string_view::npos) {
        name.remove_prefix(sub + 1); // perf script's "power:cpu_idle"
        if (m_hint == TraceFormat::Unknown)
            m_hint = TraceFormat::PerfScript;
    }
    if (name.empty())
        return malformed("event", "empty event name");
    const std::string_view fields = trimLeft(rest.substr(colon + 1));

    event = TraceEvent{};
    event.ts = *ts;
    event.cpu = cpu;
    return parseFields(name, fields, event);
}

namespace {

/// The decimal value of @p key in @p fields into @p out; false (and @p out as it was) when
/// the key is missing or its value is not a number.
bool decimalField(std::string_view fields, std::string_view key, std::int64_t &out)
{
    const auto v = valueOf(fields, key);
    const auto n = v ? parseSignedDec(*v) : std::nullopt;
    if (n)
        out = *n;
    return n.has_value();
}

/// The hexadecimal value of @p key (an address: hrtimer=0x...) into @p out, as decimalField().
bool hexField(std::string_view fields, std::string_view key, std::uint64_t &out)
{
    const auto v = valueOf(fields, key);
    const auto n = v ? parseHex(*v) : std::nullopt;
    if (n)
        out = *n;
    return n.has_value();
}

} // namespace

bool TextLineParser::internFunction(std::string_view fields, TraceEvent &ev)
{
    const auto v = valueOf(fields, "function=");
    if (!v || v->empty())
        return false;
    ev.nameId = m_names.intern(functionName(*v));
    return true;
}

LineKind TextLineParser::parseCpuIdle(bool miss, std::string_view fields, TraceEvent &ev)
{
    // power:cpu_idle "state=%lu cpu_id=%lu", the exit written as state=4294967295 (or -1);
    // power:cpu_idle_miss adds "type=above|below".
    ev.kind = miss ? EventKind::CpuIdleMiss : EventKind::CpuIdle;
    if (!decimalField(fields, "state=", ev.arg))
        return malformed("state", "missing or not a number");
    if (ev.arg == PWR_EVENT_EXIT || ev.arg == -1)
        ev.arg = -1;
    else if (ev.arg < 0 || ev.arg >= 64)
        return malformed("state", "state " + std::to_string(ev.arg) + " is not an idle state index");
    if (!decimalField(fields, "cpu_id=", ev.target) || ev.target < 0)
        return malformed("cpu_id", "missing or not a number");
    if (miss) {
        const auto type = valueOf(fields, "type=");
        if (!type || (*type != "above" && *type != "below"))
            return malformed("type", "expected type=above or type=below");
        ev.flag = *type == "below";
    }
    return LineKind::Event;
}

LineKind TextLineParser::parseTimerEvent(int id, std::string_view fields, TraceEvent &ev)
{
    // The timer events (timer:hrtimer_*, timer:timer_expire_entry, timer:tick_stop): the
    // hrtimer's address and callback, and when it expires or fired.
    switch (id) {
    case E_HRTIMER_START:
    case E_HRTIMER_EXPIRE: {
        const bool start = id == E_HRTIMER_START;
        ev.kind = start ? EventKind::HrtimerStart : EventKind::HrtimerExpire;
        if (!hexField(fields, "hrtimer=", ev.ptr))
            return malformed("hrtimer", "missing or not a hex address");
        if (!internFunction(fields, ev))
            return malformed("function", "missing");
        if (!decimalField(fields, start ? "expires=" : "now=", ev.timeNs))
            return malformed(start ? "expires" : "now", "missing or not a number");
        return LineKind::Event;
    }
    case E_HRTIMER_CANCEL:
        ev.kind = EventKind::HrtimerCancel;
        if (!hexField(fields, "hrtimer=", ev.ptr))
            return malformed("hrtimer", "missing or not a hex address");
        return LineKind::Event;
    case E_TIMER_EXPIRE:
        ev.kind = EventKind::TimerExpire;
        internFunction(fields, ev);
        return LineKind::Event;
    default: // E_TICK_STOP
        ev.kind = EventKind::TickStop;
        if (!decimalField(fields, "success=", ev.arg))
            return malformed("success", "missing or not a number");
        ev.flag = ev.arg != 0;
        return LineKind::Event;
    }
}

LineKind TextLineParser::parseInterruptEvent(int id, std::string_view fields, TraceEvent &ev)
{
    // What wakes an idle CPU without a task: an interrupt's handler, a softirq, and an IPI
    // as sent (to a CPU, a CPU list or a hex mask) or as taken.
    switch (id) {
    case E_IRQ: {
        ev.kind = EventKind::IrqHandler;
        if (!decimalField(fields, "irq=", ev.arg))
            return malformed("irq", "missing or not a number");
        // The name is the rest of the line: handler names may contain blanks.
        const size_t p = fields.find("name=");
        ev.nameId = m_names.intern(p == std::string_view::npos ? std::string_view("?") : fields.substr(p + 5));
        return LineKind::Event;
    }
    case E_SOFTIRQ:
        ev.kind = EventKind::Softirq;
        if (!decimalField(fields, "vec=", ev.arg))
            return malformed("vec", "missing or not a number");
        return LineKind::Event;
    case E_IPI_SEND_CPU:
        ev.kind = EventKind::IpiSend;
        if (!decimalField(fields, "cpu=", ev.target) || ev.target < 0 || ev.target >= CpuMask::MAX_CPUS)
            return malformed("cpu", "missing or not a CPU number below 256");
        ev.mask.set(static_cast<int>(ev.target));
        return LineKind::Event;
    case E_IPI_SEND_MASK: {
        ev.kind = EventKind::IpiSend;
        const auto v = valueOf(fields, "cpumask=");
        if (!v || !parseCpuList(*v, ev.mask))
            return malformed("cpumask", "missing or not a CPU list");
        return LineKind::Event;
    }
    case E_IPI_RAISE: {
        ev.kind = EventKind::IpiSend;
        const auto v = valueOf(fields, "target_mask=");
        if (!v || !parseHexMask(*v, ev.mask))
            return malformed("target_mask", "missing or not a hex CPU mask");
        return LineKind::Event;
    }
    default: // E_IPI_ENTRY, E_VECTOR_IPI
        ev.kind = EventKind::IpiEntry;
        return LineKind::Event;
    }
}

LineKind TextLineParser::parseTaskPair(std::string_view fields, std::string_view argKey, std::string_view targetKey,
                                       TraceEvent &ev)
{
    // The keys are literals: the fields named in an issue (without '=') outlive the line.
    if (!decimalField(fields, argKey, ev.arg))
        return malformed(argKey.substr(0, argKey.size() - 1), "not a number");
    if (!decimalField(fields, targetKey, ev.target))
        return malformed(targetKey.substr(0, targetKey.size() - 1), "missing or not a number");
    return LineKind::Event;
}

LineKind TextLineParser::parseWakeup(std::string_view fields, TraceEvent &ev)
{
    ev.kind = EventKind::SchedWakeup;
    if (valueOf(fields, "pid="))
        return parseTaskPair(fields, "pid=", "target_cpu=", ev);
    // trace-cmd plugin layout: "comm:pid [prio] CPU:NNN" (older: "... success=1 CPU:NNN").
    const size_t c = fields.rfind("CPU:");
    const auto pid = pluginPid(c == std::string_view::npos ? fields : fields.substr(0, c));
    const auto target = c == std::string_view::npos ? std::nullopt : parseDec(fields.substr(c + 4));
    if (!pid)
        return malformed("pid", "expected pid= or comm:pid [prio]");
    if (!target)
        return malformed("target_cpu", "expected target_cpu= or CPU:N");
    ev.arg = *pid;
    ev.target = static_cast<std::int64_t>(*target);
    return LineKind::Event;
}

LineKind TextLineParser::parseSwitch(std::string_view fields, TraceEvent &ev)
{
    ev.kind = EventKind::SchedSwitch;
    if (valueOf(fields, "prev_pid="))
        return parseTaskPair(fields, "prev_pid=", "next_pid=", ev);
    // trace-cmd plugin layout: "comm:pid [prio] S ==> comm:pid [prio]".
    const size_t arrow = fields.find(" ==> ");
    if (arrow == std::string_view::npos)
        return malformed("prev_pid", "expected prev_pid= or 'comm:pid [prio] S ==> comm:pid [prio]'");
    const auto prev = pluginPid(fields.substr(0, arrow));
    const auto next = pluginPid(fields.substr(arrow + 5));
    if (!prev)
        return malformed("prev_pid", "cannot read the previous task's pid");
    if (!next)
        return malformed("next_pid", "cannot read the next task's pid");
    ev.arg = *prev;
    ev.target = *next;
    return LineKind::Event;
}

LineKind TextLineParser::parseFields(std::string_view name, std::string_view fields, TraceEvent &ev)
{
    // One parser per trace system, as the kernel's include/trace/events/ has one header each.
    switch (const int id = lookupEvent(name); id) {
    case E_CPU_IDLE:
    case E_CPU_IDLE_MISS: return parseCpuIdle(id == E_CPU_IDLE_MISS, fields, ev);
    case E_CPU_FREQUENCY:
        // power:cpu_frequency "state=%lu cpu_id=%lu": the new frequency in kHz, for cpu_id.
        ev.kind = EventKind::CpuFrequency;
        if (!decimalField(fields, "state=", ev.arg) || ev.arg < 0)
            return malformed("state", "missing or not a frequency in kHz");
        if (!decimalField(fields, "cpu_id=", ev.target) || ev.target < 0)
            return malformed("cpu_id", "missing or not a number");
        return LineKind::Event;
    case E_HRTIMER_START:
    case E_HRTIMER_EXPIRE:
    case E_HRTIMER_CANCEL:
    case E_TIMER_EXPIRE:
    case E_TICK_STOP: return parseTimerEvent(id, fields, ev);
    case E_IRQ:
    case E_SOFTIRQ:
    case E_IPI_SEND_CPU:
    case E_IPI_SEND_MASK:
    case E_IPI_RAISE:
    case E_IPI_ENTRY:
    case E_VECTOR_IPI: return parseInterruptEvent(id, fields, ev);
    case E_WAKEUP: return parseWakeup(fields, ev);
    case E_SWITCH: return parseSwitch(fields, ev);
    default: break; // not an event idlescope reads (lookupEvent() gave -1)
    }
    m_skipped = name;
    return LineKind::Skipped;
}

} // namespace idlescope::trace
