// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file text_line_parser.h
 * Turns one line of trace text into a TraceEvent. One parser reads the three
 * text layouts, which share "COMM-PID [CPU] FLAGS? SECONDS.FRACTION: EVENT: FIELDS":
 *  - the kernel's tracefs `trace` / `trace_pipe` (with or without the TGID
 *    column, 4 or 5 latency-flag characters, or none);
 *  - `trace-cmd report` (3.x: "cpus=N" first line, event names padded; older
 *    files add "version = 6"; plugin layouts of sched_switch/sched_wakeup);
 *  - `perf script` ("COMM PID [CPU] TIME: power:cpu_idle: ..."; us or ns).
 * Timestamps keep every digit given: 6 decimals are us, 9 are ns.
 * Pure and allocation-free per line except when a new name is interned.
 */
#pragma once

#include "core/trace/name_table.h"
#include "core/trace/trace_event.h"
#include "core/trace/trace_model.h"

#include <string>
#include <string_view>

namespace idlescope::trace {

/// What a line turned out to be.
enum class LineKind : std::uint8_t {
    Event,  ///< @p event filled
    Header, ///< comment or header line (facts recorded in the parser)
    Blank,
    Skipped,   ///< an event line of a tracepoint the importer does not use
    Lost,      ///< "CPU:N [LOST M EVENTS]": lostCount() events lost on lostCpu()
    NotEvent,  ///< text that is not an event line
    Malformed, ///< an event line whose field could not be read (see issueField/issueDetail)
};

class TextLineParser {
public:
    explicit TextLineParser(NameTable &names) : m_names(names) {}

    LineKind parse(std::string_view line, TraceEvent &event);

    /// For Skipped: the event name; for Malformed: the field and why.
    std::string_view skippedName() const { return m_skipped; }
    std::string_view issueField() const { return m_issueField; }
    const std::string &issueDetail() const { return m_issueDetail; }
    int lostCpu() const { return m_lostCpu; }
    std::int64_t lostCount() const { return m_lostCount; }

    /// Facts from header lines and event names seen so far.
    int declaredCpus() const { return m_declaredCpus; }
    TraceFormat formatHint() const { return m_hint; }

private:
    LineKind parseHeader(std::string_view line);
    LineKind parseFields(std::string_view name, std::string_view fields, TraceEvent &event);
    // The events of parseFields(), one trace system (or event) each. They are on the import's
    // hot path (every line): inlined into parseFields(), as when they were one function (a
    // call each cost 1 % more instructions of bench_trace's parser).
    [[gnu::always_inline]] inline LineKind parseCpuIdle(bool miss, std::string_view fields, TraceEvent &event);
    [[gnu::always_inline]] inline LineKind parseTimerEvent(int id, std::string_view fields, TraceEvent &event);
    [[gnu::always_inline]] inline LineKind parseInterruptEvent(int id, std::string_view fields, TraceEvent &event);
    [[gnu::always_inline]] inline LineKind parseWakeup(std::string_view fields, TraceEvent &event);
    [[gnu::always_inline]] inline LineKind parseSwitch(std::string_view fields, TraceEvent &event);
    /// The sched events' key=value layout: @p argKey's number into event.arg, @p targetKey's
    /// (a CPU or a pid) into event.target.
    [[gnu::always_inline]] inline LineKind parseTaskPair(std::string_view fields, std::string_view argKey,
                                                         std::string_view targetKey, TraceEvent &event);
    /// The callback of a timer event's function= field, interned into the event's name.
    [[gnu::always_inline]] inline bool internFunction(std::string_view fields, TraceEvent &event);
    LineKind malformed(std::string_view field, std::string detail);

    NameTable &m_names;
    std::string_view m_skipped;
    std::string_view m_issueField;
    std::string m_issueDetail;
    int m_lostCpu = -1;
    std::int64_t m_lostCount = 0;
    int m_declaredCpus = 0;
    TraceFormat m_hint = TraceFormat::Unknown;
};

} // namespace idlescope::trace
