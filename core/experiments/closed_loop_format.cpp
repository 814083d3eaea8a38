// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/closed_loop_format.h"

#include "core/common/table_writer.h"
#include "core/common/text_cells.h"
#include "core/energy/energy.h"
#include "core/experiments/compare_cells.h"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

namespace idlescope {

namespace {

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

/// Cells of one run, in COLUMNS' order.
std::vector<table::Cell> cells(const Machine &m, const ClosedLoopRun &r)
{
    const CpuRun t = r.counters.total();
    const RunEnergy e = runEnergy(m, r.counters, r.energyWindowNs);
    std::vector<table::Cell> c = {
        table::text(r.governor),
        table::integer(r.operations),
        table::fixed(static_cast<double>(r.durationNs) / 1e6, 3),
        table::fixed(r.opsPerSecond(), 1),
        table::fixed(r.meanAddedNs / 1e3, 3),
        table::fixed(static_cast<double>(r.p99AddedNs) / 1e3, 3),
        table::fixed(static_cast<double>(r.maxAddedNs) / 1e3, 3),
        table::integer(t.entries),
        table::integer(t.above()),
        table::integer(t.below()),
        table::fixed(t.missRatio(), 4),
    };
    if (!e.available) {
        for (int i = 0; i < 3; ++i)
            c.push_back(table::missing("no power data"));
        return c;
    }
    c.push_back(table::general(e.idleTotalJ(), 6));
    if (e.hasActive) {
        c.push_back(table::general(e.totalJ(), 6));
        c.push_back(table::general(energyPerOperationUJ(e, r.operations), 6));
    } else {
        c.push_back(table::missing("no active power"));
        c.push_back(table::missing("no active power"));
    }
    return c;
}

/// The runs' table: the governor left, the numbers right.
table::Table runTable(const Machine &m, const ClosedLoopSpec &spec, const std::vector<ClosedLoopRun> &runs)
{
    table::Table t;
    // The machine's other CPUs, when they ran the background, are in the sums with the loop's own.
    const std::size_t summed = runs.empty() ? 0 : runs.front().counters.cpus.size();
    const auto loopCpus = static_cast<std::size_t>(spec.cpus());
    const std::string background = summed > loopCpus
                                       ? " (" + std::to_string(loopCpus) + " CPU(s) in the loop, the other "
                                             + std::to_string(summed - loopCpus) + " running the background)"
                                       : "";
    t.title = "machine `" + m.id + "`, closed loop `" + spec.text + "`" + background + ": " + closedLoopScope(m, runs)
              + "; added latency: from each completion or message to the start of its handling";
    for (const char *name : COLUMNS)
        t.columns.push_back({name, t.columns.empty() ? table::Align::Left : table::Align::Right});
    for (const ClosedLoopRun &r : runs)
        t.rows.push_back(cells(m, r));
    return t;
}

} // namespace

std::string closedLoopScope(const Machine &m, const std::vector<ClosedLoopRun> &runs)
{
    if (runs.empty())
        return {};
    // Every run of a loop uses the same CPUs (0, and 1 for pingpong): the first run's say which.
    const std::vector<CpuRun> &cpus = runs.front().counters.cpus;
    std::string list;
    for (const CpuRun &c : cpus)
        list += (list.empty() ? "" : ", ") + std::to_string(c.cpu);
    char window[64];
    std::snprintf(window, sizeof window, "%.3f ms", static_cast<double>(runs.front().energyWindowNs) / 1e6);
    return (cpus.size() == 1 ? "CPU " : "CPUs ") + list + " of " + std::to_string(m.cpuCount())
           + (cpus.size() == 1 ? "" : " summed") + "; energy over the slowest run's " + window
           + " (a faster run idles the rest in its cheapest state)";
}

double energyPerOperationUJ(const RunEnergy &e, std::int64_t operations)
{
    if (!e.available || !e.hasActive)
        return std::numeric_limits<double>::quiet_NaN();
    return operations > 0 ? e.totalJ() * 1e6 / static_cast<double>(operations) : 0.0;
}

table::Cell closedLoopTableCell(const Machine &m, const ClosedLoopRun &r, const std::string &column)
{
    for (size_t i = 0; i < std::size(COLUMNS); ++i)
        if (column == COLUMNS[i])
            return cells(m, r)[i];
    return table::blank();
}

std::string closedLoopCell(const Machine &m, const ClosedLoopRun &r, const std::string &column)
{
    return closedLoopTableCell(m, r, column).text;
}

std::string formatClosedLoop(const Machine &m, const ClosedLoopSpec &spec, const std::vector<ClosedLoopRun> &runs,
                             experiments::CompareFormat format)
{
    const table::Table t = runTable(m, spec, runs);
    switch (format) {
    case experiments::CompareFormat::Csv: return table::csv(t);
    case experiments::CompareFormat::Markdown: return table::markdown(t);
    case experiments::CompareFormat::Json: break;
    }
    std::string cpus;
    if (!runs.empty())
        for (const CpuRun &c : runs.front().counters.cpus)
            cpus += (cpus.empty() ? "" : ", ") + std::to_string(c.cpu);
    char window[64];
    std::snprintf(window, sizeof window, "%.3f",
                  runs.empty() ? 0.0 : static_cast<double>(runs.front().energyWindowNs) / 1e6);
    return "{\n  \"machine\": " + jsonString(m.id) + ",\n  \"closed_loop\": " + jsonString(spec.text)
           + ",\n  \"cpus\": [" + cpus + "],\n  \"machine_cpus\": " + std::to_string(m.cpuCount())
           + ",\n  \"energy_window_ms\": " + window + ",\n  \"runs\": [" + table::jsonObjects(t, ",", "\n    ")
           + "\n  ]\n}\n";
}

} // namespace idlescope

namespace idlescope {

namespace {

/// The runs as a machine comparison: each run's CPUs with their energy over its window.
MachineComparison asMachineComparison(const Machine &m, const ClosedLoopSpec &spec,
                                      const std::vector<ClosedLoopRun> &runs)
{
    MachineComparison c;
    c.machine = m;
    c.workloadLabel = "closed loop " + spec.text;
    for (const ClosedLoopRun &r : runs) {
        c.runs.push_back(r.counters);
        c.runs.back().name = r.governor;
        c.energy.push_back(runEnergy(m, r.counters, r.energyWindowNs));
        c.clusters.emplace_back();
        c.clusterIdleJ.emplace_back();
    }
    return c;
}

} // namespace

std::string formatClosedLoop(const Machine &m, const ClosedLoopSpec &spec, const std::vector<ClosedLoopRun> &runs,
                             const MachineFormatOptions &cpuRows)
{
    const std::string loop = formatClosedLoop(m, spec, runs, cpuRows.format);
    if (!cpuRows.eachCpu && !cpuRows.perState)
        return loop;
    const std::string rows = formatMachineComparison(asMachineComparison(m, spec, runs), cpuRows);
    switch (cpuRows.format) {
    case experiments::CompareFormat::Csv: return rows;
    case experiments::CompareFormat::Markdown: return loop + "\n" + rows;
    case experiments::CompareFormat::Json: break;
    }
    // {..., "runs": [...]\n}\n with the machine rows' object added as "cpu_rows".
    std::string head = loop.substr(0, loop.rfind('}'));
    std::string nested = rows;
    for (std::string *t : {&head, &nested})
        while (!t->empty() && t->back() == '\n')
            t->pop_back();
    std::string indented;
    for (char ch : nested)
        indented += ch == '\n' ? std::string("\n  ") : std::string(1, ch);
    return head + ",\n  \"cpu_rows\": " + indented + "\n}\n";
}

} // namespace idlescope
