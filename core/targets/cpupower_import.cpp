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

/// A state block's header line, "NAME:" or "NAME (DISABLED) :" (@p line without its colon
/// trimmed yet), at line @p lineNo of @p label.
Result<PendingState> stateHeader(std::string_view line, std::int64_t lineNo, const std::string &label)
{
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
    return ps;
}

/// The output read line by line: the driver, governor and CPU lines into the result, each
/// state block into a PendingState, then checked whole and turned into the table.
class IdleInfoReader {
public:
    explicit IdleInfoReader(const std::string &label) : m_label(label) {}

    /// Reads line @p lineNo (trimmed, not empty); false when reading stops there (the
    /// output of a second CPU begins).
    Result<bool> readLine(std::string_view line, std::int64_t lineNo);
    /// The table and the result, once every line is read.
    Result<CpupowerIdleInfo> finish();

private:
    Result<std::int64_t> numberAfter(std::string_view value, const char *field) const;
    Result<Ns> microsAfter(std::string_view value, const char *field) const;
    Status stateMicros(std::string_view line, const char *field, Ns IdleState::*ns, bool PendingState::*seen);
    bool readCpuLine(std::string_view line);
    Status checkBlocks() const;

    const std::string &m_label;
    CpupowerIdleInfo m_out;
    std::vector<PendingState> m_states;
    std::int64_t m_declared = -1;
    std::int64_t m_lineNo = 0;
    int m_cpusSeen = 0;
    bool m_sawDriver = false;
};

Result<std::int64_t> IdleInfoReader::numberAfter(std::string_view value, const char *field) const
{
    const std::optional<std::int64_t> v = wholeNumber(trim(value));
    if (!v)
        return Error{m_label, m_lineNo, field,
                     "expected a whole number of microseconds, got '" + quoteField(trim(value)) + "'"};
    return *v;
}

Result<Ns> IdleInfoReader::microsAfter(std::string_view value, const char *field) const
{
    Result<std::int64_t> us = numberAfter(value, field);
    if (!us)
        return us.error();
    const std::optional<Ns> ns = usToNs(*us);
    if (!ns)
        return Error{m_label, m_lineNo, field, std::to_string(*us) + " us does not fit in 64-bit nanoseconds"};
    return *ns;
}

/// "Latency: N" or "Residency: N" (@p field) of the state block being read: N us into
/// @p ns of that state, @p seen set.
Status IdleInfoReader::stateMicros(std::string_view line, const char *field, Ns IdleState::*ns,
                                   bool PendingState::*seen)
{
    if (m_states.empty())
        return Error{m_label, m_lineNo, field, "appears before any state name line"};
    Result<Ns> v = microsAfter(line.substr(std::string_view(field).size() + 1), field);
    if (!v)
        return v.error();
    m_states.back().state.*ns = *v;
    m_states.back().*seen = true;
    return Ok{};
}

/// "analyzing CPU N:": the first names the CPU read; a second after its state blocks ends
/// the reading (the table is one CPU's).
bool IdleInfoReader::readCpuLine(std::string_view line)
{
    ++m_cpusSeen;
    if (m_cpusSeen == 1) {
        std::string_view n = trim(line.substr(13));
        if (!n.empty() && n.back() == ':')
            n.remove_suffix(1);
        m_out.cpu = static_cast<int>(wholeNumber(trim(n)).value_or(-1));
    } else if (!m_states.empty()) {
        m_out.warnings.push_back("several CPUs in the output: only CPU " + std::to_string(m_out.cpu) + " was read");
        return false;
    }
    return true;
}

Result<bool> IdleInfoReader::readLine(std::string_view line, std::int64_t lineNo)
{
    m_lineNo = lineNo;
    if (startsWith(line, "CPUidle driver:")) {
        m_out.driver = std::string(trim(line.substr(15)));
        m_sawDriver = true;
    } else if (startsWith(line, "CPUidle governor:")) {
        m_out.governor = std::string(trim(line.substr(17)));
    } else if (startsWith(line, "analyzing CPU")) {
        return readCpuLine(line);
    } else if (startsWith(line, "Number of idle states:")) {
        Result<std::int64_t> n = numberAfter(line.substr(22), "Number of idle states");
        if (!n)
            return n.error();
        if (m_declared < 0)
            m_declared = *n;
    } else if (startsWith(line, "Available idle states:") || startsWith(line, "Usage:")
               || startsWith(line, "Duration:")) {
        // Names are read from the state blocks (they may contain spaces).
    } else if (startsWith(line, "Flags/Description:")) {
        if (m_states.empty())
            return Error{m_label, lineNo, "Flags/Description", "appears before any state name line"};
        m_states.back().state.desc = std::string(trim(line.substr(18)));
    } else if (startsWith(line, "Latency:")) {
        if (Status st = stateMicros(line, "Latency", &IdleState::exitLatencyNs, &PendingState::hasLatency); !st)
            return st.error();
    } else if (startsWith(line, "Residency:")) {
        if (Status st = stateMicros(line, "Residency", &IdleState::targetResidencyNs, &PendingState::hasResidency); !st)
            return st.error();
    } else if (line.back() == ':') {
        Result<PendingState> ps = stateHeader(line, lineNo, m_label);
        if (!ps)
            return ps.error();
        m_states.push_back(std::move(*ps));
    } else if (!startsWith(line, "Could not determine cpuidle driver")) {
        return Error{m_label, lineNo, "", "not a line of cpupower idle-info output: '" + quoteField(line) + "'"};
    }
    return true;
}

/// The output as a whole: a driver (a real one), state blocks, as many as it declares.
Status IdleInfoReader::checkBlocks() const
{
    if (!m_sawDriver)
        return Error{m_label, 0, "CPUidle driver",
                     "no 'CPUidle driver:' line; is this the output of cpupower idle-info?"};
    if (m_out.driver == "none" || m_out.driver.empty())
        return Error{m_label, 0, "CPUidle driver", "the machine had no cpuidle driver (common in virtual machines)"};
    if (m_states.empty())
        return Error{m_label, 0, "", "no idle state blocks: run cpupower idle-info without --silent"};
    if (m_declared >= 0 && m_declared != static_cast<std::int64_t>(m_states.size()))
        return Error{m_label, 0, "Number of idle states",
                     "says " + std::to_string(m_declared) + " but " + std::to_string(m_states.size())
                         + " state blocks follow"};
    return Ok{};
}

Result<CpupowerIdleInfo> IdleInfoReader::finish()
{
    if (Status s = checkBlocks(); !s)
        return s.error();
    bool warnedResidency = false;
    for (size_t i = 0; i < m_states.size(); ++i) {
        PendingState &ps = m_states[i];
        if (!ps.hasLatency)
            return Error{m_label, ps.line, "Latency", "state " + ps.state.name + " has no Latency line"};
        if (!ps.hasResidency) {
            ps.state.targetResidencyNs = ps.state.exitLatencyNs;
            if (!warnedResidency)
                m_out.warnings.push_back("no Residency lines (older cpupower): target residency set to the exit "
                                         "latency; edit the table if you know the real values");
            warnedResidency = true;
        }
        if (ps.state.desc.empty())
            ps.state.desc = ps.state.name;
        ps.state.polling = i == 0 && looksLikePollingState(ps.state.name, ps.state.desc);
        m_out.table.states.push_back(ps.state);
    }
    m_out.table.id = "cpupower-cpu" + std::to_string(std::max(m_out.cpu, 0));
    m_out.table.source = "cpupower idle-info (" + m_label + "), driver " + m_out.driver
                         + (m_out.governor.empty() ? "" : ", governor " + m_out.governor);
    m_out.warnings.push_back("the tick rate (CONFIG_HZ) is not in cpupower output: assuming 250 Hz");
    if (Status v = m_out.table.validate(); !v) {
        Error e = v.error();
        e.file = m_label;
        return e;
    }
    return std::move(m_out);
}

} // namespace

Result<CpupowerIdleInfo> parseCpupowerIdleInfo(std::string_view text, const std::string &label)
{
    IdleInfoReader reader(label);
    std::int64_t lineNo = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t nl = text.find('\n', pos);
        const std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        ++lineNo;
        const std::string_view line = trim(raw);
        if (line.empty())
            continue;
        const Result<bool> more = reader.readLine(line, lineNo);
        if (!more)
            return more.error();
        if (!*more)
            break;
    }
    return reader.finish();
}

Result<CpupowerIdleInfo> readCpupowerIdleInfo(const std::string &path)
{
    Result<std::string> text = readInputFile(path, 4u << 20, "cpupower idle-info output");
    if (!text)
        return text.error();
    return parseCpupowerIdleInfo(*text, path);
}

} // namespace idlescope
