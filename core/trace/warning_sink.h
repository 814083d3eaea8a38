// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file warning_sink.h
 * Collects an import's structured warnings into TraceImport: every warning is
 * counted by kind, the first few of each kind are kept with file, line, field
 * and detail, so memory stays bounded on a trace with millions of bad lines.
 */
#pragma once

#include "core/trace/trace_model.h"

namespace idlescope::trace {

class WarningSink {
public:
    WarningSink(TraceImport &out, int keptPerKind) : m_out(out), m_kept(keptPerKind) {}

    void add(WarningKind kind, std::int64_t line, std::string_view field, std::string detail)
    {
        auto &count = m_out.warningCounts[static_cast<int>(kind)];
        if (count++ < m_kept)
            m_out.warnings.push_back({kind, m_out.file, line, std::string(field), std::move(detail)});
    }

private:
    TraceImport &m_out;
    int m_kept;
};

} // namespace idlescope::trace
