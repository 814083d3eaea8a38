// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/text_importer.h"

#include "core/trace/trace_names.h"

#include <algorithm>

namespace idlescope::trace {

namespace {
// With this many non-blank lines and not one event line, the input is not a trace.
constexpr std::int64_t SNIFF_LINES = 1000;
} // namespace

TextImporter::TextImporter(const std::string &label, const ImportConfig &config)
    : m_warn(m_out, config.keptWarningsPerKind), m_parser(m_names), m_rec(m_out, m_warn, m_names)
{
    m_out.file = label;
}

Status TextImporter::line(std::string_view text, std::int64_t lineNo)
{
    ++m_out.lines;
    switch (m_parser.parse(text, m_event)) {
    case LineKind::Event:
        ++m_eventLines;
        ++m_kindCounts[static_cast<int>(m_event.kind)];
        m_event.line = lineNo;
        m_rec.feed(m_event);
        break;
    case LineKind::Skipped: {
        ++m_eventLines;
        const auto id = static_cast<size_t>(m_skippedNames.intern(m_parser.skippedName()));
        if (id >= m_skippedCounts.size())
            m_skippedCounts.resize(id + 1);
        ++m_skippedCounts[id];
        break;
    }
    case LineKind::Lost: m_rec.lost(m_parser.lostCpu(), m_parser.lostCount(), lineNo); break;
    case LineKind::Malformed:
        ++m_eventLines;
        m_warn.add(WarningKind::Malformed, lineNo, m_parser.issueField(), m_parser.issueDetail());
        break;
    case LineKind::NotEvent:
        // A NUL byte early on means binary data that is not a .dat.
        if (m_eventLines == 0 && text.find('\0') != std::string_view::npos)
            return Error{m_out.file, lineNo, "", "binary data that is not a trace-cmd .dat file"};
        ++m_otherLines;
        if (m_firstOther.empty()) {
            m_firstOther = std::string(text.substr(0, 80));
            m_firstOtherLine = lineNo;
        }
        if (m_eventLines == 0 && m_otherLines >= SNIFF_LINES)
            return Error{m_out.file, m_firstOtherLine, "",
                         "unknown format: no ftrace, trace-cmd report or perf script event line in the first "
                             + std::to_string(SNIFF_LINES) + " lines (first: '" + m_firstOther + "')"};
        m_warn.add(WarningKind::UnknownLine, lineNo, "",
                   [&] { return "not an event line: '" + std::string(text.substr(0, 80)) + "'"; });
        break;
    case LineKind::Header:
    case LineKind::Blank: break;
    }
    return Ok{};
}

Result<TraceImport> TextImporter::finish(std::int64_t lastLine)
{
    if (m_eventLines == 0) // the line quoted, when there is one (a Markdown file was cited at its last line)
        return Error{m_out.file, m_otherLines == 0 ? lastLine : m_firstOtherLine, "",
                     m_otherLines == 0
                         ? std::string("empty trace: no event lines")
                         : "unknown format: no ftrace, trace-cmd report or perf script event line (first: '"
                               + m_firstOther + "')"};
    m_out.declaredCpus = m_parser.declaredCpus();
    m_out.format = m_parser.formatHint() == TraceFormat::Unknown ? TraceFormat::FtraceText : m_parser.formatHint();
    m_rec.finish();
    for (int k = 0; k < EVENT_KIND_COUNT; ++k)
        if (m_kindCounts[k])
            m_out.eventCounts[eventKindName(static_cast<EventKind>(k))] += m_kindCounts[k];
    for (size_t i = 0; i < m_skippedCounts.size(); ++i)
        m_out.unknownEvents[m_skippedNames.name(static_cast<std::int32_t>(i))] = m_skippedCounts[i];
    for (std::int64_t n : m_kindCounts)
        m_out.events += n;
    m_out.names = m_names.take();
    if (m_kindCounts[static_cast<int>(EventKind::CpuIdle)] == 0)
        return Error{m_out.file, 0, "cpu_idle",
                     "no power:cpu_idle events in " + std::to_string(m_eventLines)
                         + " event lines: record with -e power:cpu_idle (see docs/traces.md)"};
    return std::move(m_out);
}

} // namespace idlescope::trace
