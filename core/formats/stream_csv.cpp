// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/formats/stream_csv.h"

#include "core/formats/csv_fields.h"
#include "core/formats/line_reader.h"

#include <algorithm>
#include <array>

namespace idlescope {

namespace {

constexpr int kColumns = 7;
constexpr std::array<std::string_view, kColumns> kNames = {"gap_ns", "timer_ns",     "wake_ns",      "latency_req_ns",
                                                           "util",   "need_resched", "gap_from_wake"};
constexpr int kUtil = 4;
constexpr int kNeedResched = 5;
constexpr int kGapFromWake = 6;
constexpr int kMaxFields = 64;

struct Header {
    std::array<int, kColumns> pos{-1, -1, -1, -1, -1, -1, -1};
    int fields = 0;
};

Result<Header> parseHeader(std::string_view line, const std::string &label)
{
    if (line.starts_with("\xEF\xBB\xBF")) // a UTF-8 byte-order mark from spreadsheet exports
        line.remove_prefix(3);
    std::array<std::string_view, kMaxFields> f;
    const int n = csv::split(line, f.data(), kMaxFields);
    if (n > kMaxFields)
        return Error{label, 1, "", "header has more than 64 columns"};
    Header h;
    h.fields = n;
    for (int i = 0; i < n; ++i) {
        std::string_view name = f[static_cast<size_t>(i)];
        while (!name.empty() && name.back() == ' ')
            name.remove_suffix(1);
        while (!name.empty() && name.front() == ' ')
            name.remove_prefix(1);
        // Catch the common unit mistake early with a precise message.
        if (name.ends_with("_us") || name.ends_with("_ms") || name.ends_with("_s"))
            return Error{label, 1, std::string(name), "times must be integer nanoseconds (columns named *_ns)"};
        const auto known = std::find(kNames.begin(), kNames.end(), name);
        // A column that would be read without a word is one whose meaning
        // the replay would silently drop: refuse it.
        if (known == kNames.end())
            return Error{label, 1, std::string(name),
                         "unknown column " + std::to_string(i + 1)
                             + " (a stream has gap_ns,timer_ns,wake_ns,latency_req_ns and optionally util, "
                               "need_resched, gap_from_wake)"};
        const auto c = static_cast<size_t>(known - kNames.begin());
        // Which of the two was meant is anyone's guess: refuse, do not pick one.
        if (const int before = h.pos[c]; before >= 0)
            return Error{label, 1, std::string(name),
                         "the column is named twice (fields " + std::to_string(before + 1) + " and "
                             + std::to_string(i + 1) + ")"};
        h.pos[c] = i;
    }
    for (int c = 0; c < 4; ++c)
        if (h.pos[static_cast<size_t>(c)] < 0)
            return Error{label, 1, std::string(kNames[static_cast<size_t>(c)]),
                         "missing column (header must name gap_ns,timer_ns,wake_ns,latency_req_ns[,util])"};
    return h;
}

template <typename NextLine>
Result<IdleStream> parseLines(NextLine &&nextLine, const std::string &label)
{
    std::string_view line;
    std::int64_t lineNo = 0;
    if (!nextLine(line, lineNo))
        return Error{label, 1, "", "empty file: expected a header line"};
    Result<Header> header = parseHeader(line, label);
    if (!header)
        return header.error();
    const Header &h = *header;

    IdleStream stream;
    Ns totalNs = 0;
    std::array<std::string_view, kMaxFields> f;
    while (nextLine(line, lineNo)) {
        if (line.empty())
            continue;
        const int n = csv::split(line, f.data(), kMaxFields);
        if (n != h.fields)
            return Error{label, lineNo, "",
                         "expected " + std::to_string(h.fields) + " fields, found "
                             + (n > kMaxFields ? std::string("more") : std::to_string(n))};
        std::array<std::int64_t, kColumns> v{0, 0, 0, 0, 0, 1, 0};
        for (int c = 0; c < kColumns; ++c) {
            const int p = h.pos[static_cast<size_t>(c)];
            if (p < 0)
                continue;
            const auto value = csv::parseInt(f[static_cast<size_t>(p)]);
            if (!value)
                return Error{label, lineNo, std::string(kNames[static_cast<size_t>(c)]),
                             "'" + quoteField(f[static_cast<size_t>(p)]) + "' is not an integer"
                                 + (c == kUtil          ? " (util is the CPU's utilisation, 0..1024)"
                                    : c == kNeedResched ? " (need_resched is 0 or 1)"
                                    : c == kGapFromWake ? " (gap_from_wake is 0 or 1)"
                                                        : " (times are whole nanoseconds)")};
            v[static_cast<size_t>(c)] = *value;
        }
        if (v[kUtil] < 0 || v[kUtil] > 1024)
            return Error{label, lineNo, "util", "must be within 0..1024"};
        if (v[kNeedResched] != 0 && v[kNeedResched] != 1)
            return Error{label, lineNo, "need_resched",
                         "must be 0 (an interrupt that wakes no task) or 1 (a task is woken), not "
                             + std::to_string(v[kNeedResched])};
        if (v[kGapFromWake] != 0 && v[kGapFromWake] != 1)
            return Error{label, lineNo, "gap_from_wake",
                         "must be 0 (gap_ns counts from the replay's exit) or 1 (from the previous row's "
                         "wakeup), not "
                             + std::to_string(v[kGapFromWake])};
        IdleSpan s{v[0], v[1], v[2], v[3], static_cast<int>(v[kUtil]), v[kNeedResched] == 1, v[kGapFromWake] == 1};
        if (Status st = validateSpan(s, label, lineNo); !st)
            return st.error();
        // The replay's clock must not overflow int64 nanoseconds.
        totalNs += s.gapNs + s.wakeNs;
        if (totalNs > MAX_STREAM_NS)
            return Error{label, lineNo, "wake_ns",
                         "the stream is longer than " + std::to_string(MAX_STREAM_NS / NSEC_PER_SEC)
                             + " s in total; split it"};
        stream.push_back(s);
    }
    if (stream.empty())
        return Error{label, lineNo + 1, "", "the stream has no idle spans"};
    return stream;
}

} // namespace

Status validateSpan(const IdleSpan &s, const std::string &label, std::int64_t line)
{
    if (s.gapNs < 0)
        return Error{label, line, "gap_ns", "must not be negative"};
    if (s.wakeNs < 0)
        return Error{label, line, "wake_ns", "must not be negative"};
    if (s.gapNs > MAX_SPAN_NS)
        return Error{label, line, "gap_ns",
                     "longer than " + std::to_string(MAX_SPAN_NS / NSEC_PER_SEC) + " s (are these nanoseconds?)"};
    if (s.wakeNs > MAX_SPAN_NS)
        return Error{label, line, "wake_ns",
                     "longer than " + std::to_string(MAX_SPAN_NS / NSEC_PER_SEC) + " s (are these nanoseconds?)"};
    if (s.timerNs < s.wakeNs)
        return Error{label, line, "wake_ns",
                     "wake_ns " + std::to_string(s.wakeNs) + " > timer_ns " + std::to_string(s.timerNs)
                         + " (the timer would have ended the span first)"};
    if (s.latencyReqNs < -1)
        return Error{label, line, "latency_req_ns", "must be -1 (none) or >= 0"};
    if (s.util < 0 || s.util > 1024)
        return Error{label, line, "util", "must be within 0..1024"};
    return Ok{};
}

Result<IdleStream> readStreamCsv(const std::string &path)
{
    LineReader reader(path);
    if (!reader.ok())
        return reader.error();
    Result<IdleStream> r = parseLines(
        [&](std::string_view &line, std::int64_t &no) {
            const bool more = reader.next(line);
            no = reader.lineNumber();
            return more;
        },
        path);
    if (!reader.ok())
        return reader.error();
    return r;
}

Result<IdleStream> parseStreamCsv(std::string_view text, const std::string &label)
{
    size_t pos = 0;
    std::int64_t counter = 0;
    return parseLines(
        [&](std::string_view &line, std::int64_t &no) {
            if (pos >= text.size())
                return false;
            size_t nl = text.find('\n', pos);
            if (nl == std::string_view::npos)
                nl = text.size();
            line = text.substr(pos, nl - pos);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            pos = nl + 1;
            no = ++counter;
            return true;
        },
        label);
}

std::string formatStreamCsv(const IdleStream &stream)
{
    // The need_resched and gap_from_wake columns only where a row needs them, so that
    // a stream without in-idle wakeups is written as the conformance kit writes it.
    const bool inIdle = std::any_of(stream.begin(), stream.end(), [](const IdleSpan &s) { return !s.needResched; });
    const bool fromWake = std::any_of(stream.begin(), stream.end(), [](const IdleSpan &s) { return s.gapFromWake; });
    std::string out = "gap_ns,timer_ns,wake_ns,latency_req_ns,util";
    out += inIdle ? ",need_resched" : "";
    out += fromWake ? ",gap_from_wake\n" : "\n";
    out.reserve(out.size() + stream.size() * 40);
    for (const IdleSpan &s : stream) {
        out += std::to_string(s.gapNs);
        out += ',';
        out += std::to_string(s.timerNs);
        out += ',';
        out += std::to_string(s.wakeNs);
        out += ',';
        out += std::to_string(s.latencyReqNs);
        out += ',';
        out += std::to_string(s.util);
        if (inIdle)
            out += s.needResched ? ",1" : ",0";
        if (fromWake)
            out += s.gapFromWake ? ",1" : ",0";
        out += '\n';
    }
    return out;
}

} // namespace idlescope
