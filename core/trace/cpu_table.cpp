// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/cpu_table.h"

#include "core/common/text_cells.h"
#include "core/experiments/machine_comparison_format.h"

#include <algorithm>
#include <cmath>

namespace idlescope::trace {

namespace {

std::string cpuName(int cpu)
{
    return "cpu" + std::to_string(cpu);
}

std::string runName(const MachineRun &r)
{
    return r.label.empty() ? r.name : r.label;
}

/// The agreement of @p run on CPU @p cpu (-1: all) as its cell and its note; empty without one.
std::pair<std::string, std::string> agreementOf(const std::vector<RunAgreement> &agreement, const MachineRun &run,
                                                int cpu)
{
    for (const RunAgreement &g : agreement) {
        if (g.name != run.name)
            continue;
        const TraceAgreement &a = g.agreement;
        const CpuAgreement *c = cpu < 0 ? &a.total : nullptr;
        for (const CpuAgreement &one : a.cpus)
            if (one.cpu == cpu)
                c = &one;
        if (!c)
            return {};
        std::string note = std::to_string(c->agreed) + " of " + std::to_string(c->paired)
                           + " paired entries in the kernel's state (" + std::to_string(c->recordedEntries)
                           + " recorded, " + std::to_string(c->simulatedEntries) + " simulated)";
        // The confusion matrix, a line per state the kernel entered.
        note += "\nkernel's state \u2192 " + g.name + "'s: counts per state, shallow to deep";
        for (int r = 0; r < c->stateCount; ++r) {
            note += "\n  state " + std::to_string(r) + ":";
            for (int col = 0; col < c->stateCount; ++col)
                note += (col ? "  " : " ")
                        + std::to_string(c->matrix[static_cast<std::size_t>(r)][static_cast<std::size_t>(col)]);
        }
        for (const Disagreement &d : a.first)
            if (cpu < 0 || d.cpu == cpu)
                note += "\n" + formatNumber("%.6f", static_cast<double>(d.traceNs) / 1e9) + " s, cpu"
                        + std::to_string(d.cpu) + ": kernel state " + std::to_string(d.recordedState) + ", " + g.name
                        + " state " + std::to_string(d.simulatedState);
        return {formatNumber("%.1f", 100.0 * c->share()), note};
    }
    return {};
}

CpuTableRow row(const std::string &cpu, const MachineRun &run, const CpuRun &c, double energyJ,
                const std::string &noEnergy, int cpuNumber, const std::vector<RunAgreement> &agreement)
{
    CpuTableRow r;
    r.cpu = cpu;
    r.run = runName(run);
    r.cpuNumber = cpuNumber;
    auto [agrees, agreesNote] = agreementOf(agreement, run, cpuNumber);
    r.cells = {cpu,
               r.run,
               std::to_string(c.entries),
               std::to_string(c.above()),
               std::to_string(c.below()),
               formatNumber("%.1f", 100.0 * c.missRatio()),
               formatNumber("%.3f", static_cast<double>(c.idleNs()) / 1e6),
               std::to_string(c.wakeups),
               std::isnan(energyJ) ? std::string() : formatNumber("%.3f", energyJ * 1e3),
               agrees};
    if (std::isnan(energyJ))
        r.energyNote = noEnergy;
    r.agreementNote = std::move(agreesNote);
    return r;
}

double cpuEnergyJ(const RunEnergy &e, std::size_t i)
{
    return e.available && i < e.cpus.size() ? e.cpus[i].idleTotalJ() : NAN;
}

} // namespace

CpuTable cpuTable(const MachineComparison &c, const std::vector<RunAgreement> &agreement, int shownCpu)
{
    CpuTable t;
    t.columns = {{"CPU", "cpu"},
                 {"run", "run"},
                 {"entries", "entries"},
                 {"above", "above"},
                 {"below", "below"},
                 {"miss %", "miss_pct"},
                 {"idle ms", "idle_ms"},
                 {"wakeups", "wakeups"},
                 {"idle energy mJ", "idle_energy_mJ"},
                 {"agrees %", "agrees_pct"}};
    // Like with like first: every run over the replayed spans, CPU by CPU.
    std::vector<int> cpus;
    for (const MachineRun &r : c.runs)
        for (const CpuRun &cr : r.cpus)
            if (std::find(cpus.begin(), cpus.end(), cr.cpu) == cpus.end())
                cpus.push_back(cr.cpu);
    std::sort(cpus.begin(), cpus.end());
    for (int cpu : cpus) {
        if (shownCpu != CPU_TABLE_ALL && cpu != shownCpu)
            continue;
        for (std::size_t k = 0; k < c.runs.size(); ++k) {
            const MachineRun &run = c.runs[k];
            if (run.name == WHOLE_TRACE_RUN)
                continue;
            for (std::size_t i = 0; i < run.cpus.size(); ++i)
                if (run.cpus[i].cpu == cpu)
                    t.rows.push_back(row(cpuName(cpu), run, run.cpus[i], cpuEnergyJ(c.energy[k], i),
                                         c.energy[k].missing, cpu, agreement));
        }
    }
    // All CPUs: each run's sum over its CPUs (MachineRun::total(), as sysfs sums them).
    if (shownCpu == CPU_TABLE_ALL)
        for (std::size_t k = 0; k < c.runs.size(); ++k) {
            if (c.runs[k].name == WHOLE_TRACE_RUN)
                continue;
            const RunEnergy &e = c.energy[k];
            t.rows.push_back(row("all CPUs", c.runs[k], c.runs[k].total(), e.available ? e.idleTotalJ() : NAN,
                                 e.missing, -1, agreement));
        }
    // The whole trace: a separate, labelled line (its shown CPU, or all of them).
    for (std::size_t k = 0; k < c.runs.size(); ++k) {
        const MachineRun &run = c.runs[k];
        if (run.name != WHOLE_TRACE_RUN)
            continue;
        const RunEnergy &e = c.energy[k];
        if (shownCpu == CPU_TABLE_ALL) {
            t.rows.push_back(
                row("whole trace", run, run.total(), e.available ? e.idleTotalJ() : NAN, e.missing, -1, agreement));
            continue;
        }
        for (std::size_t i = 0; i < run.cpus.size(); ++i)
            if (run.cpus[i].cpu == shownCpu)
                t.rows.push_back(row("whole trace, " + cpuName(shownCpu), run, run.cpus[i], cpuEnergyJ(e, i), e.missing,
                                     shownCpu, agreement));
    }
    return t;
}

std::vector<std::string> cpuTableNotes(const MachineComparison &c)
{
    std::vector<std::string> notes;
    for (const MachineRun &r : c.runs)
        if (r.name == WHOLE_TRACE_RUN) {
            notes.push_back(
                "Each CPU's lanes and rows cover its replayed spans over the same time: recorded "
                "draws and counts the kernel's entries there, each governor its own. \u201cwhole trace\u201d: every complete "
                "entry ("
                + std::to_string(r.total().entries)
                + "), as sysfs counts, not comparable with the rows above. agrees %: entries where the "
                  "governor entered the kernel's state (the First disagreements tab lists the first ones; a click opens the kernel's entry).");
            break;
        }
    return notes;
}

std::string formatCpuTable(const MachineComparison &c, const CpuTable &table, int shownCpu,
                           const std::vector<std::string> &extra, bool markdown)
{
    std::vector<std::string> head;
    const std::string trace = c.workloadLabel.rfind("trace:", 0) == 0 ? c.workloadLabel.substr(6) : c.workloadLabel;
    head.push_back("idlescope CPUs table: trace " + trace);
    std::string machine = "machine " + c.machine.id + " (" + std::to_string(c.machine.cpuCount()) + " CPUs";
    for (const Cluster &cl : c.machine.clusters) {
        std::string cpus;
        for (int cpu : cl.cpus)
            cpus += (cpus.empty() ? "" : " ") + std::to_string(cpu);
        machine += "; " + cl.name + ": CPUs " + cpus + ", table " + cl.table.id + " at "
                   + std::to_string(cl.table.tickHz) + " Hz";
    }
    head.push_back(machine + ")");
    std::string runs;
    for (const MachineRun &r : c.runs)
        if (r.name != WHOLE_TRACE_RUN)
            runs += (runs.empty() ? "" : ", ") + runName(r)
                    + (r.name == "recorded" ? " (the kernel's choices; above/below " + r.missSource + ")" : "");
    head.push_back("runs: " + runs);
    head.push_back(shownCpu == CPU_TABLE_ALL ? std::string("CPUs: every CPU replayed, each run summed, the whole trace")
                                             : "CPUs: " + cpuName(shownCpu) + " and its whole-trace line");
    for (const std::string &n : cpuTableNotes(c))
        head.push_back(n);
    // Where the energy comes from, or why a cell is empty.
    for (std::size_t k = 0; k < c.runs.size() && k < c.energy.size(); ++k) {
        if (c.runs[k].name == WHOLE_TRACE_RUN)
            continue;
        const RunEnergy &e = c.energy[k];
        std::string source;
        for (const Cluster &cl : c.machine.clusters)
            if (!cl.power.source.empty() && source.find(cl.power.source) == std::string::npos)
                source += (source.empty() ? "" : "; ") + cl.power.source;
        head.push_back(e.available ? "idle_energy_mJ: idle + entry/exit energy of the states' power data"
                                         + (source.empty() ? std::string() : " (" + source + ")")
                                   : "idle_energy_mJ: empty, " + e.missing
                                         + " (a table JSON's power_mw, or --power STATE=NUMBERmW)");
        break;
    }
    head.push_back("wakeups: the run's idle spans ended by a non-timer event (a task woken by an interrupt, an IPI or "
                   "another CPU; timer wakeups are not counted), as compare's wakeups column");
    head.push_back("agrees_pct: empty where no recorded governor is compared (a latency limit, or no recorded run)");
    for (const std::string &x : extra)
        head.push_back(x);

    std::string out;
    if (markdown) {
        for (const std::string &h : head)
            out += "- " + h + "\n";
        out += "\n|";
        for (const CpuTableColumn &col : table.columns)
            out += " " + col.key + " |";
        out += "\n|---|---|";
        for (std::size_t i = 2; i < table.columns.size(); ++i)
            out += "---:|";
        out += "\n";
        for (const CpuTableRow &r : table.rows) {
            out += "|";
            for (const std::string &cell : r.cells)
                out += " " + cell + " |";
            out += "\n";
        }
        return out;
    }
    for (const std::string &h : head)
        out += "# " + h + "\n";
    for (std::size_t i = 0; i < table.columns.size(); ++i)
        out += (i ? "," : "") + table.columns[i].key;
    out += "\n";
    for (const CpuTableRow &r : table.rows) {
        for (std::size_t i = 0; i < r.cells.size(); ++i)
            out += (i ? "," : "") + columnSafe(r.cells[i]);
        out += "\n";
    }
    return out;
}

} // namespace idlescope::trace
