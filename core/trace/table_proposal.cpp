// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/table_proposal.h"

#include "core/common/input_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <system_error>

namespace idlescope::trace {

TableProposal tableProposal(const std::string &tracePath, const TraceImport &trace)
{
    TableProposal p;
    // cmd_record.cpp writes it next to the trace under the trace's own name.
    const std::string sidecar = tracePath + ".table.json";
    std::error_code ec;
    if (std::filesystem::is_regular_file(sidecar, ec))
        p.sidecarPath = sidecar;
    for (const CpuTrace &c : trace.cpus)
        for (const IdleEntryRec &e : c.entries)
            p.statesSeen = std::max(p.statesSeen, e.state + 1);
    return p;
}

std::vector<std::string> tablesWithStates(const std::vector<std::pair<std::string, int>> &tables, int statesSeen)
{
    std::vector<std::string> ids;
    for (const auto &[id, count] : tables)
        if (count == statesSeen)
            ids.push_back(id);
    return ids;
}

namespace {

/// A machine description is a few lines of lscpu and sysfs: a megabyte is plenty.
constexpr std::size_t MAX_MACHINE_DESCRIPTION_BYTES = 1u << 20;

std::string trimmed(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

/// A machine word (uname -m, lscpu) as one of driverArch()'s names.
std::string archFamily(const std::string &word)
{
    if (word == "x86_64" || word == "i686" || word == "i386" || word == "amd64")
        return "x86";
    if (word == "aarch64" || word == "arm64")
        return "arm64";
    if (word.rfind("ppc64", 0) == 0 || word == "powerpc")
        return "powerpc";
    return {};
}

/// The value after "key:" in @p line when its key (before the first ':') ends in @p key.
bool valueOf(const std::string &line, const std::string &key, std::string *value)
{
    const auto colon = line.find(':');
    if (colon == std::string::npos)
        return false;
    const std::string k = trimmed(line.substr(0, colon));
    if (k.size() < key.size() || k.compare(k.size() - key.size(), key.size(), key) != 0)
        return false;
    *value = trimmed(line.substr(colon + 1));
    return true;
}

} // namespace

TracedMachine parseMachineDescription(const std::string &text)
{
    TracedMachine m;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::string v;
        if (line.rfind("Linux ", 0) == 0 && m.arch.empty()) { // uname -a: the machine is a word of it
            std::istringstream words(line);
            for (std::string w; words >> w;)
                if (const std::string a = archFamily(w); !a.empty())
                    m.arch = a;
        } else if (valueOf(line, "Architecture", &v)) {
            if (const std::string a = archFamily(v); !a.empty())
                m.arch = a;
        } else if (valueOf(line, "Hypervisor vendor", &v)) {
            m.hypervisor = m.hypervisor || !v.empty();
        } else if (valueOf(line, "Flags", &v)) {
            std::istringstream flags(v);
            for (std::string f; flags >> f;)
                m.hypervisor = m.hypervisor || f == "hypervisor";
        } else if (valueOf(line, "current_driver", &v)) {
            m.driver = v;
        }
    }
    return m;
}

TracedMachine machineBesideTrace(const std::string &tracePath)
{
    namespace fs = std::filesystem;
    const fs::path trace(tracePath);
    std::error_code ec;
    std::string found;
    if (fs::is_regular_file(tracePath + ".machine.txt", ec)) {
        found = tracePath + ".machine.txt";
    } else {
        // The longest prefix wins: a-b.machine.txt describes a-b-c.dat better than a.machine.txt.
        const std::string name = trace.filename().string();
        const std::string suffix = ".machine.txt";
        std::size_t best = 0;
        for (fs::directory_iterator it(trace.has_parent_path() ? trace.parent_path() : fs::path("."), ec), end;
             !ec && it != end; it.increment(ec)) {
            const std::string f = it->path().filename().string();
            if (f.size() <= suffix.size() || f.compare(f.size() - suffix.size(), suffix.size(), suffix) != 0)
                continue;
            const std::string prefix = f.substr(0, f.size() - suffix.size());
            if (name.rfind(prefix, 0) == 0 && prefix.size() > best) {
                best = prefix.size();
                found = it->path().string();
            }
        }
    }
    if (found.empty())
        return {};
    // Regular and bounded (a FIFO named like a description must not hold the import); an
    // unreadable description is no description, the trace is read without it.
    Result<std::string> text = readInputFile(found, MAX_MACHINE_DESCRIPTION_BYTES, "a machine description");
    if (!text)
        return {};
    TracedMachine m = parseMachineDescription(*text);
    m.path = found;
    return m;
}

std::string driverArch(const std::string &driver)
{
    if (driver == "intel_idle" || driver == "acpi_idle" || driver == "haltpoll")
        return "x86";
    if (driver == "psci_idle" || driver == "arm_idle")
        return "arm64";
    if (driver == "pseries_idle" || driver == "powernv_idle")
        return "powerpc";
    return {};
}

std::vector<TableChoice> proposeTables(const std::vector<TableCandidate> &tables, int statesSeen,
                                       const TracedMachine &machine)
{
    // The driver the machine's idle states are those of: its own, or for an x86 virtual
    // machine without one the KVM guest driver (its guest idles in HLT, one state and the
    // polling one: the haltpoll guest's table).
    std::string driver = machine.driver == "none" ? std::string() : machine.driver;
    std::string driverWhy;
    if (!driver.empty())
        driverWhy = "the machine's driver, " + driver;
    else if (machine.driver == "none" && machine.arch == "x86" && machine.hypervisor) {
        driver = "haltpoll";
        driverWhy = "an x86 virtual machine without a cpuidle driver: a KVM guest idles in HLT, as the "
                    "haltpoll guest driver's table describes";
    }
    struct Scored {
        int score;
        std::size_t order;
        TableChoice choice;
    };
    std::vector<Scored> scored;
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const TableCandidate &t = tables[i];
        const std::string arch = driverArch(t.driver);
        if (!machine.arch.empty() && !arch.empty() && arch != machine.arch)
            continue; // another architecture's table never fits
        const bool driverFits = !driver.empty() && t.driver == driver;
        const bool countFits = statesSeen > 0 && t.stateCount == statesSeen;
        if (!driverFits && !countFits)
            continue;
        std::vector<std::string> why;
        if (driverFits)
            why.push_back(driverWhy);
        else if (!machine.arch.empty())
            why.push_back("a table for " + machine.arch + ", as the machine");
        if (countFits)
            why.push_back(std::to_string(t.stateCount) + " states, as many as the trace enters");
        std::string text;
        for (const std::string &w : why)
            text += (text.empty() ? "" : "; ") + w;
        scored.push_back({(driverFits ? 2 : 0) + (countFits ? 1 : 0), i, {t.id, text}});
    }
    std::stable_sort(scored.begin(), scored.end(), [](const Scored &a, const Scored &b) { return a.score > b.score; });
    std::vector<TableChoice> out;
    for (Scored &s : scored)
        out.push_back(std::move(s.choice));
    return out;
}

} // namespace idlescope::trace
