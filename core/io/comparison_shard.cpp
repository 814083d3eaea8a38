// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/comparison_shard.h"

#include "core/common/input_file.h"
#include "core/formats/csv_fields.h"
#include "core/io/table_json.h"
#include "core/stream/idle_span.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <set>

namespace idlescope {

using experiments::CompareOptions;
using experiments::CompareResult;
using experiments::RunMetrics;

namespace {

constexpr int SHARD_FORMAT = 1;
constexpr int SHARD_COUNT_MAX = 100000;

// The order of a run's "counters": the scalars, then usage and time per state.
std::vector<std::int64_t> countersOf(const RunMetrics &m, int states)
{
    std::vector<std::int64_t> c{m.spans,       m.entries,     m.above,   m.below,
                                m.oracleAbove, m.oracleBelow, m.wakeups, m.latencyCostNs};
    for (int s = 0; s < states; ++s)
        c.push_back(m.usage[static_cast<size_t>(s)]);
    for (int s = 0; s < states; ++s)
        c.push_back(m.timeNs[static_cast<size_t>(s)]);
    return c;
}
constexpr int SCALAR_COUNTERS = 8;

RunMetrics metricsOf(const std::vector<std::int64_t> &c, int states)
{
    RunMetrics m;
    m.spans = c[0];
    m.entries = c[1];
    m.above = c[2];
    m.below = c[3];
    m.oracleAbove = c[4];
    m.oracleBelow = c[5];
    m.wakeups = c[6];
    m.latencyCostNs = c[7];
    for (int s = 0; s < states; ++s) {
        m.usage[static_cast<size_t>(s)] = c[static_cast<size_t>(SCALAR_COUNTERS + s)];
        m.timeNs[static_cast<size_t>(s)] = c[static_cast<size_t>(SCALAR_COUNTERS + states + s)];
    }
    return m;
}

QJsonArray stringArray(const std::vector<std::string> &v)
{
    QJsonArray a;
    for (const std::string &s : v)
        a.append(QString::fromStdString(s));
    return a;
}

/// What every shard of one comparison shares; compared key by key on merge.
QJsonObject headerOf(const QJsonObject &root)
{
    QJsonObject h;
    for (const char *key : {"table", "workload", "seed", "spans", "iterations", "points", "governors"})
        h.insert(QLatin1String(key), root.value(QLatin1String(key)));
    return h;
}

struct Shard {
    std::string path;
    QJsonObject root;
    int index = 0, count = 0;
};

Result<Shard> parseShard(const std::string &path, std::string_view text)
{
    QJsonParseError perr;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(text.data(), static_cast<qsizetype>(text.size())), &perr);
    if (perr.error != QJsonParseError::NoError)
        return Error{path, 0, "",
                     "JSON syntax error at byte " + std::to_string(perr.offset) + ": "
                         + perr.errorString().toStdString()};
    const QJsonObject root = doc.object();
    if (root.value(QLatin1String("idlescope_compare_shard")).toInt() != SHARD_FORMAT)
        return Error{path, 0, "idlescope_compare_shard",
                     "not a shard file of idlescope-cli compare --shard (format 1)"};
    const QJsonArray shard = root.value(QLatin1String("shard")).toArray();
    Shard s{path, root, shard.at(0).toInt(-1), shard.at(1).toInt(-1)};
    if (shard.size() != 2 || s.count < 1 || s.count > SHARD_COUNT_MAX || s.index < 1 || s.index > s.count)
        return Error{path, 0, "shard", "expected [K, N] with 1 <= K <= N"};
    --s.index;
    return s;
}

std::vector<std::string> strings(const QJsonValue &v)
{
    std::vector<std::string> out;
    for (const QJsonValue &x : v.toArray())
        out.push_back(x.toString().toStdString());
    return out;
}

/// Every shard of @p shards is of the first's comparison (the same header and shard
/// count), each given once, none missing.
Status checkSameComparison(const std::vector<Shard> &shards)
{
    const Shard &first = shards.front();
    const QJsonObject header = headerOf(first.root);
    std::set<int> seen;
    for (const Shard &s : shards) {
        for (auto it = header.begin(); it != header.end(); ++it)
            if (s.root.value(it.key()) != it.value())
                return Error{s.path, 0, it.key().toStdString(),
                             "differs from " + first.path + ": the shards are of different comparisons"};
        if (s.count != first.count)
            return Error{s.path, 0, "shard",
                         "of " + std::to_string(s.count) + " shards, " + first.path + " of "
                             + std::to_string(first.count)};
        if (!seen.insert(s.index).second)
            return Error{s.path, 0, "shard", "shard " + std::to_string(s.index + 1) + " is given twice"};
    }
    for (int k = 0; k < first.count; ++k)
        if (!seen.count(k))
            return Error{"", 0, "shard",
                         "shard " + std::to_string(k + 1) + "/" + std::to_string(first.count) + " is missing"};
    return Ok{};
}

/// The comparison the header of @p first describes (its table, workload, grid), with no
/// runs yet; within compare's own limits: a shard claims what no compare run writes, and
/// its grid would be allocated before a single run is read.
Result<MergedComparison> comparisonOf(const Shard &first)
{
    MergedComparison m;
    CompareOptions &o = m.options;
    Result<IdleStateTable> table =
        parseTableJson(QJsonDocument(first.root.value(QLatin1String("table")).toObject()).toJson().toStdString(),
                       first.path);
    if (!table)
        return table.error();
    o.table = std::move(*table);
    o.workload.text = first.root.value(QLatin1String("workload")).toString().toStdString();
    const auto seed = csv::parseInt(first.root.value(QLatin1String("seed")).toString().toStdString());
    const auto spans = csv::parseInt(first.root.value(QLatin1String("spans")).toString().toStdString());
    o.iterations = first.root.value(QLatin1String("iterations")).toInt();
    CompareResult &r = m.result;
    r.pointLabels = strings(first.root.value(QLatin1String("points")));
    r.governors = strings(first.root.value(QLatin1String("governors")));
    r.iterations = o.iterations;
    if (!seed || *seed < 0 || !spans || *spans < 1 || o.iterations < 1 || r.pointLabels.empty() || r.governors.empty())
        return Error{first.path, 0, "", "seed, spans, iterations, points or governors missing or invalid"};
    if (o.iterations > experiments::MAX_COMPARE_ITERATIONS)
        return Error{first.path, 0, "iterations",
                     std::to_string(o.iterations) + " is more than compare runs (1.."
                         + std::to_string(experiments::MAX_COMPARE_ITERATIONS) + ")"};
    const std::size_t gridRuns = r.pointLabels.size() * r.governors.size() * static_cast<std::size_t>(o.iterations);
    if (gridRuns > experiments::MAX_COMPARE_RUNS)
        return Error{first.path, 0, "runs",
                     std::to_string(r.pointLabels.size()) + " points x " + std::to_string(r.governors.size())
                         + " governors x " + std::to_string(o.iterations) + " iterations = " + std::to_string(gridRuns)
                         + " runs; compare makes at most " + std::to_string(experiments::MAX_COMPARE_RUNS)};
    o.seed = static_cast<std::uint64_t>(*seed);
    o.spans = static_cast<std::size_t>(*spans);
    o.governors = r.governors;
    return m;
}

/// Each shard holds every run of its units (point x iteration, the u < all with
/// u % count == index), one per governor, no more: counted before the grid is made.
Status checkRunCounts(const std::vector<Shard> &shards, const CompareResult &r)
{
    const auto all = r.pointLabels.size() * static_cast<std::size_t>(r.iterations);
    const std::size_t nGov = r.governors.size();
    for (const Shard &s : shards) {
        const auto k = static_cast<std::size_t>(s.index), n = static_cast<std::size_t>(s.count);
        const std::size_t units = k < all ? (all - k + n - 1) / n : 0;
        const auto have = static_cast<std::size_t>(s.root.value(QLatin1String("runs")).toArray().size());
        if (have != units * nGov)
            return Error{s.path, 0, "runs",
                         std::to_string(have) + " runs, but shard " + std::to_string(s.index + 1) + "/"
                             + std::to_string(s.count) + " of this comparison has " + std::to_string(units * nGov)
                             + (have < units * nGov ? " (the file was cut short?)" : "")};
    }
    return Ok{};
}

/// The counters of a run (@p where in shard @p path) of a table of @p states: whole numbers,
/// none past what a run can count, the states' times adding up to no more than a stream lasts.
Result<std::vector<std::int64_t>> runCounters(const std::string &path, const std::string &where,
                                              const QJsonArray &counters, int states)
{
    if (counters.size() != SCALAR_COUNTERS + 2 * states)
        return Error{path, 0, "counters", where + ": expected " + std::to_string(SCALAR_COUNTERS + 2 * states)};
    std::vector<std::int64_t> c;
    for (const QJsonValue &x : counters) {
        const auto n = csv::parseInt(x.toString().toStdString());
        if (!n || *n < 0)
            return Error{path, 0, "counters",
                         where + ": '" + x.toString().toStdString() + "' is not a whole number >= 0"};
        // No run counts past its stream's length in ns (the replay's clock limit),
        // and below that bound the table's sums (above + below) cannot overflow.
        if (*n > MAX_STREAM_NS)
            return Error{path, 0, "counters",
                         where + ": " + std::to_string(*n) + " is more than a run can count (at most "
                             + std::to_string(MAX_STREAM_NS) + ", the ns of the longest stream)"};
        c.push_back(*n);
    }
    // The states' times add up to the run's idle time, within the same limit.
    Ns idle = 0;
    for (int st = 0; st < states && idle <= MAX_STREAM_NS; ++st)
        idle += c[static_cast<size_t>(SCALAR_COUNTERS + states + st)]; // two terms <= 3e18: no overflow
    if (idle > MAX_STREAM_NS)
        return Error{path, 0, "counters",
                     where + ": the states' times add up to " + std::to_string(idle)
                         + " ns, longer than a stream can last (" + std::to_string(MAX_STREAM_NS) + " ns)"};
    return c;
}

/// The runs of @p shards into the grid of @p m, each where its point, iteration and
/// governor put it: one of its shard's, given once, and every cell filled.
Status fillRuns(const std::vector<Shard> &shards, MergedComparison &m)
{
    CompareResult &r = m.result;
    const int points = static_cast<int>(r.pointLabels.size());
    const int nGov = static_cast<int>(r.governors.size());
    const int iterations = m.options.iterations;
    const int states = m.options.table.count();
    r.runs.resize(r.pointLabels.size() * r.governors.size() * static_cast<std::size_t>(iterations));
    std::vector<bool> filled(r.runs.size(), false);
    for (const Shard &s : shards) {
        for (const QJsonValue &v : s.root.value(QLatin1String("runs")).toArray()) {
            const QJsonObject run = v.toObject();
            const int p = run.value(QLatin1String("point")).toInt(-1);
            const int it = run.value(QLatin1String("iteration")).toInt(-1);
            const int g = run.value(QLatin1String("governor")).toInt(-1);
            const std::string where = "run (point " + std::to_string(p) + ", iteration " + std::to_string(it)
                                      + ", governor " + std::to_string(g) + ")";
            if (p < 0 || p >= points || it < 0 || it >= iterations || g < 0 || g >= nGov
                || !experiments::inShard(p * iterations + it, s.index, s.count))
                return Error{s.path, 0, "runs", where + " is not one of this shard's"};
            Result<std::vector<std::int64_t>> c =
                runCounters(s.path, where, run.value(QLatin1String("counters")).toArray(), states);
            if (!c)
                return c.error();
            const size_t at =
                CompareResult::index(static_cast<size_t>(p), static_cast<size_t>(g), static_cast<size_t>(it),
                                     static_cast<size_t>(nGov), static_cast<size_t>(iterations));
            if (filled[at])
                return Error{s.path, 0, "runs", where + " is given twice"};
            filled[at] = true;
            r.runs[at] = metricsOf(*c, states);
        }
    }
    for (size_t i = 0; i < filled.size(); ++i)
        if (!filled[i])
            return Error{"", 0, "runs", "run " + std::to_string(i) + " is in no shard (a shard file was cut short?)"};
    return Ok{};
}

} // namespace

Result<std::pair<int, int>> parseShard(const std::string &text)
{
    const Error bad{"", 0, "shard", "'" + text + "' is not K/N with 1 <= K <= N <= 100000"};
    const size_t slash = text.find('/');
    if (slash == std::string::npos)
        return bad;
    const std::int64_t k = csv::parseInt(text.substr(0, slash)).value_or(0);
    const std::int64_t n = csv::parseInt(text.substr(slash + 1)).value_or(0);
    if (n < 1 || n > SHARD_COUNT_MAX || k < 1 || k > n)
        return bad;
    return std::pair<int, int>{static_cast<int>(k) - 1, static_cast<int>(n)};
}

std::string formatComparisonShard(const CompareOptions &o, const CompareResult &r)
{
    QJsonObject root;
    root.insert(QLatin1String("idlescope_compare_shard"), SHARD_FORMAT);
    root.insert(QLatin1String("shard"), QJsonArray{o.shardIndex + 1, o.shardCount});
    root.insert(QLatin1String("table"),
                QJsonDocument::fromJson(QByteArray::fromStdString(formatTableJson(o.table))).object());
    const bool fixed = !o.fixedStream.empty();
    // The values the tables print in their header (see formatComparison()).
    root.insert(QLatin1String("workload"), QString::fromStdString(fixed ? o.fixedStreamLabel : o.workload.text));
    root.insert(QLatin1String("seed"), QString::number(o.seed));
    root.insert(QLatin1String("spans"), QString::number(fixed ? o.fixedStream.size() : o.spans));
    root.insert(QLatin1String("iterations"), o.iterations);
    root.insert(QLatin1String("points"), stringArray(r.pointLabels));
    root.insert(QLatin1String("governors"), stringArray(r.governors));
    QJsonArray runs;
    const int nGov = static_cast<int>(r.governors.size());
    for (int p = 0; p < static_cast<int>(r.pointLabels.size()); ++p)
        for (int it = 0; it < r.iterations; ++it) {
            if (!experiments::inShard(p * r.iterations + it, o.shardIndex, o.shardCount))
                continue;
            for (int g = 0; g < nGov; ++g) {
                QJsonArray counters;
                for (std::int64_t c : countersOf(r.at(p, g, it), o.table.count()))
                    counters.append(QString::number(c));
                runs.append(QJsonObject{{QLatin1String("point"), p},
                                        {QLatin1String("iteration"), it},
                                        {QLatin1String("governor"), g},
                                        {QLatin1String("counters"), counters}});
            }
        }
    root.insert(QLatin1String("runs"), runs);
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

Result<MergedComparison> mergeComparisonShards(const std::vector<std::string> &paths)
{
    if (paths.empty())
        return Error{"", 0, "", "no shard files given"};
    // Read one by one, each parsed and its text freed before the next is read.
    std::vector<std::pair<std::string, std::string>> texts;
    for (const std::string &path : paths) {
        Result<std::string> text = readInputFile(path, MAX_SHARD_FILE_BYTES, "a shard file");
        if (!text)
            return text.error();
        texts.emplace_back(path, std::move(*text));
    }
    return mergeComparisonShardTexts(texts);
}

Result<MergedComparison> mergeComparisonShardTexts(const std::vector<std::pair<std::string, std::string>> &files)
{
    if (files.empty())
        return Error{"", 0, "", "no shard files given"};
    std::vector<Shard> shards;
    for (const auto &[path, text] : files) {
        Result<Shard> s = parseShard(path, text);
        if (!s)
            return s.error();
        shards.push_back(std::move(*s));
    }
    if (Status s = checkSameComparison(shards); !s)
        return s.error();
    Result<MergedComparison> m = comparisonOf(shards.front());
    if (!m)
        return m.error();
    if (Status s = checkRunCounts(shards, m->result); !s)
        return s.error();
    if (Status s = fillRuns(shards, *m); !s)
        return s.error();
    return m;
}

} // namespace idlescope
