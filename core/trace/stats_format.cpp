// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/stats_format.h"

#include "core/common/text_cells.h"
#include "core/trace/trace_names.h"
#include "core/trace/trace_stream.h"

#include <algorithm>
#include <cstdio>

namespace idlescope::trace {

namespace {

std::string ms(Ns ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
    return buf;
}

std::string pct(Ns part, Ns whole)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%",
                  whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return buf;
}

std::string cpuLabel(const CpuStats &s)
{
    return s.cpu < 0 ? std::string("all") : std::to_string(s.cpu);
}

std::string us(Ns ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(ns) / 1e3);
    return buf;
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

/// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string o = "\"";
    for (const char c : s)
        o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
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

std::string mhz(std::int64_t khz)
{
    char buf[32];
    if (khz % 1000 == 0)
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(khz / 1000));
    else
        std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(khz) / 1000.0);
    return buf;
}

Ns runningAtKnownFrequency(const CpuStats &c)
{
    Ns sum = 0;
    for (const FrequencyResidency &f : c.frequencies)
        sum += f.timeNs;
    return sum;
}

std::string frequenciesMarkdown(const TraceStats &s)
{
    if (s.total.frequencies.empty())
        return "";
    std::string o = "\n## CPU frequency (running time at each power:cpu_frequency value; idle entries left out)\n\n"
                    "| cpu | frequency (MHz) | hits | time (ms) | share of running | min (us) | avg (us) | max (us) |\n"
                    "|---|---|---|---|---|---|---|---|\n";
    for (const CpuStats *c : allRows(s)) {
        const Ns running = runningAtKnownFrequency(*c);
        for (const FrequencyResidency &f : c->frequencies)
            o += "| " + cpuLabel(*c) + " | " + mhz(f.khz) + " | " + std::to_string(f.hits) + " | " + ms(f.timeNs)
                 + " | " + pct(f.timeNs, running) + " | " + us(f.minNs) + " | " + us(f.meanNs()) + " | " + us(f.maxNs)
                 + " |\n";
    }
    return o;
}

std::string frequenciesJson(const CpuStats &c)
{
    std::string o = "[";
    for (size_t i = 0; i < c.frequencies.size(); ++i) {
        const FrequencyResidency &f = c.frequencies[i];
        o += std::string(i ? ", " : "") + "{\"khz\": " + std::to_string(f.khz) + ", \"hits\": " + std::to_string(f.hits)
             + ", \"time_ns\": " + std::to_string(f.timeNs) + ", \"min_ns\": " + std::to_string(f.minNs)
             + ", \"avg_ns\": " + std::to_string(f.meanNs()) + ", \"max_ns\": " + std::to_string(f.maxNs) + "}";
    }
    return o + "]";
}

std::string dropsJson(const SpanDrops &d)
{
    std::string o = "{";
    for (int k = 0; k < SPAN_DROP_COUNT; ++k)
        o += std::string(k ? ", " : "") + jsonString(spanDropName(static_cast<SpanDrop>(k))) + ": "
             + std::to_string(d[static_cast<size_t>(k)]);
    return o + "}";
}

} // namespace

std::string formatStatsMarkdown(const StatsReport &r)
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

    o +=
        "\n## Per state\n\n| cpu | state | usage | time (ms) | share of idle | above | below | min (us) | avg (us) | max (us) |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n";
    for (const CpuStats *c : allRows(s))
        for (size_t i = 0; i < c->states.size(); ++i) {
            const StateStats &st = c->states[i];
            const std::string name = stateName(r, i);
            const ResidencyRange range = rangeOf(*c, i);
            o += "| " + cpuLabel(*c) + " | " + std::to_string(i) + (name.empty() ? "" : " (" + name + ")") + " | "
                 + std::to_string(st.usage) + " | " + ms(st.timeNs) + " | " + pct(st.timeNs, c->idleNs) + " | "
                 + std::to_string(st.above) + " | " + std::to_string(st.below) + " | " + us(range.minNs) + " | "
                 + us(meanResidency(st)) + " | " + us(range.maxNs) + " |\n";
        }
    o += "\n## Idle time\n\n| cpu | entries | idle (ms) | observed (ms) | idle share |\n|---|---|---|---|---|\n";
    for (const CpuStats *c : allRows(s))
        o += "| " + cpuLabel(*c) + " | " + std::to_string(c->entries) + " | " + ms(c->idleNs) + " | "
             + ms(c->observedNs) + " | " + (c->cpu < 0 ? std::string("-") : pct(c->idleNs, c->observedNs)) + " |\n";

    o += frequenciesMarkdown(s);

    o += "\n## Cluster idle (every CPU of the group idle at once)\n\n| cpus | all idle (ms) | observed (ms) | share |\n"
         "|---|---|---|---|\n";
    for (const ClusterStats &cl : s.clusters)
        o += "| " + cpuList(cl.cpus) + " | " + ms(cl.allIdleNs) + " | " + ms(cl.observedNs) + " | "
             + pct(cl.allIdleNs, cl.observedNs) + " |\n";

    o += "\n## Wakeup causes\n\n| cpu |";
    for (int k = 0; k < WAKE_CAUSE_COUNT; ++k)
        o += std::string(" ") + wakeCauseName(static_cast<WakeCause>(k)) + " |";
    o += "\n|---|";
    for (int k = 0; k < WAKE_CAUSE_COUNT; ++k)
        o += "---|";
    o += "\n";
    for (const CpuStats *c : allRows(s)) {
        o += "| " + cpuLabel(*c) + " |";
        for (std::int64_t n : c->causes)
            o += " " + std::to_string(n) + " |";
        o += "\n";
    }
    for (const auto &[name, n] : s.total.irqNames)
        o += "\n- irq " + name + ": " + std::to_string(n);
    for (const auto &[name, n] : s.total.timerNames)
        o += "\n- hrtimer " + name + ": " + std::to_string(n);
    o += "\n\n## Idle duration histogram (entries)\n\n| duration |";
    for (const CpuStats *c : allRows(s))
        o += " cpu " + cpuLabel(*c) + " |";
    o += "\n|---|";
    for (size_t i = 0; i < allRows(s).size(); ++i)
        o += "---|";
    o += "\n";
    for (int k = 0; k < HIST_BINS; ++k) {
        o += "| " + histLabel(k) + " |";
        for (const CpuStats *c : allRows(s))
            o += " " + std::to_string(c->histogram[static_cast<size_t>(k)]) + " |";
        o += "\n";
    }
    if (r.simulated) {
        const SimulatedTrace &sim = *r.simulated;
        o += "\n## Recorded vs simulated (" + sim.governor + " on '" + sim.tableId + "', all CPUs)\n\n";
        o +=
            "| state | recorded usage | simulated usage | recorded time (ms) | simulated time (ms) | recorded above/below | simulated above/below |\n|---|---|---|---|---|---|---|\n";
        const size_t n = std::max(s.total.states.size(), static_cast<size_t>(sim.total.stateCount));
        for (size_t i = 0; i < n; ++i) {
            const StateStats rec = i < s.total.states.size() ? s.total.states[i] : StateStats{};
            const StateStats sm = i < static_cast<size_t>(sim.total.stateCount) ? sim.total.states[i] : StateStats{};
            o += "| " + std::to_string(i) + " | " + std::to_string(rec.usage) + " | " + std::to_string(sm.usage) + " | "
                 + ms(rec.timeNs) + " | " + ms(sm.timeNs) + " | " + std::to_string(rec.above) + "/"
                 + std::to_string(rec.below) + " | " + std::to_string(sm.above) + "/" + std::to_string(sm.below)
                 + " |\n";
        }
        o += "\n" + coverageText(s, sim) + "\n";
    }
    if (r.baseline && r.baselineTrace) {
        const CpuStats &a = s.total, &b = r.baseline->total;
        o += "\n## Against the baseline " + r.baselineTrace->file + " (all CPUs)\n\n";
        o += "| | this trace | baseline | change |\n|---|---|---|---|\n";
        auto line = [&](const std::string &what, const std::string &x, const std::string &y, const std::string &d) {
            o += "| " + what + " | " + x + " | " + y + " | " + d + " |\n";
        };
        auto diff = [](std::int64_t x, std::int64_t y) { return (x >= y ? "+" : "") + std::to_string(x - y); };
        line("idle entries", std::to_string(a.entries), std::to_string(b.entries), diff(a.entries, b.entries));
        line("idle (ms)", ms(a.idleNs), ms(b.idleNs),
             (a.idleNs >= b.idleNs ? "+" : "-") + ms(a.idleNs >= b.idleNs ? a.idleNs - b.idleNs : b.idleNs - a.idleNs));
        const size_t n = std::max(a.states.size(), b.states.size());
        for (size_t i = 0; i < n; ++i) {
            const StateStats x = i < a.states.size() ? a.states[i] : StateStats{};
            const StateStats y = i < b.states.size() ? b.states[i] : StateStats{};
            const std::string name = stateName(r, i);
            const std::string st = "state " + std::to_string(i) + (name.empty() ? "" : " (" + name + ")");
            line(st + " usage", std::to_string(x.usage), std::to_string(y.usage), diff(x.usage, y.usage));
            line(st + " share of idle", pct(x.timeNs, a.idleNs), pct(y.timeNs, b.idleNs), "");
            line(st + " above", std::to_string(x.above), std::to_string(y.above), diff(x.above, y.above));
            line(st + " below", std::to_string(x.below), std::to_string(y.below), diff(x.below, y.below));
            line(st + " avg residency (us)", us(meanResidency(x)), us(meanResidency(y)), "");
        }
        for (int k = 0; k < WAKE_CAUSE_COUNT; ++k) {
            const auto kk = static_cast<size_t>(k);
            line(std::string("wakeups by ") + wakeCauseName(static_cast<WakeCause>(k)), std::to_string(a.causes[kk]),
                 std::to_string(b.causes[kk]), diff(a.causes[kk], b.causes[kk]));
        }
    }
    o += "\n## Warnings\n\n";
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

std::string formatStatsCsv(const StatsReport &r)
{
    std::string o = "cpu,metric,key,value\n";
    auto row = [&](const std::string &cpu, const char *metric, const std::string &key, std::int64_t v) {
        o += cpu + "," + metric + "," + key + "," + std::to_string(v) + "\n";
    };
    const TraceImport &t = r.trace;
    row("all", "cpus_in_trace", "", static_cast<std::int64_t>(t.cpus.size()));
    row("all", "cpus_declared", "", t.declaredCpus);
    row("all", "cpus_with_events", "", t.cpusWithEvents());
    row("all", "cpus_with_idle_entries", "", t.cpusWithIdleEntries());
    for (const CpuStats *c : allRows(r.stats)) {
        const std::string cpu = cpuLabel(*c);
        row(cpu, "entries", "", c->entries);
        row(cpu, "truncated_entries", "", c->truncatedEntries);
        row(cpu, "spans", "", c->spans);
        row(cpu, "spans_exported", "", c->exportedSpans);
        for (int k = 0; k < SPAN_DROP_COUNT; ++k)
            row(cpu, "spans_dropped", spanDropName(static_cast<SpanDrop>(k)), c->droppedSpans[static_cast<size_t>(k)]);
        row(cpu, "rows_exported", "", c->exportedRows);
        row(cpu, "entries_in_exported_spans", "", c->exportedEntries);
        row(cpu, "idle_ns", "", c->idleNs);
        row(cpu, "observed_ns", "", c->observedNs);
        for (size_t i = 0; i < c->states.size(); ++i) {
            row(cpu, "state_usage", std::to_string(i), c->states[i].usage);
            row(cpu, "state_time_ns", std::to_string(i), c->states[i].timeNs);
            row(cpu, "state_above", std::to_string(i), c->states[i].above);
            row(cpu, "state_below", std::to_string(i), c->states[i].below);
            row(cpu, "state_min_residency_ns", std::to_string(i), rangeOf(*c, i).minNs);
            row(cpu, "state_avg_residency_ns", std::to_string(i), meanResidency(c->states[i]));
            row(cpu, "state_max_residency_ns", std::to_string(i), rangeOf(*c, i).maxNs);
        }
        for (int k = 0; k < WAKE_CAUSE_COUNT; ++k)
            row(cpu, "cause", wakeCauseName(static_cast<WakeCause>(k)), c->causes[static_cast<size_t>(k)]);
        for (const auto &[name, n] : c->irqNames)
            row(cpu, "cause_irq", csvField(name), n);
        for (const auto &[name, n] : c->timerNames)
            row(cpu, "cause_hrtimer", csvField(name), n);
        for (int k = 0; k < HIST_BINS; ++k)
            row(cpu, "hist_lower_ns", std::to_string(histogramLowerNs(k)), c->histogram[static_cast<size_t>(k)]);
        for (const FrequencyResidency &f : c->frequencies) {
            const std::string khz = std::to_string(f.khz);
            row(cpu, "freq_hits", khz, f.hits);
            row(cpu, "freq_time_ns", khz, f.timeNs);
            row(cpu, "freq_min_ns", khz, f.minNs);
            row(cpu, "freq_avg_ns", khz, f.meanNs());
            row(cpu, "freq_max_ns", khz, f.maxNs);
        }
    }
    // State names (the only text values: key = state index, value = the table's name).
    for (size_t i = 0; i < r.stats.total.states.size(); ++i)
        if (const std::string name = stateName(r, i); !name.empty())
            o += "all,state_name," + std::to_string(i) + "," + csvField(name) + "\n";
    for (const ClusterStats &cl : r.stats.clusters) {
        std::string cpus;
        for (const int c : cl.cpus)
            cpus += (cpus.empty() ? "" : "+") + std::to_string(c);
        row(cpus, "cluster_all_idle_ns", "", cl.allIdleNs);
        row(cpus, "cluster_observed_ns", "", cl.observedNs);
    }
    if (r.baseline) {
        const CpuStats &b = r.baseline->total;
        row("baseline", "entries", "", b.entries);
        row("baseline", "idle_ns", "", b.idleNs);
        row("baseline", "observed_ns", "", b.observedNs);
        for (size_t i = 0; i < b.states.size(); ++i) {
            row("baseline", "state_usage", std::to_string(i), b.states[i].usage);
            row("baseline", "state_time_ns", std::to_string(i), b.states[i].timeNs);
            row("baseline", "state_above", std::to_string(i), b.states[i].above);
            row("baseline", "state_below", std::to_string(i), b.states[i].below);
        }
        for (int k = 0; k < WAKE_CAUSE_COUNT; ++k)
            row("baseline", "cause", wakeCauseName(static_cast<WakeCause>(k)), b.causes[static_cast<size_t>(k)]);
    }
    if (r.simulated) {
        row("all", "sim_spans", "", r.simulated->total.spans);
        row("all", "sim_entries", "", r.simulated->total.entries);
        for (int i = 0; i < r.simulated->total.stateCount; ++i) {
            const StateStats &st = r.simulated->total.states[static_cast<size_t>(i)];
            row("all", "sim_state_usage", std::to_string(i), st.usage);
            row("all", "sim_state_time_ns", std::to_string(i), st.timeNs);
            row("all", "sim_state_above", std::to_string(i), st.above);
            row("all", "sim_state_below", std::to_string(i), st.below);
        }
    }
    return o;
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
        o += firstCpu ? "\n" : ",\n";
        firstCpu = false;
        o += "    {\"cpu\": " + (c->cpu < 0 ? std::string("\"all\"") : std::to_string(c->cpu)) + ", \"entries\": "
             + std::to_string(c->entries) + ", \"truncated_entries\": " + std::to_string(c->truncatedEntries)
             + ", \"spans\": " + std::to_string(c->spans) + ", \"spans_exported\": " + std::to_string(c->exportedSpans)
             + ", \"rows_exported\": " + std::to_string(c->exportedRows) + ", \"spans_dropped\": "
             + dropsJson(c->droppedSpans) + ", \"entries_in_exported_spans\": " + std::to_string(c->exportedEntries)
             + ", \"idle_ns\": " + std::to_string(c->idleNs) + ", \"observed_ns\": " + std::to_string(c->observedNs)
             + ",\n     \"states\": [";
        for (size_t i = 0; i < c->states.size(); ++i) {
            const std::string name = stateName(r, i);
            o += std::string(i ? ", " : "") + "{" + (name.empty() ? "" : "\"name\": " + jsonString(name) + ", ")
                 + "\"usage\": " + std::to_string(c->states[i].usage) + ", \"time_ns\": "
                 + std::to_string(c->states[i].timeNs) + ", \"above\": " + std::to_string(c->states[i].above)
                 + ", \"below\": " + std::to_string(c->states[i].below)
                 + ", \"min_residency_ns\": " + std::to_string(rangeOf(*c, i).minNs)
                 + ", \"avg_residency_ns\": " + std::to_string(meanResidency(c->states[i]))
                 + ", \"max_residency_ns\": " + std::to_string(rangeOf(*c, i).maxNs) + "}";
        }
        o += "],\n     \"causes\": {";
        for (int k = 0; k < WAKE_CAUSE_COUNT; ++k)
            o += std::string(k ? ", " : "") + jsonString(wakeCauseName(static_cast<WakeCause>(k))) + ": "
                 + std::to_string(c->causes[static_cast<size_t>(k)]);
        o += "},\n     \"cause_names\": {\"irq\": {";
        bool firstName = true;
        for (const auto &[name, n] : c->irqNames) {
            o += std::string(firstName ? "" : ", ") + jsonString(name) + ": " + std::to_string(n);
            firstName = false;
        }
        o += "}, \"hrtimer\": {";
        firstName = true;
        for (const auto &[name, n] : c->timerNames) {
            o += std::string(firstName ? "" : ", ") + jsonString(name) + ": " + std::to_string(n);
            firstName = false;
        }
        o += "}},\n     \"histogram\": [";
        for (int k = 0; k < HIST_BINS; ++k)
            o += std::string(k ? ", " : "") + std::to_string(c->histogram[static_cast<size_t>(k)]);
        o += "],\n     \"frequencies\": " + frequenciesJson(*c) + "}";
    }
    o += "\n  ],\n  \"clusters\": [";
    for (size_t i = 0; i < r.stats.clusters.size(); ++i) {
        const ClusterStats &cl = r.stats.clusters[i];
        std::string cpus;
        for (const int c : cl.cpus)
            cpus += (cpus.empty() ? "" : ", ") + std::to_string(c);
        o += std::string(i ? ", " : "") + "{\"cpus\": [" + cpus + "], \"all_idle_ns\": " + std::to_string(cl.allIdleNs)
             + ", \"observed_ns\": " + std::to_string(cl.observedNs) + "}";
    }
    o += "],\n  \"warnings\": {";
    bool first = true;
    for (int k = 0; k < WARNING_KIND_COUNT; ++k)
        if (t.warningCounts[k]) {
            o += std::string(first ? "" : ", ") + jsonString(warningKindName(static_cast<WarningKind>(k))) + ": "
                 + std::to_string(t.warningCounts[k]);
            first = false;
        }
    o += "}";
    if (r.baseline && r.baselineTrace) {
        const CpuStats &b = r.baseline->total;
        o += ",\n  \"baseline\": {\"file\": " + jsonString(r.baselineTrace->file)
             + ", \"entries\": " + std::to_string(b.entries) + ", \"idle_ns\": " + std::to_string(b.idleNs)
             + ", \"observed_ns\": " + std::to_string(b.observedNs) + ", \"states\": [";
        for (size_t i = 0; i < b.states.size(); ++i)
            o += std::string(i ? ", " : "") + "{\"usage\": " + std::to_string(b.states[i].usage) + ", \"time_ns\": "
                 + std::to_string(b.states[i].timeNs) + ", \"above\": " + std::to_string(b.states[i].above)
                 + ", \"below\": " + std::to_string(b.states[i].below) + "}";
        o += "], \"causes\": {";
        for (int k = 0; k < WAKE_CAUSE_COUNT; ++k)
            o += std::string(k ? ", " : "") + jsonString(wakeCauseName(static_cast<WakeCause>(k))) + ": "
                 + std::to_string(b.causes[static_cast<size_t>(k)]);
        o += "}}";
    }
    if (r.simulated) {
        o +=
            ",\n  \"simulated\": {\"governor\": " + jsonString(r.simulated->governor) + ", \"table\": "
            + jsonString(r.simulated->tableId) + ", \"spans\": " + std::to_string(r.simulated->total.spans)
            + ", \"entries\": " + std::to_string(r.simulated->total.entries)
            + ",\n                \"covers\": \"the exported spans only (cpus[all].spans_exported; spans_dropped are left out)\""
            + ", \"states\": [";
        for (int i = 0; i < r.simulated->total.stateCount; ++i) {
            const StateStats &st = r.simulated->total.states[static_cast<size_t>(i)];
            o += std::string(i ? ", " : "") + "{\"usage\": " + std::to_string(st.usage)
                 + ", \"time_ns\": " + std::to_string(st.timeNs) + ", \"above\": " + std::to_string(st.above)
                 + ", \"below\": " + std::to_string(st.below) + "}";
        }
        o += "]}";
    }
    return o + "\n}\n";
}

} // namespace idlescope::trace
