// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Comparison tables in the kernel threads' vocabulary: usage, above, below,
 * idle misses (above + below) and the idle miss ratio (misses / entries),
 * above % and below % of usage, time share per state. Aggregates are taken per
 * column over the iterations of a (point, governor) pair: the mean, min and
 * max of that column's per-iteration values.
 */
#include "core/experiments/comparison.h"

#include "core/common/table_writer.h"
#include "core/common/text_cells.h"
#include "core/experiments/compare_cells.h"
#include "core/stats/run_throughput.h"

#include <algorithm>
#include <cmath>
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

/// A value as its column prints it (formatCompareCell()); a count's mean with 2 decimals.
table::Cell compareCell(CompareColumn::Kind kind, double v, Row row = Row::Iteration)
{
    switch (kind) {
    case CompareColumn::Kind::Count:
        return row == Row::Mean ? table::fixed(v, 2) : table::integer(static_cast<long long>(v));
    case CompareColumn::Kind::Ratio: return table::fixed(v, 4);
    case CompareColumn::Kind::Percent: return table::fixed(v, 2);
    case CompareColumn::Kind::Micros: return table::fixed(v, 3);
    case CompareColumn::Kind::Joules: break;
    }
    return std::isfinite(v) ? table::general(v, 6) : table::missing("no power data");
}

double aggregate(const std::vector<double> &v, Row kind)
{
    return kind == Row::Mean  ? std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size())
           : kind == Row::Min ? *std::min_element(v.begin(), v.end())
                              : *std::max_element(v.begin(), v.end());
}

/// A row per (point, governor, iteration), unless @p aggregatesOnly, then mean, min and max
/// over the iterations; point, governor and iteration are the keys, not JSON fields.
table::Table buildTable(const CompareResult &r, const std::vector<CompareColumn> &cols, bool aggregatesOnly)
{
    table::Table t;
    t.columns = {{"point", table::Align::Left, false},
                 {"governor", table::Align::Left, false},
                 {"iteration", table::Align::Left, false}};
    for (const CompareColumn &c : cols)
        t.columns.push_back({c.name, table::Align::Right});
    for (size_t p = 0; p < r.pointLabels.size(); ++p)
        for (size_t g = 0; g < r.governors.size(); ++g) {
            const std::vector<table::Cell> keys = {table::text(r.pointLabels[p]), table::text(r.governors[g])};
            std::vector<std::vector<double>> values(cols.size());
            for (int it = 0; it < r.iterations; ++it) {
                const RunMetrics &m = r.at(static_cast<int>(p), static_cast<int>(g), it);
                std::vector<table::Cell> row = keys;
                row.push_back(table::text(std::to_string(it + 1)));
                for (size_t c = 0; c < cols.size(); ++c) {
                    values[c].push_back(cols[c].value(m, cols[c].state));
                    row.push_back(compareCell(cols[c].kind, values[c].back()));
                }
                if (!aggregatesOnly)
                    t.rows.push_back(std::move(row));
            }
            for (Row kind : {Row::Mean, Row::Min, Row::Max}) {
                std::vector<table::Cell> row = keys;
                row.push_back(table::text(kind == Row::Mean ? "mean" : kind == Row::Min ? "min" : "max"));
                for (size_t c = 0; c < cols.size(); ++c)
                    row.push_back(compareCell(cols[c].kind, aggregate(values[c], kind), kind));
                t.rows.push_back(std::move(row));
            }
        }
    return t;
}

std::string workloadText(const CompareOptions &o)
{
    return o.fixedStream.empty() ? o.workload.text : o.fixedStreamLabel;
}

std::size_t spansPerRun(const CompareOptions &o)
{
    return o.fixedStream.empty() ? o.spans : o.fixedStream.size();
}

// JSON: points -> governors -> iterations / mean / min / max, numbers as printed.
std::string json(const CompareOptions &o, const CompareResult &r, const table::Table &t, bool aggregatesOnly)
{
    std::string out = "{\n  \"table\": " + jsonString(o.table.id) + ",\n  \"tick_hz\": "
                      + std::to_string(o.table.tickHz) + ",\n  \"workload\": " + jsonString(workloadText(o))
                      + ",\n  \"seed\": " + std::to_string(o.seed) + ",\n  \"spans\": " + std::to_string(spansPerRun(o))
                      + ",\n  \"iterations\": " + std::to_string(o.iterations) + ",\n  \"columns\": [";
    for (size_t i = 3; i < t.columns.size(); ++i)
        out += (i > 3 ? ", " : "") + jsonString(t.columns[i].name);
    out += "],\n  \"points\": [";
    size_t k = 0;
    for (size_t p = 0; p < r.pointLabels.size(); ++p) {
        out += std::string(p ? "," : "") + "\n    {\"point\": " + jsonString(r.pointLabels[p]) + ", \"governors\": [";
        for (size_t g = 0; g < r.governors.size(); ++g) {
            out += std::string(g ? "," : "") + "\n      {\"governor\": " + jsonString(r.governors[g]);
            const size_t runs = aggregatesOnly ? 0 : static_cast<size_t>(r.iterations);
            if (runs > 0) {
                out += ",\n       \"runs\": [";
                for (size_t j = 0; j < runs; ++j)
                    out += (j ? ",\n         " : "") + table::jsonObject(t, t.rows[k++]);
                out += "]";
            }
            for (int a = 0; a < 3; ++a, ++k)
                out += ",\n       " + jsonString(t.rows[k][2].text) + ": " + table::jsonObject(t, t.rows[k]);
            out += "}";
        }
        out += "]}";
    }
    return out + "\n  ]\n}\n";
}

} // namespace

std::string formatCompareCell(CompareColumn::Kind kind, double v)
{
    return compareCell(kind, v).text;
}

table::Cell compareTableCell(CompareColumn::Kind kind, double v)
{
    return compareCell(kind, v);
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
    table::Table t = buildTable(r, compareColumns(o), aggregatesOnly);
    switch (format) {
    case CompareFormat::Csv: return table::csv(t);
    case CompareFormat::Json: return json(o, r, t, aggregatesOnly);
    case CompareFormat::Markdown: break;
    }
    t.title = "table `" + o.table.id + "` (tick " + std::to_string(o.table.tickHz) + " Hz), workload `"
              + workloadText(o) + "`, seed " + std::to_string(o.seed) + ", " + std::to_string(spansPerRun(o))
              + " spans per run, " + std::to_string(o.iterations) + " iteration(s)";
    return table::markdown(t);
}

} // namespace idlescope::experiments
