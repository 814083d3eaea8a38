// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/scenario_command.h"

#include "core/experiments/comparison.h"
#include "core/experiments/governor_settings.h"
#include "core/formats/csv_fields.h"
#include "core/workloads/workload_spec.h"

#include <algorithm>
#include <climits>
#include <map>

namespace idlescope::scenario {

namespace {

/// The value of the last --@p name given (the command line's rule: a later option wins), or null.
const std::string *lastValue(std::span<const CommandOption> options, std::string_view name)
{
    for (auto it = options.rbegin(); it != options.rend(); ++it)
        if (it->first == name)
            return &it->second;
    return nullptr;
}

std::vector<std::string> allValues(std::span<const CommandOption> options, std::string_view name)
{
    std::vector<std::string> out;
    for (const CommandOption &o : options)
        if (o.first == name)
            out.push_back(o.second);
    return out;
}

/// "a,b,,c" -> a, b, c: --governors' items (an empty item is no governor).
std::vector<std::string> commaItems(const std::string &s)
{
    std::vector<std::string> out;
    std::size_t begin = 0;
    while (begin <= s.size()) {
        const std::size_t comma = std::min(s.find(',', begin), s.size());
        if (comma > begin)
            out.push_back(s.substr(begin, comma - begin));
        begin = comma + 1;
    }
    return out;
}

/// A decimal with up to 3 fractional digits as thousandths ("12.5" -> 12500), or nullopt:
/// the workload grammar's reader of a microsecond parameter.
std::optional<std::int64_t> thousandths(const std::string &text)
{
    const workloads::DecimalValue d = workloads::readDecimal(text, 1000);
    return d.fault == workloads::DecimalFault::None ? std::optional<std::int64_t>(d.value) : std::nullopt;
}

/// @p n thousandths as a decimal with up to 3 fractional digits (12500 -> "12.5"): thousandths()'
/// inverse, written as the workload grammar writes a microsecond parameter.
std::string thousandthsText(std::int64_t n)
{
    static const workloads::ParamInfo thousandthsParam{"", workloads::ParamUnit::Us, 0, 0, 0, ""};
    return workloads::formatParamValue(thousandthsParam, n);
}

/// --duration S: seconds with up to 3 decimals, 0.001..86400, as ns; 0 when not given.
Result<Ns> durationOption(std::span<const CommandOption> options)
{
    const std::string *text = lastValue(options, "duration");
    if (!text)
        return Ns(0);
    const std::optional<std::int64_t> ms = thousandths(*text);
    if (!ms || *ms < 1 || *ms > 86400 * 1000)
        return Error{"", 0, "--duration", "'" + *text + "' is not seconds (up to 3 decimals) in 0.001..86400"};
    return *ms * 1000 * NSEC_PER_USEC;
}

/// The workload source of --workload, --trace or --closed-loop (exactly one of them).
Result<WorkloadSource> workloadFromOptions(std::span<const CommandOption> options)
{
    const std::string *spec = lastValue(options, "workload");
    const std::string *tracePath = lastValue(options, "trace");
    const std::string *loop = lastValue(options, "closed-loop");
    if (int(spec != nullptr) + int(tracePath != nullptr) + int(loop != nullptr) != 1)
        return Error{"", 0, "", "give one of --workload, --trace and --closed-loop"};
    WorkloadSource w;
    if (tracePath) {
        w.kind = WorkloadKind::Trace;
        w.path = *tracePath;
        if (const std::string *cpu = lastValue(options, "cpu")) {
            const std::optional<std::int64_t> n = csv::parseInt(*cpu);
            if (!n || *n < 0 || *n > INT_MAX)
                return Error{w.path, 0, "--cpu", "'" + *cpu + "' is not a CPU number"};
            w.cpu = static_cast<int>(*n);
        }
    } else if (loop) {
        w.kind = WorkloadKind::ClosedLoop;
        w.text = *loop;
    } else if (spec->rfind("csv:", 0) == 0) {
        w.kind = WorkloadKind::Csv;
        w.path = spec->substr(4);
    } else {
        w.kind = WorkloadKind::Spec;
        w.text = *spec;
    }
    Result<std::int64_t> spans = wholeNumberOption(options, "spans", DEFAULT_SPANS, 1, MAX_SPANS);
    Result<std::int64_t> seed = wholeNumberOption(options, "seed", 1, 0, INT64_MAX);
    Result<Ns> duration = durationOption(options);
    if (!spans)
        return spans.error();
    if (!seed)
        return seed.error();
    if (!duration)
        return duration.error();
    w.spans = *spans;
    w.seed = *seed;
    w.durationNs = *duration;
    return w;
}

/// The instances of --governors, each with the --set items that apply to it.
Result<std::vector<GovernorInstance>> governorsFromOptions(std::span<const CommandOption> options)
{
    const std::string *list = lastValue(options, "governors");
    Result<std::vector<experiments::GovernorInstance>> listed =
        experiments::parseGovernorList(commaItems(list ? *list : std::string()));
    if (!listed)
        return listed.error();
    std::vector<std::string> variants;
    std::vector<std::string> labels;
    for (const experiments::GovernorInstance &gi : *listed) {
        variants.push_back(gi.variant);
        labels.push_back(gi.label);
    }
    Result<std::vector<std::vector<TunableSetting>>> settings =
        settingsPerGovernor(variants, allValues(options, "set"), labels);
    if (!settings)
        return settings.error();
    std::vector<GovernorInstance> out;
    for (std::size_t g = 0; g < listed->size(); ++g) {
        const experiments::GovernorInstance &gi = (*listed)[g];
        // An instance the list names by its variant id alone is the variant's own instance.
        out.push_back({gi.variant, gi.label == gi.variant ? std::string() : gi.label, std::move((*settings)[g])});
    }
    return out;
}

/// @p settings with each tunable once, at the last value given (what applying them in order leaves).
std::vector<TunableSetting> lastValues(const std::vector<TunableSetting> &settings)
{
    std::vector<TunableSetting> out;
    for (const TunableSetting &s : settings) {
        const auto same =
            std::find_if(out.begin(), out.end(), [&](const TunableSetting &o) { return o.first == s.first; });
        if (same != out.end())
            same->second = s.second;
        else
            out.push_back(s);
    }
    return out;
}

/// The same spans from @p a and @p b: the fields their kind is made from, and only those (a
/// stream file has no seed, a closed loop no span count).
bool sameWorkloadSource(const WorkloadSource &a, const WorkloadSource &b)
{
    const auto text = [](WorkloadKind k) { return k == WorkloadKind::Generator || k == WorkloadKind::Spec; };
    if (a.kind != b.kind && !(text(a.kind) && text(b.kind)))
        return false;
    switch (a.kind) {
    case WorkloadKind::Csv: return a.path == b.path;
    case WorkloadKind::Trace: return a.path == b.path && a.cpu == b.cpu;
    case WorkloadKind::ClosedLoop: return a.text == b.text && a.seed == b.seed;
    case WorkloadKind::Generator:
    case WorkloadKind::Spec: break;
    }
    return a.text == b.text && a.spans == b.spans && a.durationNs == b.durationNs && a.seed == b.seed
           && a.legacySeeding == b.legacySeeding;
}

} // namespace

Result<std::int64_t> wholeNumberOption(std::span<const CommandOption> options, const std::string &name,
                                       std::int64_t fallback, std::int64_t lo, std::int64_t hi)
{
    const std::string *text = lastValue(options, name);
    if (!text)
        return fallback;
    const std::optional<std::int64_t> n = csv::parseInt(*text);
    if (!n || *n < lo || *n > hi)
        return Error{"--" + name, 0, "",
                     "'" + *text + "' is not a whole number in " + std::to_string(lo) + ".." + std::to_string(hi)};
    return *n;
}

Result<Ns> parseMicroseconds(const std::string &us, const std::string &option)
{
    const std::optional<std::int64_t> ns = thousandths(us);
    if (!ns || *ns > 10 * NSEC_PER_SEC)
        return Error{"", 0, option, "'" + us + "' is not microseconds (up to 3 decimals) in 0..10000000"};
    return *ns;
}

std::string microsecondsText(Ns ns)
{
    return thousandthsText(ns);
}

Result<Scenario> scenarioFromOptions(std::span<const CommandOption> options)
{
    Scenario s;
    Result<WorkloadSource> workload = workloadFromOptions(options);
    if (!workload)
        return workload.error();
    s.workload = std::move(*workload);
    Result<std::vector<GovernorInstance>> governors = governorsFromOptions(options);
    if (!governors)
        return governors.error();
    s.governors = std::move(*governors);
    if (const std::string *limit = lastValue(options, "latency-limit")) {
        Result<Ns> ns = parseMicroseconds(*limit, "--latency-limit");
        if (!ns)
            return ns.error();
        s.latencyLimitNs = *ns;
    }
    if (lastValue(options, "hz")) {
        Result<std::int64_t> hz = wholeNumberOption(options, "hz", 250, 24, 10000);
        if (!hz)
            return hz.error();
        s.tickHz = static_cast<int>(*hz);
    }
    if (const std::string *path = lastValue(options, "wake-delays")) {
        if (path->empty())
            return Error{"", 0, "--wake-delays", "no file named (a wult datapoints.csv)"};
        s.wakeDelaysPath = *path;
    }
    return s;
}

std::vector<std::string> governorListItems(const std::vector<GovernorInstance> &governors)
{
    std::vector<std::string> items;
    for (const GovernorInstance &g : governors)
        items.push_back(g.label.empty() ? g.variant : g.label + "=" + g.variant);
    return items;
}

std::vector<std::string> settingTexts(const std::vector<GovernorInstance> &governors)
{
    std::vector<std::string> texts;
    for (const GovernorInstance &g : governors)
        for (const auto &[tunable, value] : lastValues(g.settings))
            texts.push_back(g.name() + ":" + tunable + "=" + std::to_string(value));
    return texts;
}

std::vector<std::string> compareArguments(const Scenario &s, const std::vector<std::string> &targetArgs)
{
    std::vector<std::string> a{"compare"};
    a.insert(a.end(), targetArgs.begin(), targetArgs.end());
    if (s.tickHz)
        a.insert(a.end(), {"--hz", std::to_string(*s.tickHz)});
    if (!s.wakeDelaysPath.empty())
        a.insert(a.end(), {"--wake-delays", s.wakeDelaysPath});
    const WorkloadSource &w = s.workload;
    switch (w.kind) {
    case WorkloadKind::Csv: a.insert(a.end(), {"--workload", "csv:" + w.path}); break;
    case WorkloadKind::Trace:
        a.insert(a.end(), {"--trace", w.path});
        if (w.cpu != TRACE_BEST_CPU)
            a.insert(a.end(), {"--cpu", std::to_string(w.cpu)});
        break;
    case WorkloadKind::ClosedLoop:
        a.insert(a.end(), {"--closed-loop", w.text, "--seed", std::to_string(w.seed)});
        break;
    case WorkloadKind::Generator:
    case WorkloadKind::Spec:
        a.insert(a.end(), {"--workload", w.text, "--seed", std::to_string(w.seed)});
        if (w.durationNs > 0)
            a.insert(a.end(), {"--duration", thousandthsText(w.durationNs / 1000000)});
        else
            a.insert(a.end(), {"--spans", std::to_string(w.spans)});
        break;
    }
    if (s.latencyLimitNs >= 0)
        a.insert(a.end(), {"--latency-limit", microsecondsText(s.latencyLimitNs)});
    // One stream, one replay per governor; a closed loop and a machine run once anyway.
    if (w.kind != WorkloadKind::ClosedLoop && !s.machine)
        a.insert(a.end(), {"--iterations", "1"});
    std::string list;
    for (const std::string &item : governorListItems(s.governors))
        list += (list.empty() ? "" : ",") + item;
    a.insert(a.end(), {"--governors", list});
    for (const std::string &set : settingTexts(s.governors))
        a.insert(a.end(), {"--set", set});
    return a;
}

bool sameScenario(const Scenario &a, const Scenario &b)
{
    if (!sameWorkloadSource(a.workload, b.workload) || a.latencyLimitNs != b.latencyLimitNs || a.tickHz != b.tickHz
        || a.wakeDelaysPath != b.wakeDelaysPath || a.governors.size() != b.governors.size())
        return false;
    for (std::size_t g = 0; g < a.governors.size(); ++g) {
        const GovernorInstance &x = a.governors[g];
        const GovernorInstance &y = b.governors[g];
        if (x.variant != y.variant || x.label != y.label || lastValues(x.settings) != lastValues(y.settings))
            return false;
    }
    return true;
}

} // namespace idlescope::scenario
