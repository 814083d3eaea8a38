// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/targets/cpupower_import.h"

#include "core/common/units.h"
#include "core/targets/sysfs_cpuidle.h"

#include "core/common/input_file.h"

#include <charconv>
#include <optional>

namespace idlescope {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

std::optional<std::int64_t> wholeNumber(std::string_view s)
{
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || v < 0)
        return std::nullopt;
    return v;
}

struct PendingState {
    IdleState state;
    std::int64_t line = 0;
    bool hasLatency = false;
    bool hasResidency = false;
};

} // namespace

Result<CpupowerIdleInfo> parseCpupowerIdleInfo(std::string_view text, const std::string &label)
{
    CpupowerIdleInfo out;
    std::vector<PendingState> states;
    std::int64_t declared = -1;
    std::int64_t lineNo = 0;
    int cpusSeen = 0;
    bool sawDriver = false;

    auto numberAfter = [&](std::string_view value, const char *field) -> Result<std::int64_t> {
        const std::optional<std::int64_t> v = wholeNumber(trim(value));
        if (!v)
            return Error{label, lineNo, field,
                         "expected a whole number of microseconds, got '" + quoteField(trim(value)) + "'"};
        return *v;
    };
    auto microsAfter = [&](std::string_view value, const char *field) -> Result<Ns> {
        Result<std::int64_t> us = numberAfter(value, field);
        if (!us)
            return us.error();
        const std::optional<Ns> ns = usToNs(*us);
        if (!ns)
            return Error{label, lineNo, field, std::to_string(*us) + " us does not fit in 64-bit nanoseconds"};
        return *ns;
    };
    // "Latency: N" or "Residency: N" (@p field) of the state block being read: N us into
    // @p ns of that state, @p seen set.
    auto stateMicros = [&](std::string_view line, const char *field, Ns IdleState::*ns,
                           bool PendingState::*seen) -> Status {
        if (states.empty())
            return Error{label, lineNo, field, "appears before any state name line"};
        Result<Ns> v = microsAfter(line.substr(std::string_view(field).size() + 1), field);
        if (!v)
            return v.error();
        states.back().state.*ns = *v;
        states.back().*seen = true;
        return Ok{};
    };

    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t nl = text.find('\n', pos);
        const std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        ++lineNo;
        const std::string_view line = trim(raw);
        if (line.empty())
            continue;
        if (startsWith(line, "CPUidle driver:")) {
            out.driver = std::string(trim(line.substr(15)));
            sawDriver = true;
        } else if (startsWith(line, "CPUidle governor:")) {
            out.governor = std::string(trim(line.substr(17)));
        } else if (startsWith(line, "analyzing CPU")) {
            ++cpusSeen;
            if (cpusSeen == 1) {
                std::string_view n = trim(line.substr(13));
                if (!n.empty() && n.back() == ':')
                    n.remove_suffix(1);
                out.cpu = static_cast<int>(wholeNumber(trim(n)).value_or(-1));
            } else if (!states.empty()) {
                out.warnings.push_back("several CPUs in the output: only CPU " + std::to_string(out.cpu) + " was read");
                break;
            }
        } else if (startsWith(line, "Number of idle states:")) {
            Result<std::int64_t> n = numberAfter(line.substr(22), "Number of idle states");
            if (!n)
                return n.error();
            if (declared < 0)
                declared = *n;
        } else if (startsWith(line, "Available idle states:") || startsWith(line, "Usage:")
                   || startsWith(line, "Duration:")) {
            continue; // names are read from the state blocks (they may contain spaces)
        } else if (startsWith(line, "Flags/Description:")) {
            if (states.empty())
                return Error{label, lineNo, "Flags/Description", "appears before any state name line"};
            states.back().state.desc = std::string(trim(line.substr(18)));
        } else if (startsWith(line, "Latency:")) {
            if (Status st = stateMicros(line, "Latency", &IdleState::exitLatencyNs, &PendingState::hasLatency); !st)
                return st.error();
        } else if (startsWith(line, "Residency:")) {
            if (Status st = stateMicros(line, "Residency", &IdleState::targetResidencyNs, &PendingState::hasResidency);
                !st)
                return st.error();
        } else if (line.back() == ':') {
            // A state header: "NAME:" or "NAME (DISABLED) :".
            std::string_view name = trim(line.substr(0, line.size() - 1));
            PendingState ps;
            ps.line = lineNo;
            constexpr std::string_view kDisabled = "(DISABLED)";
            if (name.size() >= kDisabled.size() && name.substr(name.size() - kDisabled.size()) == kDisabled) {
                ps.state.disabled = true;
                name = trim(name.substr(0, name.size() - kDisabled.size()));
            }
            if (name.empty())
                return Error{label, lineNo, "state", "a state line with no name"};
            ps.state.name = std::string(name);
            states.push_back(std::move(ps));
        } else if (startsWith(line, "Could not determine cpuidle driver")) {
            continue;
        } else {
            return Error{label, lineNo, "", "not a line of cpupower idle-info output: '" + quoteField(line) + "'"};
        }
    }

    if (!sawDriver)
        return Error{label, 0, "CPUidle driver",
                     "no 'CPUidle driver:' line; is this the output of cpupower idle-info?"};
    if (out.driver == "none" || out.driver.empty())
        return Error{label, 0, "CPUidle driver", "the machine had no cpuidle driver (common in virtual machines)"};
    if (states.empty())
        return Error{label, 0, "", "no idle state blocks: run cpupower idle-info without --silent"};
    if (declared >= 0 && declared != static_cast<std::int64_t>(states.size()))
        return Error{label, 0, "Number of idle states",
                     "says " + std::to_string(declared) + " but " + std::to_string(states.size())
                         + " state blocks follow"};

    bool warnedResidency = false;
    for (size_t i = 0; i < states.size(); ++i) {
        PendingState &ps = states[i];
        if (!ps.hasLatency)
            return Error{label, ps.line, "Latency", "state " + ps.state.name + " has no Latency line"};
        if (!ps.hasResidency) {
            ps.state.targetResidencyNs = ps.state.exitLatencyNs;
            if (!warnedResidency)
                out.warnings.push_back("no Residency lines (older cpupower): target residency set to the exit "
                                       "latency; edit the table if you know the real values");
            warnedResidency = true;
        }
        if (ps.state.desc.empty())
            ps.state.desc = ps.state.name;
        ps.state.polling = i == 0 && looksLikePollingState(ps.state.name, ps.state.desc);
        out.table.states.push_back(ps.state);
    }
    out.table.id = "cpupower-cpu" + std::to_string(std::max(out.cpu, 0));
    out.table.source = "cpupower idle-info (" + label + "), driver " + out.driver
                       + (out.governor.empty() ? "" : ", governor " + out.governor);
    out.warnings.push_back("the tick rate (CONFIG_HZ) is not in cpupower output: assuming 250 Hz");
    if (Status v = out.table.validate(); !v) {
        Error e = v.error();
        e.file = label;
        return e;
    }
    return out;
}

Result<CpupowerIdleInfo> readCpupowerIdleInfo(const std::string &path)
{
    Result<std::string> text = readInputFile(path, 4u << 20, "cpupower idle-info output");
    if (!text)
        return text.error();
    return parseCpupowerIdleInfo(*text, path);
}

} // namespace idlescope
