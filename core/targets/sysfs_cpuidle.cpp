// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/targets/sysfs_cpuidle.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace idlescope {

namespace fs = std::filesystem;

namespace {

/// The first line of a sysfs file, without the newline; nullopt if it cannot be read.
std::optional<std::string> readLine(const fs::path &p)
{
    std::ifstream in(p);
    if (!in)
        return std::nullopt;
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    return line;
}

Result<std::int64_t> readNumber(const fs::path &p, const char *field)
{
    const std::optional<std::string> s = readLine(p);
    if (!s)
        return Error{p.string(), 0, field, "cannot read"};
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
    if (ec != std::errc() || ptr != s->data() + s->size() || v < 0)
        return Error{p.string(), 1, field, "expected a non-negative whole number, got '" + *s + "'"};
    return v;
}

} // namespace

bool looksLikePollingState(const std::string &name, const std::string &desc)
{
    return name == "POLL" || name == "snooze" || desc == "CPUIDLE CORE POLL IDLE";
}

Result<SysfsCpuidle> readSysfsCpuidle(const std::string &cpuRoot, int cpu)
{
    const fs::path root(cpuRoot);
    const fs::path global = root / "cpuidle";
    const fs::path cpuDir = root / ("cpu" + std::to_string(cpu)) / "cpuidle";
    std::error_code ec;
    const std::optional<std::string> driver = readLine(global / "current_driver");
    if (!fs::is_directory(cpuDir, ec) || !driver || *driver == "none" || driver->empty()) {
        std::string msg = "this machine has no cpuidle driver";
        if (driver && !driver->empty() && *driver != "none")
            msg = "cpu" + std::to_string(cpu) + " has no cpuidle directory (offline, or no driver for it)";
        return Error{cpuDir.string(), 0, "",
                     msg + ": the kernel exposes no idle states here (common in virtual machines, "
                           "where the host decides). Pick a built-in table instead (idlescope-cli compare "
                           "--table ID; ids in help compare)."};
    }

    SysfsCpuidle out;
    out.cpu = cpu;
    out.driver = *driver;
    if (auto g = readLine(global / "current_governor"))
        out.governor = *g;
    else if (auto g2 = readLine(global / "current_governor_ro"))
        out.governor = *g2;
    out.table.id = "this-machine-cpu" + std::to_string(cpu);
    out.table.source = "sysfs " + cpuDir.string() + " (driver " + out.driver
                       + (out.governor.empty() ? "" : ", governor " + out.governor) + ")";
    out.warnings.push_back("the tick rate (CONFIG_HZ) is not in sysfs: assuming 250 Hz; set it with --hz");

    for (int i = 0;; ++i) {
        const fs::path dir = cpuDir / ("state" + std::to_string(i));
        if (!fs::is_directory(dir, ec))
            break;
        if (i >= CPUIDLE_STATE_MAX)
            return Error{dir.string(), 0, "", "more than " + std::to_string(CPUIDLE_STATE_MAX) + " idle states"};
        IdleState st;
        const std::optional<std::string> name = readLine(dir / "name");
        if (!name)
            return Error{(dir / "name").string(), 0, "name", "cannot read"};
        st.name = *name;
        st.desc = readLine(dir / "desc").value_or(st.name);
        Result<std::int64_t> lat = readNumber(dir / "latency", "latency");
        if (!lat)
            return lat.error();
        st.exitLatencyNs = *lat * NSEC_PER_USEC;
        if (fs::exists(dir / "residency", ec)) {
            Result<std::int64_t> res = readNumber(dir / "residency", "residency");
            if (!res)
                return res.error();
            st.targetResidencyNs = *res * NSEC_PER_USEC;
        } else {
            // Kernels before v3.x had no residency file.
            st.targetResidencyNs = st.exitLatencyNs;
            out.warnings.push_back("state" + std::to_string(i) + " (" + st.name
                                   + ") has no residency file: target residency set to its exit latency");
        }
        if (fs::exists(dir / "disable", ec)) {
            Result<std::int64_t> dis = readNumber(dir / "disable", "disable");
            if (!dis)
                return dis.error();
            st.disabled = *dis != 0;
        }
        if (readLine(dir / "default_status").value_or("enabled") == "disabled")
            st.disabled = true;
        st.polling = i == 0 && looksLikePollingState(st.name, st.desc);
        out.table.states.push_back(std::move(st));
    }
    if (out.table.states.empty())
        return Error{cpuDir.string(), 0, "", "no state0 folder: the cpuidle driver registered no states"};
    if (Status v = out.table.validate(); !v) {
        Error e = v.error();
        e.file = cpuDir.string();
        return e;
    }
    return out;
}

} // namespace idlescope
