// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/stats_format.h"

#include "core/common/table_writer.h"
#include "core/common/text_cells.h"
#include "core/trace/trace_names.h"
#include "core/trace/trace_stream.h"

#include <algorithm>
#include <array>

namespace idlescope::trace {

namespace {

using table::Cell;
using table::text;
constexpr auto *count = &table::integer;

Cell ms(Ns ns)
{
    return table::fixed(static_cast<double>(ns) / 1e6, 3);
}

Cell us(Ns ns)
{
    return table::fixed(static_cast<double>(ns) / 1e3, 1);
}

Cell pct(Ns part, Ns whole)
{
    return text(
        formatNumber("%.1f%%", whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0));
}

std::string cpuLabel(const CpuStats &s)
{
    return s.cpu < 0 ? std::string("all") : std::to_string(s.cpu);
}

/// The table's name of recorded state @p i, empty without a table or beyond it.
std::string stateName(const StatsReport &r, size_t i)
{
    return r.table && i < static_cast<size_t>(r.table->count()) ? (*r.table)[static_cast<int>(i)].name : std::string();
}

ResidencyRange rangeOf(const CpuStats &c, size_t i)
{
    return i < c.residency.size() ? c.residency[i] : ResidencyRange{};
}

Ns meanResidency(const StateStats &st)
{
    return st.usage > 0 ? st.timeNs / st.usage : 0;
}

std::string cpuList(const std::vector<int> &cpus)
{
    std::string o;
    for (const int c : cpus)
        o += (o.empty() ? "" : " ") + std::to_string(c);
    return o;
}

std::string missLabel(const TraceStats &s)
{
    if (s.missSource == MissSource::Recomputed)
        return std::string(missSourceName(s.missSource)) + " '" + s.tableId + "'";
    if (s.missSource == MissSource::None)
        return "not available (no cpu_idle_miss in the trace; pass --table to recompute)";
    return missSourceName(s.missSource);
}

std::vector<const CpuStats *> allRows(const TraceStats &s)
{
    std::vector<const CpuStats *> rows;
    for (const CpuStats &c : s.cpus)
        rows.push_back(&c);
    rows.push_back(&s.total);
    return rows;
}

std::string histLabel(int k)
{
    if (k == 0)
        return "<1us";
    if (k == HIST_BINS - 1)
        return ">=" + std::to_string(histogramLowerNs(k) / NSEC_PER_USEC) + "us";
    return std::to_string(histogramLowerNs(k) / NSEC_PER_USEC) + "-"
           + std::to_string(histogramLowerNs(k + 1) / NSEC_PER_USEC) + "us";
}

// What the simulated run covers next to the recorded totals, and why they differ.
std::string coverageText(const TraceStats &s, const SimulatedTrace &sim)
{
    const CpuStats &t = s.total;
    std::string o = "Simulated: " + std::to_string(sim.total.spans) + " rows, " + std::to_string(sim.total.entries)
                    + " entries (the governor's). It replays the exported spans only: "
                    + spanAccountText(t.spans, t.exportedSpans, t.droppedSpans) + ", one row per in-idle wakeup ("
                    + std::to_string(t.exportedRows) + " rows).";
    if (t.exportedEntries != t.entries)
        o += " The recorded columns count all " + std::to_string(t.entries) + " complete entries; "
             + std::to_string(t.exportedEntries) + " of them are in the exported spans, the other "
             + std::to_string(t.entries - t.exportedEntries) + " in spans left out.";
    return o;
}

Cell mhz(std::int64_t khz)
{
    return khz % 1000 == 0 ? count(khz / 1000) : table::fixed(static_cast<double>(khz) / 1000.0, 3);
}

Ns runningAtKnownFrequency(const CpuStats &c)
{
    Ns sum = 0;
    for (const FrequencyResidency &f : c.frequencies)
        sum += f.timeNs;
    return sum;
}

/// A table of the markdown report: headed "## @p heading", every column left-aligned, cells as
/// they are (a state's or an irq's name included), after a blank line.
table::Table section(const std::string &heading, const std::vector<std::string> &headings)
{
    table::Table t;
    t.title = "## " + heading;
    for (const std::string &h : headings)
        t.columns.push_back({h});
    t.markdown = table::MarkdownText::Raw;
    return t;
}

std::string stateLabel(const StatsReport &r, size_t i)
{
    const std::string name = stateName(r, i);
    return std::to_string(i) + (name.empty() ? "" : " (" + name + ")");
}

std::string headerMarkdown(const StatsReport &r)
{
    const TraceImport &t = r.trace;
    const TraceStats &s = r.stats;
    std::string o = "# Recorded idle statistics: " + t.file + "\n\n";
    o += "- format: " + std::string(traceFormatName(t.format)) + "; " + cpuCountText(t);
    o += "\n- events understood: " + std::to_string(t.events) + " of " + std::to_string(t.lines) + " lines/records\n";
    o += "- idle entries: " + std::to_string(s.total.entries) + " (+" + std::to_string(s.total.truncatedEntries)
         + " truncated)\n- " + spanAccountText(s.total.spans, s.total.exportedSpans, s.total.droppedSpans) + "\n";
    o += "- above/below: " + missLabel(s) + "\n";
    if (t.clockOffsetNs)
        o += "- trace clock is not mono: offset " + std::to_string(t.clockOffsetNs) + " ns corrected\n";
    return o;
}

table::Table perStateTable(const StatsReport &r)
{
    table::Table t = section("Per state", {"cpu", "state", "usage", "time (ms)", "share of idle", "above", "below",
                                           "min (us)", "avg (us)", "max (us)"});
    for (const CpuStats *c : allRows(r.stats))
        for (size_t i = 0; i < c->states.size(); ++i) {
            const StateStats &st = c->states[i];
            const ResidencyRange range = rangeOf(*c, i);
            t.rows.push_back({text(cpuLabel(*c)), text(stateLabel(r, i)), count(st.usage), ms(st.timeNs),
                              pct(st.timeNs, c->idleNs), count(st.above), count(st.below), us(range.minNs),
                              us(meanResidency(st)), us(range.maxNs)});
        }
    return t;
}

table::Table idleTimeTable(const TraceStats &s)
{
    table::Table t = section("Idle time", {"cpu", "entries", "idle (ms)", "observed (ms)", "idle share"});
    for (const CpuStats *c : allRows(s))
        t.rows.push_back({text(cpuLabel(*c)), count(c->entries), ms(c->idleNs), ms(c->observedNs),
                          c->cpu < 0 ? text("-") : pct(c->idleNs, c->observedNs)});
    return t;
}

table::Table frequencyMarkdownTable(const TraceStats &s)
{
    table::Table t = section("CPU frequency (running time at each power:cpu_frequency value; idle entries left out)",
                             {"cpu", "frequency (MHz)", "hits", "time (ms)", "share of running", "min (us)", "avg (us)",
                              "max (us)"});
    for (const CpuStats *c : allRows(s)) {
        const Ns running = runningAtKnownFrequency(*c);
        for (const FrequencyResidency &f : c->frequencies)
            t.rows.push_back({text(cpuLabel(*c)), mhz(f.khz), count(f.hits), ms(f.timeNs), pct(f.timeNs, running),
                              us(f.minNs), us(f.meanNs()), us(f.maxNs)});
    }
    return t;
}

table::Table clusterTable(const TraceStats &s)
{
    table::Table t = section("Cluster idle (every CPU of the group idle at once)",
                             {"cpus", "all idle (ms)", "observed (ms)", "share"});
    for (const ClusterStats &cl : s.clusters)
        t.rows.push_back(
            {text(cpuList(cl.cpus)), ms(cl.allIdleNs), ms(cl.observedNs), pct(cl.allIdleNs, cl.observedNs)});
    return t;
}

table::Table causeTable(const TraceStats &s)
{
    table::Table t = section("Wakeup causes", {"cpu"});
    for (int k = 0; k < WAKE_CAUSE_COUNT; ++k)
        t.columns.push_back({wakeCauseName(static_cast<WakeCause>(k))});
    for (const CpuStats *c : allRows(s)) {
        std::vector<Cell> row = {text(cpuLabel(*c))};
        for (std::int64_t n : c->causes)
            row.push_back(count(n));
        t.rows.push_back(std::move(row));
    }
    return t;
}

table::Table histogramTable(const TraceStats &s)
{
    table::Table t = section("Idle duration histogram (entries)", {"duration"});
    for (const CpuStats *c : allRows(s))
        t.columns.push_back({"cpu " + cpuLabel(*c)});
    for (int k = 0; k < HIST_BINS; ++k) {
        std::vector<Cell> row = {text(histLabel(k))};
        for (const CpuStats *c : allRows(s))
            row.push_back(count(c->histogram[static_cast<size_t>(k)]));
        t.rows.push_back(std::move(row));
    }
    return t;
}

std::string aboveBelow(const StateStats &st)
{
    return std::to_string(st.above) + "/" + std::to_string(st.below);
}

table::Table simulatedTable(const TraceStats &s, const SimulatedTrace &sim)
{
    table::Table t = section("Recorded vs simulated (" + sim.governor + " on '" + sim.tableId + "', all CPUs)",
                             {"state", "recorded usage", "simulated usage", "recorded time (ms)", "simulated time (ms)",
                              "recorded above/below", "simulated above/below"});
    const size_t n = std::max(s.total.states.size(), static_cast<size_t>(sim.total.stateCount));
    for (size_t i = 0; i < n; ++i) {
        const StateStats rec = i < s.total.states.size() ? s.total.states[i] : StateStats{};
        const StateStats sm = i < static_cast<size_t>(sim.total.stateCount) ? sim.total.states[i] : StateStats{};
        t.rows.push_back({count(static_cast<std::int64_t>(i)), count(rec.usage), count(sm.usage), ms(rec.timeNs),
                          ms(sm.timeNs), text(aboveBelow(rec)), text(aboveBelow(sm))});
    }
    t.notes = {coverageText(s, sim)};
    return t;
}

Cell change(std::int64_t x, std::int64_t y)
{
    return text((x >= y ? "+" : "") + std::to_string(x - y));
}

/// The baseline's rows of state @p i: usage, share of idle, above, below, avg residency.
void baselineStateRows(table::Table &t, const StatsReport &r, size_t i)
{
    const CpuStats &a = r.stats.total, &b = r.baseline->total;
    const StateStats x = i < a.states.size() ? a.states[i] : StateStats{};
    const StateStats y = i < b.states.size() ? b.states[i] : StateStats{};
    const std::string st = "state " + stateLabel(r, i);
    t.rows.push_back({text(st + " usage"), count(x.usage), count(y.usage), change(x.usage, y.usage)});
    t.rows.push_back({text(st + " share of idle"), pct(x.timeNs, a.idleNs), pct(y.timeNs, b.idleNs), text("")});
    t.rows.push_back({text(st + " above"), count(x.above), count(y.above), change(x.above, y.above)});
    t.rows.push_back({text(st + " below"), count(x.below), count(y.below), change(x.below, y.below)});
    t.rows.push_back({text(st + " avg residency (us)"), us(meanResidency(x)), us(meanResidency(y)), text("")});
}

table::Table baselineTable(const StatsReport &r)
{
    const CpuStats &a = r.stats.total, &b = r.baseline->total;
    table::Table t = section("Against the baseline " + r.baselineTrace->file + " (all CPUs)",
                             {"", "this trace", "baseline", "change"});
    t.rows.push_back({text("idle entries"), count(a.entries), count(b.entries), change(a.entries, b.entries)});
    t.rows.push_back({text("idle (ms)"), ms(a.idleNs), ms(b.idleNs),
                      text((a.idleNs >= b.idleNs ? "+" : "-")
                           + ms(a.idleNs >= b.idleNs ? a.idleNs - b.idleNs : b.idleNs - a.idleNs).text)});
    for (size_t i = 0; i < std::max(a.states.size(), b.states.size()); ++i)
        baselineStateRows(t, r, i);
    for (int k = 0; k < WAKE_CAUSE_COUNT; ++k) {
        const auto kk = static_cast<size_t>(k);
        t.rows.push_back({text(std::string("wakeups by ") + wakeCauseName(static_cast<WakeCause>(k))),
                          count(a.causes[kk]), count(b.causes[kk]), change(a.causes[kk], b.causes[kk])});
    }
    return t;
}

std::string warningsMarkdown(const TraceImport &t)
{
    std::string o = "\n## Warnings\n\n";
    bool any = false;
    for (int k = 0; k < WARNING_KIND_COUNT; ++k)
        if (t.warningCounts[k]) {
            o += "- " + std::string(warningKindName(static_cast<WarningKind>(k))) + ": "
                 + std::to_string(t.warningCounts[k]) + "\n";
            any = true;
        }
    if (!any)
        o += "none\n";
    // The first few in full (file:line, field, detail); TraceImport keeps up to 50 per kind.
    for (size_t i = 0; i < t.warnings.size() && i < 10; ++i)
        o += (i ? "" : "\n") + std::string("    ") + t.warnings[i].toString() + "\n";
    return o;
}

using Counts = std::vector<std::pair<std::string, std::int64_t>>;

Counts causeCounts(const std::array<std::int64_t, WAKE_CAUSE_COUNT> &causes)
{
    Counts c;
    for (int k = 0; k < WAKE_CAUSE_COUNT; ++k)
        c.emplace_back(wakeCauseName(static_cast<WakeCause>(k)), causes[static_cast<size_t>(k)]);
    return c;
}

Counts dropCounts(const SpanDrops &d)
{
    Counts c;
    for (int k = 0; k < SPAN_DROP_COUNT; ++k)
        c.emplace_back(spanDropName(static_cast<SpanDrop>(k)), d[static_cast<size_t>(k)]);
    return c;
}

/// The warning kinds that occurred, with their counts.
Counts warningCounts(const TraceImport &t)
{
    Counts c;
    for (int k = 0; k < WARNING_KIND_COUNT; ++k)
        if (t.warningCounts[k])
            c.emplace_back(warningKindName(static_cast<WarningKind>(k)), t.warningCounts[k]);
    return c;
}

/// {"name": count, ...}: a one-row table whose columns are the names.
std::string countsJson(const Counts &counts)
{
    table::Table t;
    t.rows.emplace_back();
    for (const auto &[name, n] : counts) {
        t.columns.push_back({name});
        t.rows.back().push_back(count(n));
    }
    return table::jsonObject(t, t.rows.back());
}

/// A row per state for CSV and JSON: its index (the CSV key, no JSON field), its name (JSON
/// only; none without @p r's table), its counters and, with @p c, its residency range.
table::Table stateTable(const StatsReport *r, const StateStats *states, size_t n, const CpuStats *c)
{
    table::Table t;
    for (const char *name : {"index", "name", "usage", "time_ns", "above", "below"})
        t.columns.push_back({name});
    t.columns.front().json = false;
    if (c)
        for (const char *name : {"min_residency_ns", "avg_residency_ns", "max_residency_ns"})
            t.columns.push_back({name});
    for (size_t i = 0; i < n; ++i) {
        const std::string name = r ? stateName(*r, i) : std::string();
        const StateStats &st = states[i];
        t.rows.push_back({count(static_cast<std::int64_t>(i)), name.empty() ? table::blank() : text(name),
                          count(st.usage), count(st.timeNs), count(st.above), count(st.below)});
        if (c)
            t.rows.back().insert(t.rows.back().end(),
                                 {count(rangeOf(*c, i).minNs), count(meanResidency(st)), count(rangeOf(*c, i).maxNs)});
    }
    return t;
}

table::Table frequencyTable(const CpuStats &c)
{
    table::Table t;
    for (const char *name : {"khz", "hits", "time_ns", "min_ns", "avg_ns", "max_ns"})
        t.columns.push_back({name});
    for (const FrequencyResidency &f : c.frequencies)
        t.rows.push_back(
            {count(f.khz), count(f.hits), count(f.timeNs), count(f.minNs), count(f.meanNs()), count(f.maxNs)});
    return t;
}

/// The long-format CSV's table: cpu, metric, key, value; every field RFC 4180.
struct LongTable {
    table::Table t;
    LongTable() { t.columns = {{"cpu"}, {"metric"}, {"key"}, {"value"}}; }
    void row(const std::string &cpu, const std::string &metric, const std::string &key, std::int64_t v)
    {
        t.rows.push_back({text(cpu), text(metric), text(key), count(v)});
    }
    void rows(const std::string &cpu, const std::string &metric, const Counts &counts)
    {
        for (const auto &[key, n] : counts)
            row(cpu, metric, key, n);
    }
    /// A row per number cell of @p w: metric @p prefix + its column, key the row's first cell.
    void rows(const std::string &cpu, const std::string &prefix, const table::Table &w)
    {
        for (const std::vector<Cell> &r : w.rows)
            for (size_t i = 1; i < r.size(); ++i)
                if (r[i].kind == Cell::Kind::Number)
                    t.rows.push_back({text(cpu), text(prefix + w.columns[i].name), r[0], r[i]});
    }
};

void cpuCsvRows(LongTable &o, const StatsReport &r, const CpuStats &c)
{
    const std::string cpu = cpuLabel(c);
    o.row(cpu, "entries", "", c.entries);
    o.row(cpu, "truncated_entries", "", c.truncatedEntries);
    o.row(cpu, "spans", "", c.spans);
    o.row(cpu, "spans_exported", "", c.exportedSpans);
    o.rows(cpu, "spans_dropped", dropCounts(c.droppedSpans));
    o.row(cpu, "rows_exported", "", c.exportedRows);
    o.row(cpu, "entries_in_exported_spans", "", c.exportedEntries);
    o.row(cpu, "idle_ns", "", c.idleNs);
    o.row(cpu, "observed_ns", "", c.observedNs);
    o.rows(cpu, "state_", stateTable(&r, c.states.data(), c.states.size(), &c));
    o.rows(cpu, "cause", causeCounts(c.causes));
    o.rows(cpu, "cause_irq", Counts(c.irqNames.begin(), c.irqNames.end()));
    o.rows(cpu, "cause_hrtimer", Counts(c.timerNames.begin(), c.timerNames.end()));
    for (int k = 0; k < HIST_BINS; ++k)
        o.row(cpu, "hist_lower_ns", std::to_string(histogramLowerNs(k)), c.histogram[static_cast<size_t>(k)]);
    o.rows(cpu, "freq_", frequencyTable(c));
}

void comparedCsvRows(LongTable &o, const StatsReport &r)
{
    if (r.baseline) {
        const CpuStats &b = r.baseline->total;
        o.row("baseline", "entries", "", b.entries);
        o.row("baseline", "idle_ns", "", b.idleNs);
        o.row("baseline", "observed_ns", "", b.observedNs);
        o.rows("baseline", "state_", stateTable(nullptr, b.states.data(), b.states.size(), nullptr));
        o.rows("baseline", "cause", causeCounts(b.causes));
    }
    if (r.simulated) {
        const ReplaySummary &sim = r.simulated->total;
        o.row("all", "sim_spans", "", sim.spans);
        o.row("all", "sim_entries", "", sim.entries);
        o.rows("all", "sim_state_",
               stateTable(nullptr, sim.states.data(), static_cast<size_t>(sim.stateCount), nullptr));
    }
}

std::string histogramJson(const CpuStats &c)
{
    std::string o;
    for (int k = 0; k < HIST_BINS; ++k)
        o += std::string(k ? ", " : "") + std::to_string(c.histogram[static_cast<size_t>(k)]);
    return o;
}

std::string cpuJson(const StatsReport &r, const CpuStats &c)
{
    return "    {\"cpu\": " + (c.cpu < 0 ? std::string("\"all\"") : std::to_string(c.cpu)) + ", \"entries\": "
           + std::to_string(c.entries) + ", \"truncated_entries\": " + std::to_string(c.truncatedEntries)
           + ", \"spans\": " + std::to_string(c.spans) + ", \"spans_exported\": " + std::to_string(c.exportedSpans)
           + ", \"rows_exported\": " + std::to_string(c.exportedRows)
           + ", \"spans_dropped\": " + countsJson(dropCounts(c.droppedSpans))
           + ", \"entries_in_exported_spans\": " + std::to_string(c.exportedEntries)
           + ", \"idle_ns\": " + std::to_string(c.idleNs) + ", \"observed_ns\": " + std::to_string(c.observedNs)
           + ",\n     \"states\": [" + table::jsonObjects(stateTable(&r, c.states.data(), c.states.size(), &c), ", ")
           + "],\n     \"causes\": " + countsJson(causeCounts(c.causes)) + ",\n     \"cause_names\": {\"irq\": "
           + countsJson(Counts(c.irqNames.begin(), c.irqNames.end())) + ", \"hrtimer\": "
           + countsJson(Counts(c.timerNames.begin(), c.timerNames.end())) + "},\n     \"histogram\": ["
           + histogramJson(c) + "],\n     \"frequencies\": [" + table::jsonObjects(frequencyTable(c), ", ") + "]}";
}

std::string clustersJson(const TraceStats &s)
{
    std::string o;
    for (size_t i = 0; i < s.clusters.size(); ++i) {
        const ClusterStats &cl = s.clusters[i];
        std::string cpus;
        for (const int c : cl.cpus)
            cpus += (cpus.empty() ? "" : ", ") + std::to_string(c);
        o += std::string(i ? ", " : "") + "{\"cpus\": [" + cpus + "], \"all_idle_ns\": " + std::to_string(cl.allIdleNs)
             + ", \"observed_ns\": " + std::to_string(cl.observedNs) + "}";
    }
    return o;
}

std::string comparedJson(const StatsReport &r)
{
    std::string o;
    if (r.baseline && r.baselineTrace) {
        const CpuStats &b = r.baseline->total;
        o += ",\n  \"baseline\": {\"file\": " + jsonString(r.baselineTrace->file)
             + ", \"entries\": " + std::to_string(b.entries) + ", \"idle_ns\": " + std::to_string(b.idleNs)
             + ", \"observed_ns\": " + std::to_string(b.observedNs) + ", \"states\": ["
             + table::jsonObjects(stateTable(nullptr, b.states.data(), b.states.size(), nullptr), ", ")
             + "], \"causes\": " + countsJson(causeCounts(b.causes)) + "}";
    }
    if (r.simulated) {
        const SimulatedTrace &sim = *r.simulated;
        o += ",\n  \"simulated\": {\"governor\": " + jsonString(sim.governor)
             + ", \"table\": " + jsonString(sim.tableId) + ", \"spans\": " + std::to_string(sim.total.spans)
             + ", \"entries\": " + std::to_string(sim.total.entries)
             + ",\n                \"covers\": \"the exported spans only (cpus[all].spans_exported; spans_dropped are "
               "left out)\", \"states\": ["
             + table::jsonObjects(stateTable(nullptr, sim.total.states.data(),
                                             static_cast<size_t>(sim.total.stateCount), nullptr),
                                  ", ")
             + "]}";
    }
    return o;
}

} // namespace

std::string formatStatsMarkdown(const StatsReport &r)
{
    const TraceStats &s = r.stats;
    std::string o =
        headerMarkdown(r) + "\n" + table::markdown(perStateTable(r)) + "\n" + table::markdown(idleTimeTable(s));
    if (!s.total.frequencies.empty())
        o += "\n" + table::markdown(frequencyMarkdownTable(s));
    o += "\n" + table::markdown(clusterTable(s)) + "\n" + table::markdown(causeTable(s));
    for (const auto &[name, n] : s.total.irqNames)
        o += "\n- irq " + name + ": " + std::to_string(n);
    for (const auto &[name, n] : s.total.timerNames)
        o += "\n- hrtimer " + name + ": " + std::to_string(n);
    o += "\n\n" + table::markdown(histogramTable(s));
    if (r.simulated)
        o += "\n" + table::markdown(simulatedTable(s, *r.simulated));
    if (r.baseline && r.baselineTrace)
        o += "\n" + table::markdown(baselineTable(r));
    return o + warningsMarkdown(r.trace);
}

std::string formatStatsCsv(const StatsReport &r)
{
    LongTable o;
    const TraceImport &t = r.trace;
    o.row("all", "cpus_in_trace", "", static_cast<std::int64_t>(t.cpus.size()));
    o.row("all", "cpus_declared", "", t.declaredCpus);
    o.row("all", "cpus_with_events", "", t.cpusWithEvents());
    o.row("all", "cpus_with_idle_entries", "", t.cpusWithIdleEntries());
    for (const CpuStats *c : allRows(r.stats))
        cpuCsvRows(o, r, *c);
    // State names (the only text values: key = state index, value = the table's name).
    for (size_t i = 0; i < r.stats.total.states.size(); ++i)
        if (const std::string name = stateName(r, i); !name.empty())
            o.t.rows.push_back({text("all"), text("state_name"), text(std::to_string(i)), text(name)});
    for (const ClusterStats &cl : r.stats.clusters) {
        std::string cpus;
        for (const int c : cl.cpus)
            cpus += (cpus.empty() ? "" : "+") + std::to_string(c);
        o.row(cpus, "cluster_all_idle_ns", "", cl.allIdleNs);
        o.row(cpus, "cluster_observed_ns", "", cl.observedNs);
    }
    comparedCsvRows(o, r);
    return table::csv(o.t);
}

std::string formatStatsJson(const StatsReport &r)
{
    const TraceImport &t = r.trace;
    std::string o = "{\n  \"file\": " + jsonString(t.file) + ",\n  \"format\": " + jsonString(traceFormatName(t.format))
                    + ",\n  \"miss_source\": " + jsonString(missSourceName(r.stats.missSource))
                    + ",\n  \"miss_table\": " + jsonString(r.stats.tableId) + ",\n  \"cpus_in_trace\": "
                    + std::to_string(t.cpus.size()) + ", \"cpus_declared\": " + std::to_string(t.declaredCpus)
                    + ", \"cpus_with_events\": " + std::to_string(t.cpusWithEvents())
                    + ", \"cpus_with_idle_entries\": " + std::to_string(t.cpusWithIdleEntries()) + ",\n  \"cpus\": [";
    bool firstCpu = true;
    for (const CpuStats *c : allRows(r.stats)) {
        o += (firstCpu ? "\n" : ",\n") + cpuJson(r, *c);
        firstCpu = false;
    }
    o += "\n  ],\n  \"clusters\": [" + clustersJson(r.stats) + "],\n  \"warnings\": ";
    return o + countsJson(warningCounts(t)) + comparedJson(r) + "\n}\n";
}

} // namespace idlescope::trace
