// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/formats/replay_output.h"

#include "core/common/text_cells.h"

#include <charconv>

namespace idlescope {

namespace {

void appendInt(std::string &out, std::int64_t v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

} // namespace

void appendEntryCsv(std::string &out, const EntryRecord &e)
{
    appendInt(out, e.span);
    out += ',';
    appendInt(out, e.entry);
    out += ',';
    appendInt(out, e.state);
    out += e.stopTick ? ",1," : ",0,";
    appendInt(out, e.residencyNs);
    out += e.above ? ",1" : ",0";
    out += e.below ? ",1" : ",0";
    out += e.gotTick ? ",1" : ",0";
    out += e.pollTimeLimit ? ",1\n" : ",0\n";
}

std::string formatSummaryJson(const ReplaySummary &s, const IdleStateTable &table, const std::string &variant)
{
    std::string out = "{\"variant\": " + jsonString(variant) + ", \"spans\": " + std::to_string(s.spans)
                      + ", \"entries\": " + std::to_string(s.entries)
                      + ", \"end_now_ns\": " + std::to_string(s.endNowNs) + ",\n \"states\": [\n";
    for (int i = 0; i < s.stateCount; ++i) {
        const StateStats &st = s.states[static_cast<size_t>(i)];
        out += "  {\"index\": " + std::to_string(i) + ", \"name\": " + jsonString(table[i].name)
               + ", \"usage\": " + std::to_string(st.usage) + ", \"time_ns\": " + std::to_string(st.timeNs)
               + ", \"above\": " + std::to_string(st.above) + ", \"below\": " + std::to_string(st.below) + "}";
        out += i + 1 < s.stateCount ? ",\n" : "\n";
    }
    out += "]}\n";
    return out;
}

} // namespace idlescope
