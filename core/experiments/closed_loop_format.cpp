// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/closed_loop_format.h"

#include "core/common/text_cells.h"
#include "core/energy/energy.h"

#include <cstdio>
#include <iterator>

namespace idlescope {

namespace {

std::string fmt(const char *f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

const char *const COLUMNS[] = {"governor",
                               "operations",
                               "duration_ms",
                               "ops_per_s",
                               "added_latency_mean_us",
                               "added_latency_p99_us",
                               "added_latency_max_us",
                               "entries",
                               "above",
                               "below",
                               "idle_miss_ratio",
                               "idle_energy_J",
                               "energy_J",
                               "energy_per_op_uJ"};

/// Cells of one run; the second of each pair says whether it is a number (JSON).
std::vector<std::pair<std::string, bool>> cells(const Machine &m, const ClosedLoopRun &r)
{
    const CpuRun t = r.counters.total();
    const RunEnergy e = runEnergy(m, r.counters);
    std::vector<std::pair<std::string, bool>> c = {
        {r.governor, false},
        {std::to_string(r.operations), true},
        {fmt("%.3f", static_cast<double>(r.durationNs) / 1e6), true},
        {fmt("%.1f", r.opsPerSecond()), true},
        {fmt("%.3f", r.meanAddedNs / 1e3), true},
        {fmt("%.3f", static_cast<double>(r.p99AddedNs) / 1e3), true},
        {fmt("%.3f", static_cast<double>(r.maxAddedNs) / 1e3), true},
        {std::to_string(t.entries), true},
        {std::to_string(t.above()), true},
        {std::to_string(t.below()), true},
        {fmt("%.4f", t.missRatio()), true},
    };
    if (!e.available) {
        for (int i = 0; i < 3; ++i)
            c.emplace_back("no power data", false);
        return c;
    }
    c.emplace_back(fmt("%.6g", e.idleTotalJ()), true);
    if (e.hasActive) {
        c.emplace_back(fmt("%.6g", e.totalJ()), true);
        c.emplace_back(fmt("%.6g", r.operations > 0 ? e.totalJ() * 1e6 / static_cast<double>(r.operations) : 0.0),
                       true);
    } else {
        c.emplace_back("no active power", false);
        c.emplace_back("no active power", false);
    }
    return c;
}

} // namespace

std::string closedLoopCell(const Machine &m, const ClosedLoopRun &r, const std::string &column)
{
    for (size_t i = 0; i < std::size(COLUMNS); ++i)
        if (column == COLUMNS[i])
            return cells(m, r)[i].first;
    return {};
}

std::string formatClosedLoop(const Machine &m, const ClosedLoopSpec &spec, const std::vector<ClosedLoopRun> &runs,
                             experiments::CompareFormat format)
{
    std::string out;
    const size_t n = std::size(COLUMNS);
    if (format == experiments::CompareFormat::Json) {
        out = "{\n  \"machine\": " + jsonString(m.id) + ",\n  \"closed_loop\": " + jsonString(spec.text)
              + ",\n  \"runs\": [";
        for (size_t k = 0; k < runs.size(); ++k) {
            const auto c = cells(m, runs[k]);
            out += std::string(k ? "," : "") + "\n    {";
            for (size_t i = 0; i < n; ++i)
                out += (i ? ", \"" : "\"") + std::string(COLUMNS[i]) + "\": "
                       + (c[i].second ? c[i].first
                                      : (c[i].first.rfind("no ", 0) == 0 && i > 0 ? "null" : jsonString(c[i].first)));
            out += "}";
        }
        return out + "\n  ]\n}\n";
    }
    const bool md = format == experiments::CompareFormat::Markdown;
    const std::string sep = md ? " | " : ",";
    auto line = [&](const std::vector<std::string> &fields) {
        std::string l = md ? "| " : "";
        for (size_t i = 0; i < fields.size(); ++i)
            l += (i ? sep : "") + fields[i];
        return l + (md ? " |\n" : "\n");
    };
    if (md)
        out += "machine `" + m.id + "`, closed loop `" + spec.text + "` (" + std::to_string(spec.cpus())
               + " CPU(s)); added latency: from each completion or message to the start of its handling\n\n";
    out += line(std::vector<std::string>(std::begin(COLUMNS), std::end(COLUMNS)));
    if (md) {
        out += "|---|";
        for (size_t i = 1; i < n; ++i)
            out += "---:|";
        out += '\n';
    }
    for (const ClosedLoopRun &r : runs) {
        std::vector<std::string> fields;
        for (const auto &c : cells(m, r))
            fields.push_back(c.first);
        out += line(fields);
    }
    return out;
}

} // namespace idlescope
