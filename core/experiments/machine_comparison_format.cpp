// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/machine_comparison_format.h"

#include "core/common/table_writer.h"
#include "core/common/text_cells.h"

#include <cmath>

namespace idlescope {

namespace {

using table::Cell;

double ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

/// State names for the columns: the first cluster's table, "state<k>" beyond it.
std::vector<std::string> stateNames(const Machine &m)
{
    std::vector<std::string> names;
    for (const Cluster &c : m.clusters)
        for (int s = static_cast<int>(names.size()); s < c.table.count(); ++s)
            names.push_back(columnSafe(c.table[s].name));
    return names;
}

/// run, cpu and misses on the left (run is the key of JSON's runs, not a field), numbers right.
std::vector<table::Column> columns(const std::vector<std::string> &states, bool perState)
{
    std::vector<std::string> c = {"run", "cpu", "misses", "entries", "spans"};
    for (const std::string &s : states)
        c.push_back("usage_" + s);
    for (const char *n : {"above", "below", "idle_misses", "idle_miss_ratio", "above_pct", "below_pct"})
        c.push_back(n);
    for (const std::string &s : states)
        c.push_back("time_pct_" + s);
    for (const char *n :
         {"wakeups", "latency_cost_us", "duration_ms", "wakeups_per_s", "iops", "idle_energy_J", "energy_J"})
        c.push_back(n);
    if (perState)
        for (const std::string &s : states)
            for (const char *n : {"above_", "below_", "above_pct_"})
                c.push_back(n + s);
    std::vector<table::Column> out;
    for (size_t i = 0; i < c.size(); ++i)
        out.push_back({c[i], i < 3 ? table::Align::Left : table::Align::Right, i > 0});
    return out;
}

Cell percent(double part, double whole)
{
    return table::fixed(100.0 * ratio(part, whole), 2);
}

void energyCells(std::vector<Cell> &c, const RunEnergy &e, const CpuEnergy *ce)
{
    if (!e.available) {
        c.push_back(table::missing("no power data"));
        c.push_back(table::missing("no power data"));
        return;
    }
    c.push_back(table::general(ce ? ce->idleTotalJ() : e.idleTotalJ(), 6));
    c.push_back(e.hasActive ? table::general(ce ? ce->totalJ() : e.totalJ(), 6) : table::missing("no active power"));
}

std::vector<Cell> rowCells(const MachineRun &run, const CpuRun &r, const RunEnergy &e, const CpuEnergy *ce,
                           size_t states, bool perState)
{
    std::vector<Cell> c;
    c.push_back(table::text(run.label.empty() ? run.name : run.label));
    c.push_back(r.cpu < 0 ? table::text("all") : table::integer(r.cpu));
    c.push_back(table::text(missSourceWord(run)));
    c.push_back(table::integer(r.entries));
    c.push_back(table::integer(r.spans));
    for (size_t s = 0; s < states; ++s)
        c.push_back(table::integer(r.states[s].usage));
    const double entries = static_cast<double>(r.entries);
    c.push_back(table::integer(r.above()));
    c.push_back(table::integer(r.below()));
    c.push_back(table::integer(r.above() + r.below()));
    c.push_back(table::fixed(r.missRatio(), 4));
    c.push_back(percent(static_cast<double>(r.above()), entries));
    c.push_back(percent(static_cast<double>(r.below()), entries));
    const double idle = static_cast<double>(r.idleNs());
    for (size_t s = 0; s < states; ++s)
        c.push_back(percent(static_cast<double>(r.states[s].timeNs), idle));
    c.push_back(table::integer(r.wakeups));
    c.push_back(table::fixed(static_cast<double>(r.latencyCostNs) / 1e3, 3));
    c.push_back(table::fixed(static_cast<double>(r.durationNs) / 1e6, 3));
    c.push_back(table::fixed(ratio(static_cast<double>(r.wakeups), static_cast<double>(r.durationNs) * 1e-9), 1));
    c.push_back(r.ioOps >= 0 ? table::fixed(r.iops(), 1) : table::missing("no io jobs"));
    energyCells(c, e, ce);
    if (perState)
        for (size_t s = 0; s < states; ++s) {
            c.push_back(table::integer(r.states[s].above));
            c.push_back(table::integer(r.states[s].below));
            c.push_back(percent(static_cast<double>(r.states[s].above), static_cast<double>(r.states[s].usage)));
        }
    return c;
}

std::string cpuList(const std::vector<int> &cpus)
{
    std::string s;
    for (int cpu : cpus)
        s += (s.empty() ? "" : ",") + std::to_string(cpu);
    return s;
}

std::string machineLine(const MachineComparison &c)
{
    std::string s = "machine `" + c.machine.id + "` (" + std::to_string(c.machine.cpuCount()) + " CPUs, tick "
                    + std::to_string(c.machine.clusters.front().table.tickHz) + " Hz; ";
    for (size_t k = 0; k < c.machine.clusters.size(); ++k) {
        const Cluster &cl = c.machine.clusters[k];
        s += (k ? "; " : "") + cl.name + ": CPUs " + cpuList(cl.cpus) + ", table `" + cl.table.id + "`";
    }
    return s + "), workload `" + c.workloadLabel + "`";
}

/// What the markdown says under the rows: the recorded run, missing power data, CPUs not replayed.
std::vector<std::string> notes(const MachineComparison &c)
{
    std::vector<std::string> out;
    for (const MachineRun &run : c.runs)
        if (run.name == "recorded")
            out.push_back("recorded: the states the kernel entered"
                          + std::string(run.label == "recorded"
                                            ? " (no TRACE.governor beside the trace names the governor: "
                                              "--recorded-governor)"
                                            : "")
                          + "; above/below " + run.missSource);
    if (!c.energy.empty() && !c.energy.front().available)
        out.push_back("energy: " + c.energy.front().missing + " (table JSON power_mw, or --power STATE=NUMBERmW)");
    if (!c.runs.empty() && !c.runs.back().skipped.empty()) {
        std::string s = "Not replayed:";
        for (const SkippedCpu &k : c.runs.back().skipped)
            s += "\n- CPU " + std::to_string(k.cpu) + ": " + k.reason;
        out.push_back(s);
    }
    return out;
}

/// The rows, a row per (run, CPU) with --cpus each and the run's sum; @p runOf the run of each.
table::Table rowTable(const MachineComparison &c, const std::vector<std::string> &states, const MachineFormatOptions &o,
                      std::vector<size_t> &runOf)
{
    table::Table t;
    t.title = machineLine(c);
    t.columns = columns(states, o.perState);
    t.notes = notes(c);
    for (size_t k = 0; k < c.runs.size(); ++k) {
        const MachineRun &run = c.runs[k];
        const RunEnergy &e = c.energy[k];
        if (o.eachCpu)
            for (size_t i = 0; i < run.cpus.size(); ++i) {
                t.rows.push_back(
                    rowCells(run, run.cpus[i], e, e.available ? &e.cpus[i] : nullptr, states.size(), o.perState));
                runOf.push_back(k);
            }
        t.rows.push_back(rowCells(run, run.total(), e, nullptr, states.size(), o.perState));
        runOf.push_back(k);
    }
    return t;
}

std::vector<Cell> clusterCells(const MachineRun &run, const ClusterIdle &v, double joules, size_t states)
{
    std::vector<Cell> c = {table::text(run.label.empty() ? run.name : run.label), table::text(v.name),
                           table::text(cpuList(v.cpus))};
    if (!v.complete) {
        c.push_back(table::text("not every CPU has results"));
        c.resize(c.size() + 2 * states + 1, table::blank());
        return c;
    }
    c.push_back(table::fixed(static_cast<double>(v.idleNs) / 1e6, 3));
    for (size_t s = 0; s < states; ++s) {
        c.push_back(table::fixed(static_cast<double>(v.timeNs[s]) / 1e6, 3));
        c.push_back(table::integer(v.usage[s]));
    }
    c.push_back(std::isfinite(joules) ? table::general(joules, 6) : table::missing("no power data"));
    return c;
}

/// The cluster view, in markdown: a table for each stretch of runs that have one.
std::string clusterMarkdown(const MachineComparison &c, const std::vector<std::string> &states)
{
    table::Table t;
    t.title = "Cluster view (all CPUs of the cluster idle; its state is the shallowest of theirs):";
    t.columns = {{"run"}, {"cluster"}, {"cpus"}, {"idle_ms", table::Align::Right}};
    for (const std::string &s : states) {
        t.columns.push_back({"time_ms_" + s, table::Align::Right});
        t.columns.push_back({"usage_" + s, table::Align::Right});
    }
    t.columns.push_back({"cluster_idle_J", table::Align::Right});
    std::string out;
    for (size_t k = 0; k < c.runs.size(); ++k) {
        for (size_t i = 0; i < c.clusters[k].size(); ++i)
            t.rows.push_back(clusterCells(c.runs[k], c.clusters[k][i], c.clusterIdleJ[k][i], states.size()));
        if (!t.rows.empty() && (k + 1 == c.runs.size() || c.clusters[k + 1].empty())) {
            out += "\n" + table::markdown(t);
            t.rows.clear();
        }
    }
    return out;
}

std::string clusterJson(const MachineComparison &c, size_t k, const std::vector<std::string> &states)
{
    std::string out = ",\n     \"clusters\": [";
    for (size_t i = 0; i < c.clusters[k].size(); ++i) {
        const ClusterIdle &v = c.clusters[k][i];
        out += std::string(i ? ", " : "") + "{\"name\": " + jsonString(v.name) + ", \"cpus\": [" + cpuList(v.cpus)
               + "], \"complete\": " + (v.complete ? "true" : "false") + ", \"idle_ns\": " + std::to_string(v.idleNs);
        for (size_t s = 0; s < states.size(); ++s)
            out += ", \"time_ns_" + states[s] + "\": " + std::to_string(v.timeNs[s]) + ", \"usage_" + states[s]
                   + "\": " + std::to_string(v.usage[s]);
        const double j = c.clusterIdleJ[k][i];
        out += ", \"cluster_idle_J\": " + (std::isfinite(j) ? table::general(j, 6).text : std::string("null")) + "}";
    }
    return out + "]";
}

std::string json(const MachineComparison &c, const table::Table &t, const std::vector<size_t> &runOf,
                 const std::vector<std::string> &states)
{
    std::string out = "{\n  \"machine\": " + jsonString(c.machine.id)
                      + ",\n  \"cpus\": " + std::to_string(c.machine.cpuCount())
                      + ",\n  \"tick_hz\": " + std::to_string(c.machine.clusters.front().table.tickHz)
                      + ",\n  \"workload\": " + jsonString(c.workloadLabel) + ",\n  \"runs\": [";
    for (size_t k = 0; k < c.runs.size(); ++k) {
        const MachineRun &run = c.runs[k];
        out += std::string(k ? "," : "") + "\n    {\"run\": " + jsonString(run.name) + ", \"label\": "
               + jsonString(run.label.empty() ? run.name : run.label) + ", \"misses\": " + jsonString(run.missSource);
        std::string cpuRows, sum;
        for (size_t r = 0; r < t.rows.size(); ++r) {
            if (runOf[r] != k)
                continue;
            if (t.rows[r][1].text == "all")
                sum = table::jsonObject(t, t.rows[r]);
            else
                cpuRows += (cpuRows.empty() ? "\n       " : ",\n       ") + table::jsonObject(t, t.rows[r]);
        }
        out += ",\n     \"per_cpu\": [" + cpuRows + "],\n     \"sum\": " + sum + ",\n     \"skipped\": [";
        for (size_t i = 0; i < run.skipped.size(); ++i)
            out += std::string(i ? ", " : "") + "{\"cpu\": " + std::to_string(run.skipped[i].cpu)
                   + ", \"reason\": " + jsonString(run.skipped[i].reason) + "}";
        out += "]" + (c.clusters[k].empty() ? std::string() : clusterJson(c, k, states)) + "}";
    }
    return out + "\n  ]\n}\n";
}

} // namespace

std::string missSourceWord(const MachineRun &run)
{
    const size_t space = run.missSource.find(' ');
    return run.missSource.substr(0, space);
}

std::string formatMachineSweep(const std::string &workloadText, const std::vector<MachineSweepPoint> &points,
                               const MachineFormatOptions &o)
{
    if (o.format == experiments::CompareFormat::Json) {
        std::string out = "{\n  \"workload\": " + jsonString(workloadText) + ",\n  \"points\": [";
        for (size_t p = 0; p < points.size(); ++p) {
            std::string one = formatMachineComparison(points[p].comparison, o);
            while (!one.empty() && one.back() == '\n')
                one.pop_back();
            out += std::string(p ? "," : "") + "\n{\"point\": " + jsonString(points[p].label)
                   + ",\n \"comparison\": " + one + "}";
        }
        return out + "\n  ]\n}\n";
    }
    table::Table all;
    std::string clusters;
    for (size_t p = 0; p < points.size(); ++p) {
        const MachineComparison &c = points[p].comparison;
        const std::vector<std::string> states = stateNames(c.machine);
        std::vector<size_t> runOf;
        table::Table t = rowTable(c, states, o, runOf);
        if (p == 0) {
            all.title = t.title;
            all.columns = t.columns;
            all.columns.insert(all.columns.begin(), {"point", table::Align::Left, false});
        }
        for (std::vector<Cell> &row : t.rows) {
            row.insert(row.begin(), table::text(points[p].label));
            all.rows.push_back(std::move(row));
        }
        for (const std::string &n : t.notes)
            all.notes.push_back(points[p].label + ": " + n);
        if (const std::string v = clusterMarkdown(c, states); !v.empty())
            clusters += "\n" + points[p].label + ":\n" + v;
    }
    if (o.format == experiments::CompareFormat::Csv)
        return table::csv(all);
    return table::markdown(all) + clusters;
}

std::string formatMachineComparison(const MachineComparison &c, const MachineFormatOptions &o)
{
    const std::vector<std::string> states = stateNames(c.machine);
    std::vector<size_t> runOf;
    const table::Table t = rowTable(c, states, o, runOf);
    switch (o.format) {
    case experiments::CompareFormat::Csv: return table::csv(t);
    case experiments::CompareFormat::Json: return json(c, t, runOf, states);
    case experiments::CompareFormat::Markdown: break;
    }
    return table::markdown(t) + clusterMarkdown(c, states);
}

} // namespace idlescope
