// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file text_importer.h
 * The text import loop shared by files (LineReader: plain or gzip, streamed)
 * and memory (tests, fuzzers): each line goes through TextLineParser, events
 * go to the IdleReconstructor, problems to the warning sink.
 */
#pragma once

#include "core/common/error.h"
#include "core/trace/idle_reconstructor.h"
#include "core/trace/text_line_parser.h"

#include <string_view>
#include <vector>

namespace idlescope::trace {

class TextImporter {
public:
    TextImporter(const std::string &label, const ImportConfig &config);

    /// Feeds line @p lineNo; an Error only for input that is not a trace at all.
    Status line(std::string_view text, std::int64_t lineNo);
    /// Ends the import; an Error when nothing usable was found.
    Result<TraceImport> finish(std::int64_t lastLine);

private:
    TraceImport m_out;
    WarningSink m_warn;
    NameTable m_names;
    TextLineParser m_parser;
    IdleReconstructor m_rec;
    TraceEvent m_event;
    std::int64_t m_eventLines = 0;
    std::int64_t m_otherLines = 0;
    std::int64_t m_kindCounts[EVENT_KIND_COUNT] = {};
    NameTable m_skippedNames;
    std::vector<std::int64_t> m_skippedCounts;
    std::string m_firstOther;
    std::int64_t m_firstOtherLine = 0; ///< the line m_firstOther quotes (errors cite it, not the last line)
};

} // namespace idlescope::trace
