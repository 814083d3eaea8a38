// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The workload spec parser: a small recursive-descent reader of the grammar in
 * workload_spec.h. Numbers are decimal with at most three fractional digits
 * and are converted to the held integer unit without floating point, so
 * "2.5" us is exactly 2500 ns. Every error names the column and what was
 * expected there.
 */
#include "core/workloads/workload_spec.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

namespace idlescope::workloads {

namespace {

constexpr std::int64_t MAX_SWEEP_POINTS = 1000;

/// Scale between written and held values for a unit.
std::int64_t unitScale(ParamUnit u)
{
    return u == ParamUnit::Count || u == ParamUnit::Choice ? 1 : 1000;
}

const char *unitWord(ParamUnit u)
{
    switch (u) {
    case ParamUnit::Us: return "us";
    case ParamUnit::Percent: return "%";
    case ParamUnit::Hz: return "Hz";
    case ParamUnit::Count: return "count";
    case ParamUnit::Choice: return "choice";
    }
    return "";
}

// The parameters every generator takes in addition to its own.
constexpr ParamInfo kLatencyReq = {"latency_req_us",
                                   ParamUnit::Us,
                                   NO_LATENCY_REQ,
                                   0,
                                   3600LL * NSEC_PER_SEC,
                                   "PM QoS resume-latency limit of every span (\"none\" by default)"};
constexpr ParamInfo kUtil = {"util", ParamUnit::Count,
                             0,      0,
                             1024,   "scheduler utilisation seen during the spans (read by teo-6.10)"};
constexpr ParamInfo kCpus = {"cpus",
                             ParamUnit::Count,
                             1,
                             1,
                             4096,
                             "CPUs of a machine running this workload (compare --machine: CPUs 0..cpus-1 "
                             "unless --workload-cpus says; the others run the background)"};

class Parser {
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    Result<WorkloadSpec> run()
    {
        WorkloadSpec spec;
        spec.text = std::string(m_text);
        skipBlanks();
        if (atEnd())
            return fail("an empty workload spec; try periodic:kind=ipi,interval_us=50");
        if (!parseSpec(spec.root))
            return m_error;
        skipBlanks();
        if (!atEnd())
            return fail("unexpected '" + std::string(1, peek()) + "' (expected '+' or the end)");
        spec.sweep = std::move(m_sweep);
        return spec;
    }

private:
    // spec := term { '+' term }
    bool parseSpec(WorkloadNode &out)
    {
        WorkloadNode first;
        if (!parseTerm(first))
            return false;
        skipBlanks();
        if (peek() != '+') {
            out = std::move(first);
            return true;
        }
        out = WorkloadNode{};
        out.kind = WorkloadNode::Kind::Overlay;
        out.children.push_back(std::move(first));
        while (peek() == '+') {
            ++m_pos;
            WorkloadNode next;
            if (!parseTerm(next))
                return false;
            out.children.push_back(std::move(next));
            skipBlanks();
        }
        return true;
    }

    bool parseTerm(WorkloadNode &out)
    {
        skipBlanks();
        const size_t start = m_pos;
        const std::string name = word();
        if (name.empty())
            return error("expected a generator name or mix(...)");
        skipBlanks();
        if (name == "mix" && peek() == '(') {
            // The parser (and later the generator) recurses once per level:
            // thousands of levels would overflow the stack.
            if (m_mixDepth >= MAX_MIX_DEPTH)
                return errorAt(start, "mix(...) nested more than " + std::to_string(MAX_MIX_DEPTH) + " deep");
            ++m_pos;
            ++m_mixDepth;
            const bool ok = parseMix(out);
            --m_mixDepth;
            return ok;
        }
        const GeneratorInfo *g = findGenerator(name);
        if (!g) {
            m_pos = start;
            std::string names;
            for (const GeneratorInfo &gi : allGenerators())
                names += std::string(names.empty() ? "" : ", ") + gi.name;
            return error("unknown generator '" + name + "' (one of: " + names + ", mix)");
        }
        return parseGenerator(*g, start, out);
    }

    // 'mix(' member { '|' member } [ ';block=' N ] ')'
    bool parseMix(WorkloadNode &out)
    {
        out = WorkloadNode{};
        out.kind = WorkloadNode::Kind::Mix;
        for (;;) {
            skipBlanks();
            std::int64_t weight = 1;
            const size_t save = m_pos;
            if (std::isdigit(static_cast<unsigned char>(peek()))) {
                const std::string w = digits();
                skipBlanks();
                if (peek() == '*') {
                    ++m_pos;
                    if (!toInt(w, weight) || weight < 1 || weight > 1000000)
                        return errorAt(save, "a mix weight must be a whole number 1..1000000");
                } else {
                    m_pos = save;
                }
            }
            WorkloadNode member;
            if (!parseSpec(member))
                return false;
            out.children.push_back(std::move(member));
            out.weights.push_back(weight);
            skipBlanks();
            if (peek() == '|') {
                ++m_pos;
                continue;
            }
            break;
        }
        if (peek() == ';') {
            ++m_pos;
            skipBlanks();
            if (word() != "block")
                return error("expected block=N after ';' in mix(...)");
            skipBlanks();
            if (peek() != '=')
                return error("expected '=' after block");
            ++m_pos;
            skipBlanks();
            const size_t at = m_pos;
            if (!toInt(digits(), out.block) || out.block < 1 || out.block > 100000000)
                return errorAt(at, "block must be a whole number of spans, 1..100000000");
            skipBlanks();
        }
        if (peek() != ')')
            return error("expected '|', ';block=N' or ')' in mix(...)");
        ++m_pos;
        if (out.children.size() < 2)
            return error("mix(...) needs at least two members separated by '|'");
        return true;
    }

    bool parseGenerator(const GeneratorInfo &g, size_t nameAt, WorkloadNode &out)
    {
        std::uint32_t written = 0;
        out = WorkloadNode{};
        out.kind = WorkloadNode::Kind::Generator;
        out.params = g.defaults();
        const bool isSweep = std::string_view(g.name) == "sweep";
        bool intervalGiven = false;
        std::vector<std::string> seen;
        if (peek() == ':') {
            ++m_pos;
            for (;;) {
                skipBlanks();
                const size_t keyAt = m_pos;
                const std::string key = word();
                if (key.empty())
                    return error("expected a parameter name");
                if (std::find(seen.begin(), seen.end(), key) != seen.end())
                    return errorAt(keyAt, "parameter '" + key + "' given twice");
                seen.push_back(key);
                skipBlanks();
                if (peek() != '=')
                    return error("expected '=' after " + key);
                ++m_pos;
                skipBlanks();
                const size_t valueAt = m_pos;
                const std::string value = rawValue();
                if (!setParam(g, out, key, keyAt, value, valueAt))
                    return false;
                if (key == "interval_us")
                    intervalGiven = true;
                if (const int idx = g.paramIndex(key); idx >= 0)
                    written |= 1U << idx;
                skipBlanks();
                if (peek() != ',')
                    break;
                ++m_pos;
            }
        }
        if (isSweep && !intervalGiven) {
            const int idx = g.paramIndex("interval_us");
            if (m_sweep)
                return error("only one parameter may be swept; 'sweep' sweeps interval_us");
            SweepAxis axis{"interval_us", &g.params[static_cast<size_t>(idx)], {}};
            for (std::int64_t us : defaultSweepIntervalsUs())
                axis.values.push_back(us * NSEC_PER_USEC);
            m_sweep = std::move(axis);
            out.sweepParam = idx;
            out.params.v[static_cast<size_t>(idx)] = m_sweep->values.front();
        }
        return checkGenerator(g, nameAt, out, written);
    }

    /// The generator's own check (GeneratorInfo::check), at every point when this generator
    /// holds the swept parameter. Values no point can run (a CPU that never idles) are refused
    /// at the first such point; a written parameter is refused only when it acts at no point
    /// ("schbench:role=worker/message,workers=8" uses workers at role=message).
    bool checkGenerator(const GeneratorInfo &g, size_t nameAt, const WorkloadNode &node, std::uint32_t written)
    {
        if (!g.check)
            return true;
        // A parameter written at its default value counts as not written: the window writes
        // every parameter of a generator out (generatorText()), so "periodic:kind=pipe,...,
        // slack_us=50" is what it sends for a pipe loop the user never gave a slack.
        for (size_t i = 0; i < g.params.size(); ++i)
            if (static_cast<int>(i) != node.sweepParam && node.params.v[i] == g.params[i].def)
                written &= ~(1U << i);
        if (node.sweepParam < 0) {
            const std::string why = g.check(node.params, written);
            return why.empty() || errorAt(nameAt, std::string(g.name) + ": " + why);
        }
        const auto idx = static_cast<size_t>(node.sweepParam);
        std::string unused;
        bool usedSomewhere = false;
        for (const std::int64_t v : m_sweep->values) {
            ParamValues at = node.params;
            at.v[idx] = v;
            const std::string where =
                std::string(g.name) + " at " + m_sweep->param + "=" + formatParamValue(*m_sweep->info, v) + ": ";
            if (const std::string why = g.check(at, 0); !why.empty())
                return errorAt(nameAt, where + why);
            if (const std::string why = g.check(at, written); !why.empty()) {
                if (unused.empty())
                    unused = where + why;
            } else {
                usedSomewhere = true;
            }
        }
        return usedSomewhere || errorAt(nameAt, unused);
    }

    bool setParam(const GeneratorInfo &g, WorkloadNode &node, const std::string &key, size_t keyAt,
                  const std::string &value, size_t valueAt)
    {
        const int idx = g.paramIndex(key);
        const ParamInfo *info = idx >= 0                  ? &g.params[static_cast<size_t>(idx)]
                                : key == kLatencyReq.name ? &kLatencyReq
                                : key == kUtil.name       ? &kUtil
                                : key == kCpus.name       ? &kCpus
                                                          : nullptr;
        if (!info) {
            std::string names;
            for (const ParamInfo &p : g.params)
                names += std::string(names.empty() ? "" : ", ") + p.name;
            return errorAt(keyAt, std::string(g.name) + " has no parameter '" + key + "' (it takes: " + names
                                      + ", latency_req_us, util, cpus)");
        }
        if (info == &kLatencyReq && value == "none") {
            node.latencyReqNs = NO_LATENCY_REQ;
            return true;
        }
        std::vector<std::int64_t> values;
        if (!parseValues(*info, value, valueAt, values))
            return false;
        if (values.size() > 1) {
            if (idx < 0)
                return errorAt(valueAt, key + " cannot be swept");
            if (m_sweep)
                return errorAt(valueAt, "only one parameter may be swept (already sweeping " + m_sweep->param + ")");
            m_sweep = SweepAxis{key, info, values};
            node.sweepParam = idx;
        }
        // pingpong's ring size and io's numjobs are their own parameters and the CPUs
        // they run on at once.
        if (key == kCpus.name || key == "numjobs")
            node.cpus = static_cast<int>(values.front());
        if (idx >= 0)
            node.params.v[static_cast<size_t>(idx)] = values.front();
        else if (info == &kLatencyReq)
            node.latencyReqNs = values.front();
        else if (info == &kUtil)
            node.util = static_cast<int>(values.front());
        return true;
    }

    // NUMBER | WORD | NUMBER '..' NUMBER ':' POINTS | NUMBER { '/' NUMBER } | WORD { '/' WORD }
    bool parseValues(const ParamInfo &info, const std::string &text, size_t at, std::vector<std::int64_t> &out)
    {
        if (text.empty())
            return errorAt(at, std::string("missing value for ") + info.name);
        if (info.unit == ParamUnit::Choice)
            return parseWords(info, text, at, out);
        if (const size_t dots = text.find(".."); dots != std::string::npos) {
            const size_t colon = text.find(':', dots);
            if (colon == std::string::npos)
                return errorAt(at, "a range needs a point count: FROM..TO:POINTS, e.g. 30..100:8");
            std::int64_t from = 0, to = 0, points = 0;
            if (!number(info, text.substr(0, dots), at, from)
                || !number(info, text.substr(dots + 2, colon - dots - 2), at, to))
                return false;
            if (!toInt(text.substr(colon + 1), points) || points < 2 || points > MAX_SWEEP_POINTS)
                return errorAt(at, "the point count after ':' must be a whole number 2..1000");
            if (to < from)
                return errorAt(at, "a range must go up: FROM <= TO");
            // Linear, endpoints included, in held units (integer arithmetic).
            for (std::int64_t i = 0; i < points; ++i)
                out.push_back(from + (to - from) * i / (points - 1));
            return true;
        }
        size_t begin = 0;
        for (;;) {
            const size_t slash = text.find('/', begin);
            std::int64_t v = 0;
            if (!number(info, text.substr(begin, slash == std::string::npos ? std::string::npos : slash - begin), at,
                        v))
                return false;
            out.push_back(v);
            if (slash == std::string::npos)
                break;
            begin = slash + 1;
            if (out.size() >= static_cast<size_t>(MAX_SWEEP_POINTS))
                return errorAt(at, "at most 1000 values in a list");
        }
        return true;
    }

    // WORD { '/' WORD }: a list of words sweeps like a list of numbers (io:device=emmc/nvme).
    bool parseWords(const ParamInfo &info, const std::string &text, size_t at, std::vector<std::int64_t> &out)
    {
        size_t begin = 0;
        for (;;) {
            const size_t slash = text.find('/', begin);
            const std::string w = text.substr(begin, slash == std::string::npos ? std::string::npos : slash - begin);
            const auto it =
                std::find_if(info.choices.begin(), info.choices.end(), [&](const char *c) { return w == c; });
            if (it == info.choices.end()) {
                std::string words;
                for (const char *c : info.choices)
                    words += std::string(words.empty() ? "" : ", ") + c;
                return errorAt(at, std::string(info.name) + " is one of: " + words + " (got '" + w + "')");
            }
            out.push_back(it - info.choices.begin());
            if (slash == std::string::npos)
                return true;
            begin = slash + 1;
        }
    }

    /// A decimal number in the parameter's written unit -> held unit, range-checked.
    bool number(const ParamInfo &info, const std::string &text, size_t at, std::int64_t &out)
    {
        const std::string outside = std::string(info.name) + " = " + text + " is outside "
                                    + formatParamValue(info, info.min) + ".." + formatParamValue(info, info.max) + " "
                                    + unitWord(info.unit);
        const DecimalValue d = readDecimal(text, unitScale(info.unit));
        switch (d.fault) {
        case DecimalFault::None: break;
        case DecimalFault::Negative: return errorAt(at, outside);
        case DecimalFault::TooLarge: return errorAt(at, std::string(info.name) + ": '" + text + "' is too large");
        case DecimalFault::TooManyDecimals:
            return errorAt(at, std::string(info.name) + ": at most 3 decimals (" + text + ")");
        case DecimalFault::NotANumber:
            if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
                return errorAt(at, std::string(info.name) + ": '" + text + "' is not a number");
            return errorAt(at, std::string(info.name) + ": '" + text + "' is not a number in " + unitWord(info.unit)
                                   + (unitScale(info.unit) == 1 ? " (whole numbers only)" : ""));
        }
        out = d.value;
        if (out < info.min || out > info.max)
            return errorAt(at, outside);
        return true;
    }

    // --- lexing helpers ---
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }
    void skipBlanks()
    {
        while (!atEnd() && std::isspace(static_cast<unsigned char>(peek())))
            ++m_pos;
    }
    std::string word()
    {
        const size_t b = m_pos;
        while (!atEnd() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' || peek() == '-'))
            ++m_pos;
        return std::string(m_text.substr(b, m_pos - b));
    }
    std::string digits()
    {
        const size_t b = m_pos;
        while (!atEnd() && std::isdigit(static_cast<unsigned char>(peek())))
            ++m_pos;
        return std::string(m_text.substr(b, m_pos - b));
    }
    /// Everything up to the next separator of the grammar.
    std::string rawValue()
    {
        const size_t b = m_pos;
        while (!atEnd() && std::string_view(",+|;) \t").find(peek()) == std::string_view::npos)
            ++m_pos;
        return std::string(m_text.substr(b, m_pos - b));
    }
    static bool toInt(const std::string &s, std::int64_t &out)
    {
        if (s.empty() || s.size() > 12)
            return false;
        out = 0;
        for (char c : s) {
            if (!std::isdigit(static_cast<unsigned char>(c)))
                return false;
            out = out * 10 + (c - '0');
        }
        return true;
    }

    bool error(const std::string &what) { return errorAt(m_pos, what); }
    bool errorAt(size_t at, const std::string &what)
    {
        m_error = Error{"", 0, "workload", "column " + std::to_string(at + 1) + ": " + what};
        return false;
    }
    Result<WorkloadSpec> fail(const std::string &what)
    {
        error(what);
        return m_error;
    }

    std::string_view m_text;
    size_t m_pos = 0;
    int m_mixDepth = 0;
    std::optional<SweepAxis> m_sweep;
    Error m_error;
};

void substituteSweep(WorkloadNode &node, std::int64_t value)
{
    if (node.kind == WorkloadNode::Kind::Generator) {
        if (node.sweepParam >= 0) {
            const auto idx = static_cast<size_t>(node.sweepParam);
            node.params.v[idx] = value;
            // A swept ring size or numjobs is the CPUs of each point, as the parser sets them
            // from a single value (io:numjobs=1..4:4 runs on 1, 2, 3 and 4 CPUs of a machine).
            const std::string_view name = node.params.info->params[idx].name;
            if (name == kCpus.name || name == "numjobs")
                node.cpus = static_cast<int>(value);
        }
        return;
    }
    for (WorkloadNode &c : node.children)
        substituteSweep(c, value);
}

/// The largest CPU count a generator of @p node holds as its own parameter (pingpong's cpus,
/// io's numjobs), given or at its default; 0 when none has one.
int maxOwnCpus(const WorkloadNode &node)
{
    int n = 0;
    if (node.kind == WorkloadNode::Kind::Generator && node.params.info)
        for (const char *own : {"cpus", "numjobs"})
            if (const int i = node.params.info->paramIndex(own); i >= 0)
                n = std::max(n, static_cast<int>(node.params.v[static_cast<size_t>(i)]));
    for (const WorkloadNode &c : node.children)
        n = std::max(n, maxOwnCpus(c));
    return n;
}

int maxCpus(const WorkloadNode &node)
{
    int n = node.cpus;
    for (const WorkloadNode &c : node.children)
        n = std::max(n, maxCpus(c));
    return n;
}

} // namespace

Result<WorkloadSpec> parseWorkloadSpec(std::string_view text)
{
    return Parser(text).run();
}

int WorkloadSpec::cpuCount() const
{
    return maxCpus(root);
}

int WorkloadSpec::ownCpuCount() const
{
    return maxOwnCpus(root);
}

int WorkloadSpec::pointCount() const
{
    return sweep ? static_cast<int>(sweep->values.size()) : 1;
}

std::string WorkloadSpec::pointLabel(int point) const
{
    if (!sweep)
        return "all";
    return sweep->param + "=" + formatParamValue(*sweep->info, sweep->values[static_cast<size_t>(point)]);
}

WorkloadNode WorkloadSpec::nodeAt(int point) const
{
    WorkloadNode n = root;
    if (sweep)
        substituteSweep(n, sweep->values[static_cast<size_t>(point)]);
    return n;
}

std::string formatParamValue(const ParamInfo &info, std::int64_t held)
{
    if (info.unit == ParamUnit::Choice)
        return held >= 0 && static_cast<size_t>(held) < info.choices.size() ? info.choices[static_cast<size_t>(held)]
                                                                            : "?";
    if (info.unit == ParamUnit::Count)
        return std::to_string(held);
    if (held < 0)
        return "none";
    std::string s = std::to_string(held / 1000);
    if (const std::int64_t frac = held % 1000; frac != 0) {
        std::string f = std::to_string(frac);
        f.insert(0, 3 - f.size(), '0');
        while (f.back() == '0')
            f.pop_back();
        s += "." + f;
    }
    return s;
}

DecimalValue readDecimal(std::string_view text, std::int64_t scale)
{
    const auto digit = [&](size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
    if (text.size() > 1 && text[0] == '-' && digit(1))
        return {0, DecimalFault::Negative};
    if (!digit(0))
        return {0, DecimalFault::NotANumber};
    std::int64_t whole = 0, frac = 0;
    size_t i = 0;
    constexpr std::int64_t MAX = std::numeric_limits<std::int64_t>::max();
    for (; digit(i); ++i) {
        if (whole > (MAX - 9) / 10)
            return {0, DecimalFault::TooLarge};
        whole = whole * 10 + (text[i] - '0');
    }
    if (i < text.size() && text[i] == '.' && scale > 1) {
        if (!digit(i + 1))
            return {0, DecimalFault::NotANumber}; // "5.": a dot says decimals follow
        int decimals = 0;
        for (++i; digit(i); ++i, ++decimals) {
            if (decimals >= 3)
                return {0, DecimalFault::TooManyDecimals};
            frac = frac * 10 + (text[i] - '0');
        }
        for (; decimals < 3; ++decimals)
            frac *= 10;
    }
    if (i != text.size())
        return {0, DecimalFault::NotANumber};
    if (whole > (MAX - frac) / scale)
        return {0, DecimalFault::TooLarge};
    return {whole * scale + frac, DecimalFault::None};
}

std::string generatorText(const ParamValues &values, std::string_view param, std::string_view paramText)
{
    std::string text = values.info->name;
    char sep = ':';
    for (const ParamInfo &p : values.info->params) {
        text += sep;
        text += p.name;
        text += '=';
        text += param == p.name ? std::string(paramText) : formatParamValue(p, values.get(p.name));
        sep = ',';
    }
    return text;
}

std::string workloadReference()
{
    std::ostringstream o;
    o << "Workload spec grammar:\n"
         "  spec      := term { '+' term }            overlay: the terms' wakeups on one CPU\n"
         "  term      := generator | mix(member { | member } [;block=N])\n"
         "  member    := [WEIGHT*] spec               picked with probability WEIGHT/sum\n"
         "  generator := NAME[:KEY=VALUE{,KEY=VALUE}]\n"
         "  VALUE     := NUMBER | WORD | FROM..TO:POINTS (linear sweep) | V1/V2/... (list sweep,\n"
         "               numbers or words: io:device=emmc/nvme/sata)\n"
         "At most one parameter may be swept; each value is a workload point.\n"
         "Every generator also takes latency_req_us (none), util (0) and cpus (the CPUs of a\n"
         "machine running it; compare --machine gives the others the background).\n\n"
         "Generators (parameter = default, unit, range):\n";
    for (const GeneratorInfo &g : allGenerators()) {
        o << "  " << g.name << ": " << g.summary << '\n';
        for (const ParamInfo &p : g.params) {
            o << "      " << p.name << '=' << formatParamValue(p, p.def);
            if (p.unit == ParamUnit::Choice) {
                o << " (";
                for (size_t i = 0; i < p.choices.size(); ++i)
                    o << (i ? "|" : "") << p.choices[i];
                o << ')';
            } else {
                o << " (" << unitWord(p.unit) << ", " << formatParamValue(p, p.min) << ".."
                  << formatParamValue(p, p.max) << ')';
            }
            o << "  " << p.help << '\n';
        }
    }
    return o.str();
}

} // namespace idlescope::workloads
