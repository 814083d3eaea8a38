// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file warning_sink.h
 * Collects an import's structured warnings into TraceImport: every warning is
 * counted by kind, the first few of each kind are kept with file, line, field
 * and detail, so memory stays bounded on a trace with millions of bad lines.
 */
#pragma once

#include "core/trace/trace_model.h"

#include <string>
#include <string_view>
#include <type_traits>

namespace idlescope::trace {

class WarningSink {
public:
    WarningSink(TraceImport &out, int keptPerKind) : m_out(out), m_kept(keptPerKind) {}

    void add(WarningKind kind, std::int64_t line, std::string_view field, std::string detail)
    {
        add(kind, line, field, [&] { return std::move(detail); });
    }

    /// @p makeDetail() -> std::string runs only for the warnings that are kept: a trace with
    /// millions of the same problem must not pay for millions of messages.
    template <typename MakeDetail>
    void add(WarningKind kind, std::int64_t line, std::string_view field,
             MakeDetail &&makeDetail) requires std::is_invocable_r_v<std::string, MakeDetail>
    {
        auto &count = m_out.warningCounts[static_cast<int>(kind)];
        if (count++ < m_kept)
            m_out.warnings.push_back({kind, m_out.file, line, std::string(field), makeDetail()});
    }

private:
    TraceImport &m_out;
    int m_kept;
};

} // namespace idlescope::trace
