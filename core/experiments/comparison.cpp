// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/comparison.h"

#include "core/common/text_cells.h"

#include "core/source_governor/source_governor.h"

#include "core/governors/registry.h"
#include "core/governors/tunable_setting.h"
#include "core/replay/governor_factory.h"
#include "core/replay/reference_replay.h"
#include "core/states/wake_delay.h"
#include "core/stats/run_throughput.h"
#include "core/stats/woken_tasks.h"
#include "core/stream/latency_limit.h"
#include "core/workloads/parallel_for.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <new>

namespace idlescope::experiments {

namespace {

using Setting = TunableSettingText;

bool hasTunable(const Governor &g, const std::string &name)
{
    const auto ts = g.tunables();
    return std::any_of(ts.begin(), ts.end(), [&](const TunableInfo &t) { return name == t.name; });
}

/// A governor for @p gi with the settings that apply to it (a GOVERNOR: prefix names its label).
Result<std::unique_ptr<Governor>> makeGovernor(const GovernorInstance &gi, const std::vector<Setting> &settings)
{
    std::unique_ptr<Governor> g = createGovernor(gi.variant);
    if (!g)
        return Error{"governors", 0, gi.variant,
                     isSourceGovernorId(gi.variant) ? sourceGovernorIdProblem(gi.variant) : "unknown governor variant"};
    for (const Setting &s : settings) {
        if (!s.governor.empty() ? s.governor != gi.label : !hasTunable(*g, s.name))
            continue;
        std::string err;
        if (!g->setTunable(s.name, s.value, &err))
            return Error{"set", 0, s.name, gi.label + ": " + err};
    }
    return g;
}

/// Replays one stream through one governor and collects the counters, with the
/// run's duration and energy (run_throughput.h) on @p power.
RunMetrics replayOne(const IdleStateTable &table, const IdleStream &stream, Governor &gov, const PowerModel &power)
{
    RunMetrics m;
    WakeTotals wake;
    const ReplaySummary sum = replayStream(table, stream, gov, [&](const EntryRecord &e, const Governor &) {
        addWokenTask(table, e, wake, m.wakeups, m.latencyCostNs);
    });
    m.spans = sum.spans;
    m.entries = sum.entries;
    for (int i = 0; i < table.count(); ++i) {
        const StateStats &s = sum.states[static_cast<size_t>(i)];
        m.usage[static_cast<size_t>(i)] = s.usage;
        m.timeNs[static_cast<size_t>(i)] = s.timeNs;
        m.above += s.above;
        m.below += s.below;
        m.aboveByState[static_cast<size_t>(i)] = s.above;
        m.belowByState[static_cast<size_t>(i)] = s.below;
    }
    const RunThroughput t = replayThroughput(table, power, clockOf(stream), sum, m.wakeups, wake);
    m.durationNs = t.durationNs;
    m.idleEnergyJ = t.idleEnergyJ;
    m.energyJ = t.energyJ;
    return m;
}

} // namespace

namespace {

/// @p s with its control characters written as \xNN, to be shown in a message.
std::string quoteControl(std::string_view s)
{
    std::string out;
    for (const char c : s) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

std::string governorLabelProblem(std::string_view label)
{
    if (label.empty())
        return "a label may not be empty";
    if (label.front() == ' ' || label.back() == ' ')
        return "a label may not begin or end with a space";
    for (const char c : label)
        if (c == ',' || c == ':' || c == '=' || c == '"' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return "a label may not hold ',', ':', '=', '\"' or a control character";
    // A right-to-left override turned the numbers after the label around in the legend and
    // the inspector (a user's ctrl.idlescope): no C1 or bidirectional control either.
    if (holdsControlCharacter(label))
        return "a label may not hold a control character or a bidirectional control (U+202E and the like "
               "reorder the text shown after it)";
    return {};
}

std::string reservedGovernorLabelProblem(std::string_view label)
{
    if (findVariant(label) || label == "oracle")
        return "the label " + std::string(label) + " is another variant's id";
    // "recorded" is the kernel's own run of a trace: a simulated row must not look like it.
    if (label == "recorded")
        return "the label recorded names the kernel's own choices in a trace";
    return {};
}

Result<std::vector<GovernorInstance>> parseGovernorList(const std::vector<std::string> &items)
{
    std::vector<GovernorInstance> out;
    for (const std::string &item : items) {
        GovernorInstance gi{item, item};
        // "src:FILE.c" ids may hold '=' in their path: only a valid label before it makes a label.
        if (const std::size_t eq = item.find('='); eq != std::string::npos) {
            std::string label = item.substr(0, eq);
            if (std::string problem = governorLabelProblem(label); problem.empty())
                gi = {std::move(label), item.substr(eq + 1)};
            else if (!isSourceGovernorId(item))
                return Error{"governors", 0, item, problem};
            if (gi.variant.empty())
                return Error{"governors", 0, item, "a label needs the variant it names: LABEL=VARIANT"};
        }
        if (gi.label != gi.variant)
            if (std::string problem = reservedGovernorLabelProblem(gi.label); !problem.empty())
                return Error{"governors", 0, item, problem};
        // A src: governor is named by its path: a field of every table, which a newline would split.
        if (std::any_of(gi.label.begin(), gi.label.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
            return Error{"governors", 0, quoteControl(item),
                         "a governor's name may not hold a control character (it is a field of the CSV and "
                         "markdown tables): rename the file, or give it a label: LABEL=src:FILE.c"};
        for (const GovernorInstance &o : out)
            if (o.label == gi.label)
                // A second instance is for other tunables, which a source file has not.
                return Error{"governors", 0, gi.label,
                             isSourceGovernorId(gi.variant)
                                 ? "listed twice; a governor built from source has no tunables for a second "
                                   "instance to differ in (edit a copy of the file, or give another kernel: "
                                   "src:FILE@VERSION)"
                                 : "listed twice; name the second instance LABEL=" + gi.variant};
        out.push_back(std::move(gi));
    }
    return out;
}

int comparisonThreads(int threads, int jobs, std::size_t spansPerJob)
{
    int n = std::max(1, std::min(threads, jobs));
    if (spansPerJob > 0)
        n = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(n),
                                                   std::max<std::size_t>(1, MAX_SPANS_IN_FLIGHT / spansPerJob)));
    return n;
}

namespace {

/// The options' sizes and ranges, before any name is read: a list long enough to overflow
/// the grid should hear that, not a complaint about one of its thousands of names.
Status checkSizes(const CompareOptions &o, int points)
{
    if (Status v = o.table.validate(); !v)
        return v.error();
    if (o.iterations < 1 || o.iterations > MAX_COMPARE_ITERATIONS)
        return Error{"iterations", 0, "", "must be 1.." + std::to_string(MAX_COMPARE_ITERATIONS)};
    if (o.fixedStream.empty() && (o.spans < 1 || o.spans > 10000000))
        return Error{"spans", 0, "", "must be 1..10000000"};
    if (o.governors.empty())
        return Error{"governors", 0, "", "name at least one governor variant"};
    if (o.shardCount < 1 || o.shardIndex < 0 || o.shardIndex >= o.shardCount)
        return Error{"", 0, "shard", "K/N needs 1 <= K <= N"};
    const std::size_t runs =
        static_cast<std::size_t>(points) * o.governors.size() * static_cast<std::size_t>(o.iterations);
    if (runs > MAX_COMPARE_RUNS)
        return Error{"", 0, "runs",
                     std::to_string(points) + " points x " + std::to_string(o.governors.size()) + " governors x "
                         + std::to_string(o.iterations) + " iterations = " + std::to_string(runs) + " runs; at most "
                         + std::to_string(MAX_COMPARE_RUNS) + " (split the comparison)"};
    return Ok{};
}

/// The governor instances and the settings, each checked once before any thread starts:
/// every setting applies to a listed governor, every governor is made with its settings, and
/// every source file builds (a compile error ends it here, not in every job).
struct CheckedGovernors {
    std::vector<GovernorInstance> instances;
    std::vector<Setting> settings;
};

Result<CheckedGovernors> checkGovernors(const CompareOptions &o)
{
    Result<std::vector<GovernorInstance>> instances = parseGovernorList(o.governors);
    if (!instances)
        return instances.error();
    Result<std::vector<Setting>> settings = parseTunableSettings(o.settings, "set");
    if (!settings)
        return settings.error();
    for (const Setting &s : *settings) {
        bool used = false;
        for (const GovernorInstance &gi : *instances) {
            std::unique_ptr<Governor> g = createGovernor(gi.variant);
            if (g && (s.governor.empty() ? hasTunable(*g, s.name) : s.governor == gi.label))
                used = true;
        }
        if (!used)
            return Error{"set", 0, s.name,
                         s.governor.empty() ? "no listed governor has this tunable"
                                            : "governor " + s.governor + " is not one of the governors"};
    }
    for (const GovernorInstance &gi : *instances)
        if (Result<std::unique_ptr<Governor>> g = makeGovernor(gi, *settings); !g)
            return g.error();
    for (const GovernorInstance &gi : *instances)
        if (Status b = buildSourceGovernorOf(gi.variant); !b)
            return b.error();
    if (!createGovernor("oracle"))
        return Error{"", 0, "oracle", "the oracle governor is not registered", ErrorCode::Internal};
    return CheckedGovernors{std::move(*instances), std::move(*settings)};
}

/// The work units of one comparison, run on the worker threads: one per (point, iteration),
/// each generating its stream once and replaying the oracle and every governor on it. A unit's
/// error (the first in unit order, so the message does not depend on scheduling) ends the
/// comparison; the other units still finish.
class ComparisonUnits {
public:
    ComparisonUnits(const CompareOptions &o, const CheckedGovernors &govs, CompareResult &r)
        : m_o(o), m_govs(govs), m_r(r)
    {
    }

    void run(int unit);
    void report(int unit, Error e);
    bool cancelled() const { return m_o.cancel && m_o.cancel->load(std::memory_order_relaxed); }
    /// The first error in unit order, if any unit failed.
    const Error *error() const { return m_errorUnit >= 0 ? &m_firstError : nullptr; }
    /// What a governor host in a partial sandbox said (a layer the kernel or a container
    /// forbids): once per message, never run silently.
    std::vector<std::string> &sandboxNotes() { return m_sandboxNotes; }

private:
    void noteSandbox(const std::string &notice);
    /// Replays @p stream through governor @p g; false when its host failed (reported).
    bool replayGovernor(int unit, std::size_t g, const IdleStream &stream, RunMetrics &m);

    const CompareOptions &m_o;
    const CheckedGovernors &m_govs;
    CompareResult &m_r;
    std::mutex m_lock;
    int m_errorUnit = -1;
    Error m_firstError;
    std::vector<std::string> m_sandboxNotes;
};

void ComparisonUnits::noteSandbox(const std::string &notice)
{
    const std::lock_guard<std::mutex> lock(m_lock);
    if (std::find(m_sandboxNotes.begin(), m_sandboxNotes.end(), notice) == m_sandboxNotes.end())
        m_sandboxNotes.push_back(notice);
}

void ComparisonUnits::report(int unit, Error e)
{
    const std::lock_guard<std::mutex> lock(m_lock);
    if (m_errorUnit < 0 || unit < m_errorUnit) {
        m_errorUnit = unit;
        m_firstError = std::move(e);
    }
}

bool ComparisonUnits::replayGovernor(int unit, std::size_t g, const IdleStream &stream, RunMetrics &m)
{
    std::unique_ptr<Governor> gov = std::move(makeGovernor(m_govs.instances[g], m_govs.settings).value());
    if (auto *src = dynamic_cast<SourceGovernor *>(gov.get()))
        src->setTimeoutSeconds(m_o.sourceTimeoutSeconds);
    // A governor built from source runs this stream in its own process first.
    if (Status s = prepareGovernor(*gov, m_o.table, stream); !s) {
        report(unit, s.error());
        return false;
    }
    if (auto *src = dynamic_cast<SourceGovernor *>(gov.get()); src && !src->sandboxNotice().empty())
        noteSandbox(src->sandboxNotice());
    m = replayOne(m_o.table, stream, *gov, m_o.power);
    if (Status s = finishGovernor(*gov, nullptr); !s) { // the host's crash or hang, if any
        report(unit, s.error());
        return false;
    }
    return true;
}

void ComparisonUnits::run(int unit)
{
    if (!inShard(unit, m_o.shardIndex, m_o.shardCount) || cancelled())
        return;
    const int p = unit / m_o.iterations;
    const int it = unit % m_o.iterations;
    const bool fixed = !m_o.fixedStream.empty();
    IdleStream generated = fixed ? IdleStream{} : workloads::seededStream(m_o.workload, p, it, m_o.seed, m_o.spans);
    applyLatencyLimit(generated, m_o.latencyLimitNs);
    const IdleStream &stream = fixed ? m_o.fixedStream : generated;
    // The same limit as for a stream file: the replay's ns clock must not overflow.
    if (const std::int64_t past = firstSpanPastStreamLimit(stream); past >= 0) {
        report(unit, Error{"", 0, "spans",
                           "point " + std::to_string(p) + " lasts more than "
                               + std::to_string(MAX_STREAM_NS / NSEC_PER_SEC) + " s in total by span "
                               + std::to_string(past + 1) + " (the replay's int64 ns clock); use fewer spans"});
        return;
    }
    std::unique_ptr<Governor> oracle = createGovernor("oracle");
    const RunMetrics ref = replayOne(m_o.table, stream, *oracle, m_o.power);
    for (std::size_t g = 0; g < m_govs.instances.size(); ++g) {
        RunMetrics m;
        if (!replayGovernor(unit, g, stream, m))
            return;
        m.oracleAbove = ref.above;
        m.oracleBelow = ref.below;
        m_r.runs[CompareResult::index(static_cast<size_t>(p), g, static_cast<size_t>(it), m_o.governors.size(),
                                      static_cast<size_t>(m_o.iterations))] = m;
        if (cancelled()) // a long unit (millions of spans) stops between governors too
            return;
    }
    if (m_o.unitsDone)
        m_o.unitsDone->fetch_add(1, std::memory_order_relaxed);
}

/// Why fewer threads than asked run at once, when they do: each holds a generated stream.
std::string threadLimitNote(const CompareOptions &o, int threads)
{
    return std::to_string(threads) + " of the " + std::to_string(o.threads)
           + " threads run at once: each holds a generated stream of " + std::to_string(o.spans) + " spans ("
           + std::to_string(o.spans * sizeof(IdleSpan) >> 20) + " MiB), and at most "
           + std::to_string(MAX_SPANS_IN_FLIGHT) + " spans ("
           + std::to_string(MAX_SPANS_IN_FLIGHT * sizeof(IdleSpan) >> 20) + " MiB) are held at once";
}

} // namespace

Result<CompareResult> runComparison(const CompareOptions &o)
{
    const bool fixed = !o.fixedStream.empty();
    const int points = fixed ? 1 : o.workload.pointCount();
    if (Status s = checkSizes(o, points); !s)
        return s.error();
    Result<CheckedGovernors> govs = checkGovernors(o);
    if (!govs)
        return govs.error();

    CompareResult r;
    for (const GovernorInstance &gi : govs->instances)
        r.governors.push_back(gi.label);
    r.iterations = o.iterations;
    for (int p = 0; p < points; ++p)
        r.pointLabels.push_back(fixed ? o.fixedStreamLabel : o.workload.pointLabel(p));
    r.runs.resize(static_cast<std::size_t>(points) * o.governors.size() * static_cast<std::size_t>(o.iterations));

    ComparisonUnits units(o, *govs, r);
    const int jobs = points * o.iterations;
    const int threads = comparisonThreads(o.threads, jobs, fixed ? 0 : o.spans);
    if (threads < std::min(o.threads, jobs))
        r.notes.push_back(threadLimitNote(o, threads));
    const int ran = workloads::parallelFor(jobs, threads, [&](int job) {
        // A worker thread must not let an exception out (std::terminate).
        try {
            units.run(job);
        } catch (const std::bad_alloc &) {
            units.report(job, Error{"", 0, "",
                                    "out of memory while replaying point " + std::to_string(job / o.iterations)
                                        + ", iteration " + std::to_string(job % o.iterations + 1),
                                    ErrorCode::Internal});
        }
    });
    if (ran < threads)
        r.notes.push_back("the system started " + std::to_string(ran) + " of the " + std::to_string(threads)
                          + " threads asked for (no memory or process slot for more); the runs went on with "
                          + std::to_string(ran));
    for (std::string &notice : units.sandboxNotes()) {
        while (!notice.empty() && notice.back() == '\n')
            notice.pop_back();
        r.notes.push_back(std::move(notice));
    }
    if (const Error *e = units.error())
        return *e;
    if (units.cancelled()) // some units never ran: a partial table is no result
        return Error::cancelled("the comparison was cancelled");
    return r;
}

} // namespace idlescope::experiments
