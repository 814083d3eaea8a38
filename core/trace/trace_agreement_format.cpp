// SPDX-License-Identifier: GPL-3.0-or-later
// trace_agreement.h's text and JSON forms.
#include "core/trace/trace_agreement.h"

#include "core/common/text_cells.h"

#include <algorithm>

namespace idlescope::trace {

namespace {

/// A trace timestamp as the trace prints it: seconds with 6 decimals.
std::string traceSeconds(Ns ns)
{
    return formatNumber("%.6f", static_cast<double>(ns) / 1e9);
}

std::string stateName(const TraceAgreement &a, int s)
{
    return s >= 0 && static_cast<size_t>(s) < a.stateNames.size() ? a.stateNames[static_cast<size_t>(s)]
                                                                  : "state " + std::to_string(s);
}

std::string pad(std::string s, size_t w)
{
    if (s.size() < w)
        s.append(w - s.size(), ' ');
    return s + ' ';
}

std::string cpuLine(const CpuAgreement &c)
{
    return pad(c.cpu < 0 ? "all" : std::to_string(c.cpu), 5) + pad(std::to_string(c.recordedEntries), 10)
           + pad(std::to_string(c.simulatedEntries), 10) + pad(std::to_string(c.paired), 8)
           + pad(std::to_string(c.agreed), 8) + formatNumber("%.1f %%", 100.0 * c.share()) + "\n";
}

std::string cpuJson(const CpuAgreement &c)
{
    std::string o = "{\"cpu\": " + (c.cpu < 0 ? std::string("\"all\"") : std::to_string(c.cpu))
                    + ", \"recorded_entries\": " + std::to_string(c.recordedEntries)
                    + ", \"simulated_entries\": " + std::to_string(c.simulatedEntries)
                    + ", \"paired\": " + std::to_string(c.paired) + ", \"agreed\": " + std::to_string(c.agreed)
                    + ", \"share\": " + formatNumber("%.6f", c.share()) + ", \"matrix\": [";
    for (int r = 0; r < c.stateCount; ++r) {
        o += r ? ", [" : "[";
        for (int s = 0; s < c.stateCount; ++s)
            o += (s ? ", " : "") + std::to_string(c.matrix[static_cast<size_t>(r)][static_cast<size_t>(s)]);
        o += "]";
    }
    return o + "]}";
}

} // namespace

std::string formatAgreementText(const TraceAgreement &a)
{
    std::string o = "Agreement of " + a.variant + " with the recorded governor ("
                    + (a.recordedGovernor.empty() ? std::string("not named") : a.recordedGovernor)
                    + "): the share of paired entries where the simulated governor entered the state the kernel "
                      "entered (the k-th entry of a stream row with the k-th; unpaired entries are left out).\n\n";
    o += pad("cpu", 5) + pad("recorded", 10) + pad("simulated", 10) + pad("paired", 8) + pad("agreed", 8) + "share\n";
    for (const CpuAgreement &c : a.cpus)
        o += cpuLine(c);
    o += cpuLine(a.total);
    o += "\nThe oracle, which knows every wakeup, agrees on " + formatNumber("%.1f %%", 100.0 * a.oracle.share())
         + " of its pairs: a variant's share means little unless it stands apart from that.\n";
    for (const std::string &l : a.limits)
        o += "The trace cannot tell: " + l + ".\n";
    const int n = a.total.stateCount;
    size_t w = 10;
    for (int s = 0; s < n; ++s)
        w = std::max(w, stateName(a, s).size());
    o += "\nConfusion matrix, all CPUs (rows: the state the kernel entered; columns: " + a.variant + "'s):\n";
    o += pad("", w);
    for (int s = 0; s < n; ++s)
        o += pad(stateName(a, s), w);
    o += "\n";
    for (int r = 0; r < n; ++r) {
        o += pad(stateName(a, r), w);
        for (int s = 0; s < n; ++s)
            o += pad(std::to_string(a.total.matrix[static_cast<size_t>(r)][static_cast<size_t>(s)]), w);
        o += "\n";
    }
    o += "\nFirst disagreements (trace-cmd timestamps, s):\n";
    if (a.first.empty())
        o += "  none\n";
    for (const Disagreement &d : a.first)
        o += "  " + traceSeconds(d.traceNs) + "  CPU " + std::to_string(d.cpu) + ", row " + std::to_string(d.row)
             + ": kernel " + stateName(a, d.recordedState) + " for " + formatNumber("%.1f", d.residencyNs / 1e3)
             + " us, " + a.variant + " " + stateName(a, d.simulatedState) + "\n";
    return o;
}

std::string formatAgreementJson(const TraceAgreement &a)
{
    std::string o = "{\"variant\": " + jsonString(a.variant)
                    + ", \"recorded_governor\": " + jsonString(a.recordedGovernor) + ", \"states\": [";
    for (size_t s = 0; s < a.stateNames.size(); ++s)
        o += (s ? ", " : "") + jsonString(a.stateNames[s]);
    o += "], \"cpus\": [";
    for (size_t k = 0; k < a.cpus.size(); ++k)
        o += (k ? ", " : "") + cpuJson(a.cpus[k]);
    o += "], \"total\": " + cpuJson(a.total) + ", \"oracle\": " + cpuJson(a.oracle) + ", \"trace_cannot_tell\": [";
    for (size_t k = 0; k < a.limits.size(); ++k)
        o += (k ? ", " : "") + jsonString(a.limits[k]);
    o += "], \"first_disagreements\": [";
    for (size_t k = 0; k < a.first.size(); ++k) {
        const Disagreement &d = a.first[k];
        o += (k ? ", " : "") + std::string("{\"cpu\": ") + std::to_string(d.cpu) + ", \"row\": " + std::to_string(d.row)
             + ", \"trace_ns\": " + std::to_string(d.traceNs) + ", \"residency_ns\": " + std::to_string(d.residencyNs)
             + ", \"recorded_state\": " + std::to_string(d.recordedState)
             + ", \"simulated_state\": " + std::to_string(d.simulatedState) + "}";
    }
    return o + "]}\n";
}

} // namespace idlescope::trace
