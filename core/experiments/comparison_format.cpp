// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Comparison tables in the kernel threads' vocabulary: usage, above, below,
 * idle misses (above + below) and the idle miss ratio (misses / entries),
 * above % and below % of usage, time share per state. Aggregates are taken per
 * column over the iterations of a (point, governor) pair: the mean, min and
 * max of that column's per-iteration values.
 */
#include "core/experiments/comparison.h"

#include "core/common/text_cells.h"
#include "core/stats/run_throughput.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace idlescope::experiments {

namespace {

double ratio(double num, double den)
{
    return den > 0 ? num / den : 0.0;
}

double totalTime(const RunMetrics &m)
{
    return static_cast<double>(std::accumulate(m.timeNs.begin(), m.timeNs.end(), Ns(0)));
}

enum class Row { Iteration, Mean, Min, Max };

std::string formatCell(const CompareColumn &c, double v, Row row)
{
    if (row != Row::Mean || c.kind != CompareColumn::Kind::Count)
        return formatCompareCell(c.kind, v);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

struct TableRow {
    std::string point, governor, iteration;
    std::vector<std::string> cells;
};

std::vector<TableRow> buildRows(const CompareResult &r, const std::vector<CompareColumn> &cols, bool aggregatesOnly)
{
    std::vector<TableRow> rows;
    for (size_t p = 0; p < r.pointLabels.size(); ++p) {
        for (size_t g = 0; g < r.governors.size(); ++g) {
            std::vector<std::vector<double>> values(cols.size());
            for (int it = 0; it < r.iterations; ++it) {
                const RunMetrics &m = r.at(static_cast<int>(p), static_cast<int>(g), it);
                TableRow row{r.pointLabels[p], r.governors[g], std::to_string(it + 1), {}};
                for (size_t c = 0; c < cols.size(); ++c) {
                    const double v = cols[c].value(m, cols[c].state);
                    values[c].push_back(v);
                    row.cells.push_back(formatCell(cols[c], v, Row::Iteration));
                }
                if (!aggregatesOnly)
                    rows.push_back(std::move(row));
            }
            for (Row kind : {Row::Mean, Row::Min, Row::Max}) {
                TableRow row{r.pointLabels[p],
                             r.governors[g],
                             kind == Row::Mean  ? "mean"
                             : kind == Row::Min ? "min"
                                                : "max",
                             {}};
                for (size_t c = 0; c < cols.size(); ++c) {
                    const std::vector<double> &v = values[c];
                    const double x = kind == Row::Mean
                                         ? std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size())
                                     : kind == Row::Min ? *std::min_element(v.begin(), v.end())
                                                        : *std::max_element(v.begin(), v.end());
                    row.cells.push_back(formatCell(cols[c], x, kind));
                }
                rows.push_back(std::move(row));
            }
        }
    }
    return rows;
}

} // namespace

std::string formatCompareCell(CompareColumn::Kind kind, double v)
{
    char buf[64];
    switch (kind) {
    case CompareColumn::Kind::Count: std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v)); break;
    case CompareColumn::Kind::Ratio: std::snprintf(buf, sizeof buf, "%.4f", v); break;
    case CompareColumn::Kind::Percent: std::snprintf(buf, sizeof buf, "%.2f", v); break;
    case CompareColumn::Kind::Micros: std::snprintf(buf, sizeof buf, "%.3f", v); break;
    case CompareColumn::Kind::Joules:
        if (!std::isfinite(v))
            return "no power data";
        std::snprintf(buf, sizeof buf, "%.6g", v);
        break;
    }
    return buf;
}

std::vector<CompareColumn> compareColumns(const IdleStateTable &table)
{
    using K = CompareColumn::Kind;
    std::vector<CompareColumn> c;
    c.push_back({"entries", K::Count, [](const RunMetrics &m, int) { return double(m.entries); }});
    c.push_back({"spans", K::Count, [](const RunMetrics &m, int) { return double(m.spans); }});
    for (int i = 0; i < table.count(); ++i)
        c.push_back({"usage_" + columnSafe(table[i].name), K::Count,
                     [](const RunMetrics &m, int s) { return double(m.usage[static_cast<size_t>(s)]); }, i});
    c.push_back({"above", K::Count, [](const RunMetrics &m, int) { return double(m.above); }});
    c.push_back({"below", K::Count, [](const RunMetrics &m, int) { return double(m.below); }});
    c.push_back({"idle_misses", K::Count, [](const RunMetrics &m, int) { return double(m.above + m.below); }});
    c.push_back({"idle_miss_ratio", K::Ratio,
                 [](const RunMetrics &m, int) { return ratio(double(m.above + m.below), double(m.entries)); }});
    c.push_back({"above_pct", K::Percent,
                 [](const RunMetrics &m, int) { return 100.0 * ratio(double(m.above), double(m.entries)); }});
    c.push_back({"below_pct", K::Percent,
                 [](const RunMetrics &m, int) { return 100.0 * ratio(double(m.below), double(m.entries)); }});
    for (int i = 0; i < table.count(); ++i)
        c.push_back({"time_pct_" + columnSafe(table[i].name), K::Percent,
                     [](const RunMetrics &m, int s) {
                         return 100.0 * ratio(double(m.timeNs[static_cast<size_t>(s)]), totalTime(m));
                     },
                     i});
    c.push_back({"oracle_above", K::Count, [](const RunMetrics &m, int) { return double(m.oracleAbove); }});
    c.push_back({"oracle_below", K::Count, [](const RunMetrics &m, int) { return double(m.oracleBelow); }});
    c.push_back(
        {"oracle_misses", K::Count, [](const RunMetrics &m, int) { return double(m.oracleAbove + m.oracleBelow); }});
    c.push_back({"wakeups", K::Count, [](const RunMetrics &m, int) { return double(m.wakeups); }});
    c.push_back(
        {"latency_cost_us", K::Micros, [](const RunMetrics &m, int) { return double(m.latencyCostNs) / 1000.0; }});
    return c;
}

std::vector<CompareColumn> compareColumns(const CompareOptions &o)
{
    using K = CompareColumn::Kind;
    std::vector<CompareColumn> c = compareColumns(o.table);
    if (o.throughput) {
        c.push_back({"duration_ms", K::Micros, [](const RunMetrics &m, int) { return double(m.durationNs) / 1e6; }});
        c.push_back({"wakeups_per_s", K::Micros,
                     [](const RunMetrics &m, int) { return perSecond(double(m.wakeups), m.durationNs); }});
    }
    bool powered = std::isfinite(o.power.activeMw);
    for (const StatePower &p : o.power.states)
        powered = powered || std::isfinite(p.powerMw) || p.entryExitUj != 0;
    if (powered) {
        c.push_back({"idle_energy_J", K::Joules, [](const RunMetrics &m, int) { return m.idleEnergyJ; }});
        c.push_back({"energy_J", K::Joules, [](const RunMetrics &m, int) { return m.energyJ; }});
    }
    if (o.perState)
        for (int i = 0; i < o.table.count(); ++i) {
            const std::string n = columnSafe(o.table[i].name);
            c.push_back({"above_" + n, K::Count,
                         [](const RunMetrics &m, int s) { return double(m.aboveByState[static_cast<size_t>(s)]); }, i});
            c.push_back({"below_" + n, K::Count,
                         [](const RunMetrics &m, int s) { return double(m.belowByState[static_cast<size_t>(s)]); }, i});
            c.push_back({"above_pct_" + n, K::Percent,
                         [](const RunMetrics &m, int s) {
                             return 100.0
                                    * ratio(double(m.aboveByState[static_cast<size_t>(s)]),
                                            double(m.usage[static_cast<size_t>(s)]));
                         },
                         i});
        }
    return c;
}

std::string formatComparison(const CompareOptions &o, const CompareResult &r, CompareFormat format, bool aggregatesOnly)
{
    const std::vector<CompareColumn> cols = compareColumns(o);
    const std::vector<TableRow> rows = buildRows(r, cols, aggregatesOnly);
    std::string out;
    if (format == CompareFormat::Csv) {
        out += "point,governor,iteration";
        for (const CompareColumn &c : cols)
            out += "," + c.name;
        out += '\n';
        for (const TableRow &row : rows) {
            out += csvField(row.point) + "," + csvField(row.governor) + "," + row.iteration;
            for (const std::string &cell : row.cells)
                out += "," + cell;
            out += '\n';
        }
        return out;
    }
    if (format == CompareFormat::Markdown) {
        out += "table `" + o.table.id + "` (tick " + std::to_string(o.table.tickHz) + " Hz), workload `"
               + (o.fixedStream.empty() ? o.workload.text : o.fixedStreamLabel) + "`, seed " + std::to_string(o.seed)
               + ", " + std::to_string(o.fixedStream.empty() ? o.spans : o.fixedStream.size()) + " spans per run, "
               + std::to_string(o.iterations) + " iteration(s)\n\n";
        out += "| point | governor | iteration |";
        for (const CompareColumn &c : cols)
            out += " " + c.name + " |";
        out += "\n|---|---|---|";
        for (size_t i = 0; i < cols.size(); ++i)
            out += "---:|";
        out += '\n';
        for (const TableRow &row : rows) {
            out += "| " + markdownCell(row.point) + " | " + markdownCell(row.governor) + " | " + row.iteration + " |";
            for (const std::string &cell : row.cells)
                out += " " + cell + " |";
            out += '\n';
        }
        return out;
    }
    // JSON: points -> governors -> iterations / mean / min / max, numbers as printed.
    out += "{\n  \"table\": " + jsonString(o.table.id) + ",\n  \"tick_hz\": " + std::to_string(o.table.tickHz)
           + ",\n  \"workload\": " + jsonString(o.fixedStream.empty() ? o.workload.text : o.fixedStreamLabel)
           + ",\n  \"seed\": " + std::to_string(o.seed)
           + ",\n  \"spans\": " + std::to_string(o.fixedStream.empty() ? o.spans : o.fixedStream.size())
           + ",\n  \"iterations\": " + std::to_string(o.iterations) + ",\n  \"columns\": [";
    for (size_t i = 0; i < cols.size(); ++i)
        out += (i ? ", " : "") + jsonString(cols[i].name);
    out += "],\n  \"points\": [";
    size_t k = 0;
    for (size_t p = 0; p < r.pointLabels.size(); ++p) {
        out += std::string(p ? "," : "") + "\n    {\"point\": " + jsonString(r.pointLabels[p]) + ", \"governors\": [";
        for (size_t g = 0; g < r.governors.size(); ++g) {
            out += std::string(g ? "," : "") + "\n      {\"governor\": " + jsonString(r.governors[g]);
            const size_t runs = aggregatesOnly ? 0 : static_cast<size_t>(r.iterations);
            auto object = [&](const TableRow &row) {
                std::string obj = "{";
                for (size_t c = 0; c < cols.size(); ++c)
                    obj += (c ? ", " : "") + jsonString(cols[c].name) + ": "
                           + (row.cells[c] == "no power data" ? std::string("null") : row.cells[c]);
                return obj + "}";
            };
            if (runs > 0) {
                out += ",\n       \"runs\": [";
                for (size_t j = 0; j < runs; ++j)
                    out += (j ? ",\n         " : "") + object(rows[k++]);
                out += "]";
            }
            for (int a = 0; a < 3; ++a, ++k)
                out += ",\n       " + jsonString(rows[k].iteration) + ": " + object(rows[k]);
            out += "}";
        }
        out += "]}";
    }
    out += "\n  ]\n}\n";
    return out;
}

} // namespace idlescope::experiments
