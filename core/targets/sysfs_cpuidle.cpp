// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/targets/sysfs_cpuidle.h"

#include "core/common/input_file.h"
#include "core/common/units.h"

#include <charconv>
#include <filesystem>
#include <optional>

namespace idlescope {

namespace fs = std::filesystem;

namespace {

/// The first line of a sysfs file, without the newline; nullopt if it cannot be
/// read. A copied tree may hold anything: a FIFO (open() would block) or a
/// device is not read, and a sysfs attribute is at most a page.
Result<std::string> readFirstLine(const fs::path &p)
{
    Result<std::string> text = readInputFile(p.string(), 4096, "a sysfs attribute");
    if (!text)
        return text.error();
    std::string line = text->substr(0, text->find('\n'));
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    return line;
}

std::optional<std::string> readLine(const fs::path &p)
{
    Result<std::string> line = readFirstLine(p);
    return line ? std::optional<std::string>(std::move(*line)) : std::nullopt;
}

Result<std::int64_t> readNumber(const fs::path &p, const char *field)
{
    Result<std::string> s = readFirstLine(p);
    if (!s) {
        Error e = s.error();
        e.field = field;
        return e;
    }
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
    if (ec != std::errc() || ptr != s->data() + s->size() || v < 0)
        return Error{p.string(), 1, field, "expected a non-negative whole number, got '" + quoteField(*s) + "'"};
    return v;
}

/// A sysfs file of microseconds, in nanoseconds.
Result<Ns> readMicros(const fs::path &p, const char *field)
{
    Result<std::int64_t> us = readNumber(p, field);
    if (!us)
        return us.error();
    const std::optional<Ns> ns = usToNs(*us);
    if (!ns)
        return Error{p.string(), 1, field, std::to_string(*us) + " us does not fit in 64-bit nanoseconds"};
    return *ns;
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
                     msg
                         + ": the kernel exposes no idle states here (common in virtual machines, "
                           "where the host decides). Pick a built-in table instead."};
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
    out.warnings.push_back("the tick rate (CONFIG_HZ) is not in sysfs: assuming 250 Hz");

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
        Result<Ns> lat = readMicros(dir / "latency", "latency");
        if (!lat)
            return lat.error();
        st.exitLatencyNs = *lat;
        if (fs::exists(dir / "residency", ec)) {
            Result<Ns> res = readMicros(dir / "residency", "residency");
            if (!res)
                return res.error();
            st.targetResidencyNs = *res;
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
