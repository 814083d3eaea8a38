// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/trace_warnings.h"

#include "core/trace/trace_limits.h"

#include <iostream>

namespace idlescope::cli {

void printTraceWarnings(const trace::TraceImport &t)
{
    constexpr size_t SHOWN = 10;
    for (size_t i = 0; i < t.warnings.size() && i < SHOWN; ++i)
        std::cerr << "warning: " << t.warnings[i].toString() << "\n";
    for (int k = 0; k < trace::WARNING_KIND_COUNT; ++k)
        if (t.warningCounts[k])
            std::cerr << "warnings: " << trace::warningKindName(static_cast<trace::WarningKind>(k)) << " x"
                      << t.warningCounts[k] << "\n";
    // What the trace cannot tell, said where its numbers are read.
    for (const std::string &limit : trace::traceLimitTexts(trace::traceLimits(t)))
        std::cerr << "trace cannot tell: " << limit << "\n";
}

} // namespace idlescope::cli
