// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/machine_comparison_format.h"

#include "core/common/text_cells.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace idlescope {

namespace {

struct Cell {
    std::string text;
    bool number = true; ///< false: words ("no power data"), quoted in JSON
};

Cell num(const char *fmt, double v)
{
    return {formatNumber(fmt, v), true};
}

Cell count(std::int64_t v)
{
    return {std::to_string(v), true};
}

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

std::vector<std::string> columnNames(const std::vector<std::string> &states, bool perState)
{
    std::vector<std::string> c = {"run", "cpu", "misses", "entries", "spans"};
    for (const std::string &s : states)
        c.push_back("usage_" + s);
    for (const char *n : {"above", "below", "idle_misses", "idle_miss_ratio", "above_pct", "below_pct"})
        c.push_back(n);
    for (const std::string &s : states)
        c.push_back("time_pct_" + s);
    for (const char *n : {"wakeups", "latency_cost_us", "duration_ms", "wakeups_per_s", "idle_energy_J", "energy_J"})
        c.push_back(n);
    if (perState)
        for (const std::string &s : states)
            for (const char *n : {"above_", "below_", "above_pct_"})
                c.push_back(n + s);
    return c;
}

std::vector<Cell> rowCells(const MachineRun &run, const CpuRun &r, const RunEnergy &e, const CpuEnergy *ce,
                           size_t states, bool perState)
{
    std::vector<Cell> c;
    c.push_back({run.label.empty() ? run.name : run.label, false});
    c.push_back(r.cpu < 0 ? Cell{"all", false} : count(r.cpu));
    c.push_back({missSourceWord(run), false});
    c.push_back(count(r.entries));
    c.push_back(count(r.spans));
    for (size_t s = 0; s < states; ++s)
        c.push_back(count(r.states[s].usage));
    const double entries = static_cast<double>(r.entries);
    c.push_back(count(r.above()));
    c.push_back(count(r.below()));
    c.push_back(count(r.above() + r.below()));
    c.push_back(num("%.4f", r.missRatio()));
    c.push_back(num("%.2f", 100.0 * ratio(static_cast<double>(r.above()), entries)));
    c.push_back(num("%.2f", 100.0 * ratio(static_cast<double>(r.below()), entries)));
    const double idle = static_cast<double>(r.idleNs());
    for (size_t s = 0; s < states; ++s)
        c.push_back(num("%.2f", 100.0 * ratio(static_cast<double>(r.states[s].timeNs), idle)));
    c.push_back(count(r.wakeups));
    c.push_back(num("%.3f", static_cast<double>(r.latencyCostNs) / 1e3));
    c.push_back(num("%.3f", static_cast<double>(r.durationNs) / 1e6));
    c.push_back(num("%.1f", ratio(static_cast<double>(r.wakeups), static_cast<double>(r.durationNs) * 1e-9)));
    if (!e.available) {
        c.push_back({"no power data", false});
        c.push_back({"no power data", false});
    } else {
        c.push_back(num("%.6g", ce ? ce->idleTotalJ() : e.idleTotalJ()));
        if (e.hasActive)
            c.push_back(num("%.6g", ce ? ce->totalJ() : e.totalJ()));
        else
            c.push_back({"no active power", false});
    }
    if (perState)
        for (size_t s = 0; s < states; ++s) {
            c.push_back(count(r.states[s].above));
            c.push_back(count(r.states[s].below));
            c.push_back(
                num("%.2f",
                    100.0 * ratio(static_cast<double>(r.states[s].above), static_cast<double>(r.states[s].usage))));
        }
    return c;
}

struct Rows {
    std::vector<std::vector<Cell>> rows;
    std::vector<size_t> runOf;
};

Rows buildRows(const MachineComparison &c, size_t states, const MachineFormatOptions &o)
{
    Rows out;
    for (size_t k = 0; k < c.runs.size(); ++k) {
        const MachineRun &run = c.runs[k];
        const RunEnergy &e = c.energy[k];
        if (o.eachCpu)
            for (size_t i = 0; i < run.cpus.size(); ++i) {
                out.rows.push_back(
                    rowCells(run, run.cpus[i], e, e.available ? &e.cpus[i] : nullptr, states, o.perState));
                out.runOf.push_back(k);
            }
        out.rows.push_back(rowCells(run, run.total(), e, nullptr, states, o.perState));
        out.runOf.push_back(k);
    }
    return out;
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
    return s + "), workload `" + c.workloadLabel + "`\n";
}

std::string markdown(const MachineComparison &c, const std::vector<std::string> &cols, const Rows &rows,
                     const std::vector<std::string> &states)
{
    std::string out = machineLine(c) + "\n|";
    for (const std::string &n : cols)
        out += " " + n + " |";
    out += "\n|---|---|---|";
    for (size_t i = 3; i < cols.size(); ++i)
        out += "---:|";
    out += '\n';
    for (const std::vector<Cell> &row : rows.rows) {
        out += "|";
        for (const Cell &cell : row)
            out += " " + cell.text + " |";
        out += '\n';
    }
    for (const MachineRun &run : c.runs)
        if (run.name == "recorded")
            out += "\nrecorded: the states the kernel entered"
                   + std::string(run.label == "recorded"
                                     ? " (no TRACE.governor beside the trace names the governor: --recorded-governor)"
                                     : "")
                   + "; above/below " + run.missSource + "\n";
    if (!c.energy.empty() && !c.energy.front().available)
        out += "\nenergy: " + c.energy.front().missing + " (table JSON power_mw, or --power STATE=NUMBERmW)\n";
    if (!c.runs.empty() && !c.runs.back().skipped.empty()) {
        out += "\nNot replayed:\n";
        for (const SkippedCpu &s : c.runs.back().skipped)
            out += "- CPU " + std::to_string(s.cpu) + ": " + s.reason + "\n";
    }
    for (size_t k = 0; k < c.runs.size(); ++k) {
        if (c.clusters[k].empty())
            continue;
        if (k == 0 || c.clusters[k - 1].empty()) {
            out += "\nCluster view (all CPUs of the cluster idle; its state is the shallowest of theirs):\n\n"
                   "| run | cluster | cpus | idle_ms |";
            for (const std::string &s : states)
                out += " time_ms_" + s + " | usage_" + s + " |";
            out += " cluster_idle_J |\n|---|---|---|---:|";
            for (size_t s = 0; s < states.size(); ++s)
                out += "---:|---:|";
            out += "---:|\n";
        }
        for (size_t ci = 0; ci < c.clusters[k].size(); ++ci) {
            const ClusterIdle &v = c.clusters[k][ci];
            const MachineRun &run = c.runs[k];
            out += "| " + (run.label.empty() ? run.name : run.label) + " | " + v.name + " | " + cpuList(v.cpus) + " | ";
            if (!v.complete) {
                out += "not every CPU has results |";
                for (size_t s = 0; s < states.size(); ++s)
                    out += " | |";
                out += " |\n";
                continue;
            }
            out += num("%.3f", static_cast<double>(v.idleNs) / 1e6).text + " |";
            for (size_t s = 0; s < states.size(); ++s)
                out += " " + num("%.3f", static_cast<double>(v.timeNs[s]) / 1e6).text + " | "
                       + std::to_string(v.usage[s]) + " |";
            out += " "
                   + (std::isfinite(c.clusterIdleJ[k][ci]) ? num("%.6g", c.clusterIdleJ[k][ci]).text : "no power data")
                   + " |\n";
        }
    }
    return out;
}

std::string csv(const std::vector<std::string> &cols, const Rows &rows)
{
    std::string out;
    for (size_t i = 0; i < cols.size(); ++i)
        out += (i ? "," : "") + cols[i];
    out += '\n';
    for (const std::vector<Cell> &row : rows.rows) {
        for (size_t i = 0; i < row.size(); ++i)
            out += (i ? "," : "") + columnSafe(row[i].text);
        out += '\n';
    }
    return out;
}

std::string json(const MachineComparison &c, const std::vector<std::string> &cols, const Rows &rows,
                 const std::vector<std::string> &states)
{
    auto object = [&](const std::vector<Cell> &row) {
        std::string o = "{";
        for (size_t i = 1; i < row.size(); ++i)
            o += (i > 1 ? ", " : "") + jsonString(cols[i]) + ": "
                 + (row[i].number ? row[i].text : jsonString(row[i].text));
        return o + "}";
    };
    std::string out = "{\n  \"machine\": " + jsonString(c.machine.id)
                      + ",\n  \"cpus\": " + std::to_string(c.machine.cpuCount())
                      + ",\n  \"tick_hz\": " + std::to_string(c.machine.clusters.front().table.tickHz)
                      + ",\n  \"workload\": " + jsonString(c.workloadLabel) + ",\n  \"runs\": [";
    for (size_t k = 0; k < c.runs.size(); ++k) {
        const MachineRun &run = c.runs[k];
        out += std::string(k ? "," : "") + "\n    {\"run\": " + jsonString(run.name) + ", \"label\": "
               + jsonString(run.label.empty() ? run.name : run.label) + ", \"misses\": " + jsonString(run.missSource);
        std::vector<std::string> cpuRows;
        std::string sum;
        for (size_t r = 0; r < rows.rows.size(); ++r) {
            if (rows.runOf[r] != k)
                continue;
            if (rows.rows[r][1].text == "all")
                sum = object(rows.rows[r]);
            else
                cpuRows.push_back(object(rows.rows[r]));
        }
        out += ",\n     \"per_cpu\": [";
        for (size_t i = 0; i < cpuRows.size(); ++i)
            out += (i ? ",\n       " : "\n       ") + cpuRows[i];
        out += "],\n     \"sum\": " + sum + ",\n     \"skipped\": [";
        for (size_t i = 0; i < run.skipped.size(); ++i)
            out += std::string(i ? ", " : "") + "{\"cpu\": " + std::to_string(run.skipped[i].cpu)
                   + ", \"reason\": " + jsonString(run.skipped[i].reason) + "}";
        out += "]";
        if (!c.clusters[k].empty()) {
            out += ",\n     \"clusters\": [";
            for (size_t i = 0; i < c.clusters[k].size(); ++i) {
                const ClusterIdle &v = c.clusters[k][i];
                out += std::string(i ? ", " : "") + "{\"name\": " + jsonString(v.name) + ", \"cpus\": ["
                       + cpuList(v.cpus) + "], \"complete\": " + (v.complete ? "true" : "false")
                       + ", \"idle_ns\": " + std::to_string(v.idleNs);
                for (size_t s = 0; s < states.size(); ++s)
                    out += ", \"time_ns_" + states[s] + "\": " + std::to_string(v.timeNs[s]) + ", \"usage_" + states[s]
                           + "\": " + std::to_string(v.usage[s]);
                const double j = c.clusterIdleJ[k][i];
                out += ", \"cluster_idle_J\": " + (std::isfinite(j) ? num("%.6g", j).text : std::string("null")) + "}";
            }
            out += "]";
        }
        out += "}";
    }
    return out + "\n  ]\n}\n";
}

} // namespace

std::string missSourceWord(const MachineRun &run)
{
    const size_t space = run.missSource.find(' ');
    return run.missSource.substr(0, space);
}

std::string formatMachineComparison(const MachineComparison &c, const MachineFormatOptions &o)
{
    const std::vector<std::string> states = stateNames(c.machine);
    const std::vector<std::string> cols = columnNames(states, o.perState);
    const Rows rows = buildRows(c, states.size(), o);
    switch (o.format) {
    case experiments::CompareFormat::Csv: return csv(cols, rows);
    case experiments::CompareFormat::Json: return json(c, cols, rows, states);
    case experiments::CompareFormat::Markdown: break;
    }
    return markdown(c, cols, rows, states);
}

} // namespace idlescope
