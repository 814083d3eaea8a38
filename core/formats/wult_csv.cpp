// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/formats/wult_csv.h"

#include "core/formats/line_reader.h"

#include <charconv>
#include <cmath>
#include <map>

namespace idlescope {

namespace {

/// Splits at commas (wult's cells hold no quoted commas).
std::vector<std::string_view> cells(std::string_view line)
{
    std::vector<std::string_view> out;
    size_t start = 0;
    while (true) {
        const size_t comma = line.find(',', start);
        out.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos)
            return out;
        start = comma + 1;
    }
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

/// The file read line by line: the header finds the two columns, each row adds a sample.
class WultRows {
public:
    explicit WultRows(std::string label) : m_label(std::move(label)) {}

    Status line(std::string_view text, std::int64_t lineNo)
    {
        if (trimmed(text).empty())
            return Ok{};
        const std::vector<std::string_view> c = cells(text);
        if (m_latency < 0) {
            for (size_t i = 0; i < c.size(); ++i) {
                if (trimmed(c[i]) == "WakeLatency")
                    m_latency = static_cast<int>(i);
                if (trimmed(c[i]) == "ReqCState")
                    m_state = static_cast<int>(i);
            }
            if (m_latency < 0 || m_state < 0)
                return Error{m_label, lineNo, m_latency < 0 ? "WakeLatency" : "ReqCState",
                             "the header has no such column (a wult datapoints.csv names WakeLatency and ReqCState)"};
            return Ok{};
        }
        if (c.size() <= static_cast<size_t>(std::max(m_latency, m_state)))
            return Error{m_label, lineNo, "",
                         "the row has " + std::to_string(c.size()) + " fields, fewer than the header"};
        const std::string_view latency = trimmed(c[static_cast<size_t>(m_latency)]);
        double us = 0;
        const auto [p, ec] = std::from_chars(latency.data(), latency.data() + latency.size(), us);
        if (ec != std::errc() || p != latency.data() + latency.size() || !std::isfinite(us) || us < 0)
            return Error{m_label, lineNo, "WakeLatency",
                         quoteField(latency) + " is not a latency in microseconds (a number >= 0)"};
        const std::string state(trimmed(c[static_cast<size_t>(m_state)]));
        if (state.empty())
            return Error{m_label, lineNo, "ReqCState", "no state name"};
        auto [it, added] = m_index.try_emplace(state, m_out.size());
        if (added) {
            m_out.push_back({state, 0, 0});
            m_sumUs.push_back(0);
        }
        m_out[it->second].samples += 1;
        m_sumUs[it->second] += us;
        return Ok{};
    }

    Result<std::vector<MeasuredWakeDelay>> finish(std::int64_t lines)
    {
        if (m_latency < 0)
            return Error{m_label, 0, "", "empty file: expected a wult datapoints.csv header"};
        if (m_out.empty())
            return Error{m_label, lines, "", "no measured wakeups after the header"};
        for (size_t i = 0; i < m_out.size(); ++i)
            m_out[i].meanNs = std::llround(m_sumUs[i] * 1000.0 / static_cast<double>(m_out[i].samples));
        return std::move(m_out);
    }

private:
    std::string m_label;
    int m_latency = -1;
    int m_state = -1;
    std::map<std::string, size_t> m_index;
    std::vector<MeasuredWakeDelay> m_out;
    std::vector<double> m_sumUs;
};

} // namespace

Result<std::vector<MeasuredWakeDelay>> parseWultCsv(std::string_view text, const std::string &label)
{
    WultRows rows(label);
    std::int64_t lineNo = 0;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        ++lineNo;
        if (Status s = rows.line(text.substr(0, nl), lineNo); !s)
            return s.error();
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    }
    return rows.finish(lineNo);
}

Result<std::vector<MeasuredWakeDelay>> readWultCsv(const std::string &path)
{
    LineReader reader(path);
    if (!reader.ok())
        return reader.error();
    WultRows rows(path);
    std::string_view line;
    while (reader.next(line))
        if (Status s = rows.line(line, reader.lineNumber()); !s)
            return s.error();
    if (!reader.ok())
        return reader.error();
    return rows.finish(reader.lineNumber());
}

Status applyMeasuredWakeDelays(IdleStateTable &table, const std::vector<MeasuredWakeDelay> &measured,
                               const std::string &label)
{
    std::vector<int> index;
    for (const MeasuredWakeDelay &m : measured) {
        int found = -1;
        for (int i = 0; i < table.count(); ++i)
            if (table[i].name == m.state)
                found = i;
        if (found < 0)
            return Error{label, 0, "ReqCState", "the table " + table.id + " has no state named " + quoteField(m.state)};
        index.push_back(found);
    }
    std::string note = "measured (" + label + ", mean WakeLatency):";
    for (size_t k = 0; k < measured.size(); ++k) {
        table.states[static_cast<size_t>(index[k])].wakeDelayNs = measured[k].meanNs;
        note += " " + measured[k].state + " " + std::to_string(measured[k].samples) + " samples";
    }
    table.wakeDelayNote = note;
    return Ok{};
}

Status applyWakeDelaysFile(IdleStateTable &table, const std::string &path)
{
    if (path.empty())
        return Ok{};
    Result<std::vector<MeasuredWakeDelay>> measured = readWultCsv(path);
    if (!measured)
        return measured.error();
    return applyMeasuredWakeDelays(table, *measured, path);
}

} // namespace idlescope
